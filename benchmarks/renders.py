"""Recognition of rendered screenshots on every phone layout: cells wrong, silent errors
(wrong and not listed as uncertain), uncertain and hidden cells, per layout and variant.

    python benchmarks/renders.py [--boards 6]

Variants: the PNG as rendered; JPEG at quality 70 scaled to 0.75 (as screenshots arrive
after sharing); and inked (16 marks written over the board, as players do: the renderer's
``ink``).
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys

import numpy as np
from PIL import Image

from kamivision.board import differing_cells
from kamivision.render import encode, render
from kamivision.screens import DEVICES
from kamivision.vision import recognize

sys.path.insert(0, ".")
from tests.boards import random_kami_board  # noqa: E402  (the tests' boards)


def received(image: np.ndarray) -> np.ndarray:
    data = encode(image, ".jpg", jpeg_quality=70, scale=0.75)
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=6, help="boards per layout and variant")
    args = parser.parse_args()
    header = f"{'layout':<14} {'variant':<8} {'boards':>6} {'wrong':>6} {'silent':>6} {'uncertain (median, max)':>24} {'hidden':>6}"
    print(header)
    print("-" * len(header))
    totals = {"silent": 0, "clean_uncertain": []}
    for device in DEVICES:
        for variant in ("png", "jpeg70", "inked"):
            rng = random.Random(f"{device}-{variant}")
            wrong = silent = 0
            uncertain, hidden = [], []
            for k in range(args.boards):
                board = random_kami_board(rng, rng.choice([3, 4, 5]), blank_outline=k % 2 == 1, par=5)
                image, layout = render(board, device, seed=k, ink=16 if variant == "inked" else 0)
                if variant == "jpeg70":
                    image = received(image)
                found = recognize(image, device)
                cells = set(differing_cells(found.board, board))
                wrong += len(cells)
                silent += len(cells - set(found.uncertain))
                uncertain.append(len(found.uncertain) - len(found.hidden))
                hidden.append(len(found.hidden))
            totals["silent"] += silent
            if variant != "inked":
                totals["clean_uncertain"] += uncertain
            print(f"{device:<14} {variant:<8} {args.boards:>6} {wrong:>6} {silent:>6} "
                  f"{statistics.median(uncertain):>17g}, {max(uncertain):>4} {max(hidden):>6}", flush=True)
    print("-" * len(header))
    print(f"silent errors in all: {totals['silent']}; uncertain cells (besides the hidden) on clean renders: "
          f"median {statistics.median(totals['clean_uncertain']):g}, max {max(totals['clean_uncertain'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
