"""The reader on the real screenshots after a change a sharing app or an editor may make:
brighter, darker, more contrast, scaled, or saved as a coarse JPEG.

    python benchmarks/retouched.py ../shared/data/screenshots [--changes bright+10,gain1.08]

Each change is applied to every screenshot of ``DIR/truth.json`` (as
``benchmarks/recognition.py`` reads it), which is then read and scored: screenshots
refused, cells wrong, **silent** errors (wrong cells not flagged as uncertain, none on a
shot whose colors are in doubt), boards exact, and the counter right, unsure or WRONG.
A line names each shot with silent errors or a wrong counter.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

import numpy as np
from PIL import Image

from kamivision.board import differing_cells, read_board
from kamivision.errors import ImageError
from kamivision.synth.render import encode
from kamivision.vision import recognize


def _encoded(jpeg_quality: int | None = None, scale: float | None = None):
    """As the renderer's samples are shared (:func:`~kamivision.synth.render.encode`)."""
    return lambda rgb: np.asarray(Image.open(io.BytesIO(encode(rgb, ".png", jpeg_quality, scale))).convert("RGB"))


def _levels(gain: float, offset: float):
    return lambda rgb: np.clip(rgb.astype(np.float32) * gain + offset, 0, 255).astype(np.uint8)


CHANGES = {
    "bright+10": _levels(1.0, 10),
    "bright+20": _levels(1.0, 20),
    "gain1.08": _levels(1.08, 0),
    "contrast1.1": _levels(1.1, -12),
    "dim0.8": _levels(0.8, 0),
    "scale0.4": _encoded(scale=0.4),
    "scale1.7": _encoded(scale=1.7),
    "jpeg30": _encoded(jpeg_quality=30),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--changes", default=",".join(CHANGES), help="comma-separated: " + ", ".join(CHANGES))
    args = parser.parse_args()
    names = args.changes.split(",")
    unknown = [n for n in names if n not in CHANGES]
    if unknown:
        raise SystemExit(f"unknown change {unknown[0]!r}: one of {', '.join(CHANGES)}")
    entries = json.loads((args.folder / "truth.json").read_text())["screenshots"]
    header = f"{'change':<12} {'shots':>5} {'refused':>7} {'wrong':>5} {'SILENT':>6} {'exact':>7} {'ctr right':>9} {'unsure':>6} {'WRONG':>5}"
    rows = []
    for name in names:
        t = dict(shots=0, refused=0, wrong=0, silent=0, exact=0, boards=0, right=0, unsure=0, bad=0)
        for entry in entries:
            rgb = CHANGES[name](np.asarray(Image.open(args.folder / entry["file"]).convert("RGB")))
            t["shots"] += 1
            try:
                rec = recognize(rgb, entry["file"])
            except ImageError as error:
                t["refused"] += 1
                print(f"{name}: {error}", flush=True)
                continue
            par = rec.board.par
            t["unsure" if par is None else "right" if par == entry["par"] else "bad"] += 1
            if par is not None and par != entry["par"]:
                print(f"{name}: {entry['file']}: counter {par}, shows {entry['par']}", flush=True)
            if entry.get("board"):
                wrong = set(differing_cells(rec.board, read_board(args.folder / entry["board"])))
                silent = 0 if rec.palette_doubt else len(wrong - set(rec.uncertain))
                t["boards"] += 1
                t["wrong"] += len(wrong)
                t["silent"] += silent
                t["exact"] += not wrong
                if silent:
                    print(f"{name}: {entry['file']}: {silent} silent errors", flush=True)
        rows.append(
            f"{name:<12} {t['shots']:>5} {t['refused']:>7} {t['wrong']:>5} {t['silent']:>6} "
            f"{t['exact']:>3}/{t['boards']:<3} {t['right']:>9} {t['unsure']:>6} {t['bad']:>5}"
        )
    print()
    print(header)
    print("-" * len(header))
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
