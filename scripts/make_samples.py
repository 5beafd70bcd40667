"""Make the shipped samples: board files designed here, solved to set their par, each
rendered as a screenshot on one of the phone layouts.

    python scripts/make_samples.py          # writes samples/*.json and samples/*.png

Boards are drawn from a seeded generator of KAMI-like patterns (stripes, bands, diamonds,
a blank outline); par is the proven optimum, so every sample is a real puzzle with a
checked answer.  Existing files are replaced (this script owns them).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from kamivision.board import make_board, write_board
from kamivision.files import write_atomic
from kamivision.solver import solve
from kamivision.synth.render import PAPER_COLORS, encode, render

ROOT = Path(__file__).resolve().parents[1] / "samples"

# name, device, colors, pattern, blank outline, seed (screenshots are JPEG, as phones share
# them, except the two small ones, kept lossless)
DESIGNS = [
    ("ribbons", "iphone-se", 3, "bands", False, 1),
    ("lantern", "iphone-8", 4, "diamonds", True, 2),
    ("harbour", "iphone-8-plus", 3, "stripes", False, 3),
    ("meadow", "android-1080p", 4, "bands", True, 4),
    ("origami", "iphone-x", 4, "stripes", False, 5),
    ("quarry", "iphone-xr", 3, "stripes", True, 6),
    ("delta", "android-notch", 5, "bands", False, 7),
    ("kite", "iphone-8", 2, "diamonds", True, 8),
]


def pattern(kind: str, colors: int, rng: random.Random) -> list[list[int]]:
    """A coarse color field: slanted bands, vertical stripes or diamonds of a few colors."""
    grid = []
    period = rng.randint(3, 5)
    slope = rng.choice([-1, 1])
    for r in range(29):
        row = []
        for c in range(10):
            if kind == "bands":
                v = ((r + slope * 2 * c) // (2 * period)) % colors
            elif kind == "stripes":
                v = (c // 2 + (r // 9)) % colors
            else:
                v = int(abs(r - 14) / 3 + abs(c - 4.5)) % colors
            row.append(v)
        grid.append(row)
    for _ in range(rng.randint(2, 4)):  # a few patches break the symmetry
        r0, c0, k = rng.randrange(29), rng.randrange(10), rng.randrange(colors)
        for r in range(max(0, r0 - 3), min(29, r0 + 3)):
            for c in range(max(0, c0 - 1), min(10, c0 + 2)):
                grid[r][c] = k
    return grid


def main() -> int:
    ROOT.mkdir(exist_ok=True)
    for name, device, colors, kind, outline, seed in DESIGNS:
        rng = random.Random(seed)
        grid = pattern(kind, colors, rng)
        if outline:
            for r in range(29):
                for c in range(10):
                    if r < 2 or r > 26 or (c == 0 and r % 6 < 3):
                        grid[r][c] = None
        used = sorted({v for row in grid for v in row if v is not None})
        remap = {u: i for i, u in enumerate(used)}
        grid = [[None if v is None else remap[v] for v in row] for row in grid]
        palette = rng.sample(PAPER_COLORS, len(used))
        board = make_board(grid, name=name.title(), palette=palette)
        solution = solve(board, max_seconds=60)
        if not solution.optimal:
            print(f"{name}: not proven optimal in 60 s, skipped", file=sys.stderr)
            continue
        board = make_board(grid, name=name.title(), palette=palette, par=solution.length)
        write_board(board, ROOT / f"{name}.json", overwrite=True)
        image, _ = render(board, device, seed=seed, selected=0)
        suffix = ".png" if device in ("iphone-se", "iphone-8") and not outline else ".jpg"
        write_atomic(
            ROOT / f"{name}{suffix}",
            encode(image, suffix, jpeg_quality=92 if suffix == ".jpg" else None),
            overwrite=True,
        )
        print(f"{name:10} {device:14} {len(used)} colors, par {solution.length}, {solution.regions} regions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
