"""The reader on renders whose palette has a pale paper, near the blank background.

    python benchmarks/pale_papers.py ../shared/data/screenshots [--renders 80]

The palettes are those the real screenshots of ``DIR/truth.json`` show that hold a pale
paper (a mean channel over 200; 3 to 5 colors), as the reader reads them.  Render ``k``
draws the tests' random board of seed ``k`` (with blank cells along its outline) in
palette ``k`` modulo their number, on the iPhone 8 layout, and is read and scored:
cells wrong and **silent** errors (wrong and not flagged as uncertain, none on a render
whose colors are in doubt).  A line names each render with silent errors.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageColor

from kamivision.board import differing_cells
from kamivision.synth.render import render
from kamivision.vision import recognize

sys.path.insert(0, ".")
from tests.boards import random_kami_board  # noqa: E402  (the tests' boards)


def pale_palettes(folder: Path) -> list[tuple[str, ...]]:
    """The palettes with a pale paper that the real screenshots show, in their order."""
    found: list[tuple[str, ...]] = []
    for entry in json.loads((folder / "truth.json").read_text())["screenshots"]:
        rgb = np.asarray(Image.open(folder / entry["file"]).convert("RGB"))
        palette = tuple(recognize(rgb, entry["file"]).board.palette)
        pale = any(sum(ImageColor.getrgb(c)) / 3 > 200 for c in palette)
        if pale and 3 <= len(palette) <= 5 and palette not in found:
            found.append(palette)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--renders", type=int, default=80)
    args = parser.parse_args()
    palettes = pale_palettes(args.folder)
    if not palettes:
        raise SystemExit(f"{args.folder}: no screenshot shows a palette with a pale paper")
    wrong = silent = flagged = 0
    for seed in range(args.renders):
        palette = palettes[seed % len(palettes)]
        board = random_kami_board(random.Random(seed), len(palette), blank_outline=True)
        board = dataclasses.replace(board, palette=palette)
        image, _ = render(board, "iphone-8", seed=seed)
        rec = recognize(image, f"seed {seed}")
        cells = set(differing_cells(rec.board, board))
        quiet = 0 if rec.palette_doubt else len(cells - set(rec.uncertain))
        wrong += len(cells)
        silent += quiet
        flagged += len(cells) - quiet
        if quiet:
            print(f"seed {seed} {' '.join(palette)}: {len(cells)} cells wrong, {quiet} silent", flush=True)
    print()
    print(f"{'palettes':>8} {'renders':>7} {'wrong':>5} {'flagged':>7} {'SILENT':>6}")
    print(f"{len(palettes):>8} {args.renders:>7} {wrong:>5} {flagged:>7} {silent:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
