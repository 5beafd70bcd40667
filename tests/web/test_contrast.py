"""The page's outlines stand out on every KAMI color: each is a light stroke over a dark
one, and one of the two reaches WCAG's 3:1 for graphics against any paper color the page
can show (the samples' palettes, the renderer's papers that board files such as the
Journey levels are drawn in, and the real screenshots' palettes when ../shared is there)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kamivision.board import read_board
from kamivision.synth.render import PAPER_COLORS

ROOT = Path(__file__).resolve().parents[2]
STYLE = (ROOT / "kamivision" / "web" / "static" / "style.css").read_text()
SHARED = ROOT.parent / "shared" / "data" / "screenshots"


def luminance(hex_color: str) -> float:
    channels = [int(hex_color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def variable(name: str) -> str:
    match = re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{6}})", STYLE)
    assert match, f"style.css has no --{name}"
    return match.group(1)


def palettes() -> list[str]:
    colors = set(PAPER_COLORS)
    for path in sorted(ROOT.glob("samples/*.json")):
        colors.update(read_board(path).palette or [])
    if SHARED.is_dir():
        for path in SHARED.rglob("*.json"):
            try:
                colors.update(json.loads(path.read_text()).get("palette") or [])
            except (ValueError, AttributeError):
                pass
    return sorted(colors)


def test_every_outline_pair_reaches_3_to_1_on_every_paper_color():
    dark, light = variable("outline-dark"), variable("outline-light")
    colors = palettes()
    assert len(colors) >= 20
    weak = [c for c in colors if max(contrast(dark, c), contrast(light, c)) < 3.0]
    assert not weak, weak


@pytest.mark.parametrize("cls", ["unsure", "flagged", "region", "cursor"])
def test_every_outline_on_the_board_is_drawn_over_a_dark_stroke(cls):
    under = re.search(
        rf"#board \.{cls}-under[^{{]*{{[^}}]*stroke:\s*var\(--outline-dark\)[^}}]*stroke-width:\s*([\d.]+)", STYLE
    ) or re.search(
        rf"\.{cls}-under\b[^{{]*{{[^}}]*stroke:\s*var\(--outline-dark\)[^}}]*stroke-width:\s*([\d.]+)", STYLE
    )
    top = re.search(rf"#board \.{cls} {{[^}}]*stroke-width:\s*([\d.]+)", STYLE)
    assert under and top, cls
    assert float(under.group(1)) > float(top.group(1))  # the dark stroke shows on both sides
    script = "".join(path.read_text() for path in (ROOT / "kamivision" / "web" / "static").glob("*.js"))
    assert f'"{cls}-under"' in script  # and the page draws it


def test_a_markers_number_reaches_4_5_to_1_on_every_color_it_is_written_on():
    """Issue 48: the step marker's number is written in the move's color's ink (the page's
    ``ink``, :func:`kamivision.overlay.ink_on`), dark or light by contrast: white on cream
    had almost disappeared."""
    from kamivision.overlay import ink_on

    colors = palettes()
    assert len(colors) >= 20
    weak = []
    for c in colors:
        ink = "#%02x%02x%02x" % ink_on(tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)))
        if contrast(ink, c) < 4.5:
            weak.append((c, ink, round(contrast(ink, c), 2)))
    assert not weak, weak
    # The worst color for both inks still reaches 4.5:1 with one of them.
    grays = ["#%02x%02x%02x" % (v, v, v) for v in range(256)]
    assert min(max(contrast("#000000", g), contrast("#ffffff", g)) for g in grays) >= 4.5
