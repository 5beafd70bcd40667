"""Train the small-digit classifier the counter's reader ships (``kamivision/vision/digits.npz``).

    pip install -e '.[train]'                      # scikit-learn, for training only
    apt-get install -y fonts-dejavu-core fonts-dejavu-extra fonts-liberation
    python scripts/train_digits.py [--counters 8000] [-o kamivision/vision/digits.npz]

Counters are drawn as :func:`kamivision.synth.counters.draw_counter` draws them (a number
of 1 to 20 in a dark button, blurred, scaled by 0.5 to 1, JPEG at quality 60 to 95) in
six faces: Pillow's bundled Aileron and five of Debian's sans-serif fonts (DejaVu Sans
regular, bold and extra-light, Liberation Sans regular and bold), each from its own seed
(1001 and up: ``benchmarks/counter.py`` uses 1 to 16).  The reader's own segmentation
cuts them into glyphs (:func:`~kamivision.vision.buttons.find_buttons`, then
:func:`~kamivision.vision.par.digit_lines`); a line with as many glyphs as the number has
digits gives one labelled glyph each, kept when 5 to 15 pixels high.

The network (one hidden layer of 64, scikit-learn's ``MLPClassifier``, fixed seed) is fitted
on :func:`~kamivision.vision.digits.glyph_features` and its weights written atomically.
Two faces are left out for checking: DejaVu Sans Condensed and Liberation Sans Narrow
(``benchmarks/counter.py --font``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import ImageFont

from kamivision.synth.counters import draw_counter
from kamivision.vision.digits import MODEL, glyph_features
from kamivision.vision.par import digit_lines

FONTS = Path("/usr/share/fonts/truetype")
FACES = (
    None,  # Pillow's Aileron, the renderer's font
    "dejavu/DejaVuSans.ttf",
    "dejavu/DejaVuSans-Bold.ttf",
    "dejavu/DejaVuSans-ExtraLight.ttf",
    "liberation/LiberationSans-Regular.ttf",
    "liberation/LiberationSans-Bold.ttf",
)
HEIGHTS = (5, 15)


def glyphs(face: str | None, seed: int, counters: int) -> tuple[list[np.ndarray], list[int]]:
    """The labelled glyphs of ``counters`` counters drawn in ``face`` from ``seed``."""
    font = None if face is None else (lambda size: ImageFont.truetype(str(FONTS / face), size))
    rng = np.random.default_rng(seed)
    features, labels = [], []
    for _ in range(counters):
        counter = draw_counter(rng, font)
        digits = str(counter.value)
        block = counter.buttons()
        for rect, marks in zip(block.buttons, block.marks):
            for line in digit_lines(rect, marks):
                if len(line) != len(digits):
                    continue
                for glyph, digit in zip(sorted(line, key=lambda g: g.x), digits):
                    if HEIGHTS[0] <= glyph.height <= HEIGHTS[1]:
                        features.append(glyph_features(glyph.mask, glyph.shade))
                        labels.append(int(digit))
    return features, labels


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counters", type=int, default=8000, help="counters drawn in each face")
    parser.add_argument("-o", "--output", type=Path, default=MODEL)
    args = parser.parse_args()
    missing = [face for face in FACES if face is not None and not (FONTS / face).is_file()]
    if missing:
        sys.exit(
            f"{FONTS / missing[0]}: no such font (apt-get install fonts-dejavu-core fonts-dejavu-extra fonts-liberation)"
        )
    try:
        from sklearn.neural_network import MLPClassifier
    except ImportError:
        sys.exit("scikit-learn is needed to train: pip install -e '.[train]'")
    features, labels = [], []
    for k, face in enumerate(FACES):
        f, y = glyphs(face, 1001 + k, args.counters)
        print(f"{face or 'Aileron (Pillow)'}: {len(y)} glyphs", flush=True)
        features += f
        labels += y
    x, y = np.array(features), np.array(labels)
    net = MLPClassifier((64,), alpha=1e-3, max_iter=400, random_state=0).fit(x, y)
    print(f"{len(y)} glyphs, {net.score(x, y):.4f} right on them")
    weights = dict(w1=net.coefs_[0], b1=net.intercepts_[0], w2=net.coefs_[1], b2=net.intercepts_[1])
    fd, tmp = tempfile.mkstemp(dir=args.output.parent, suffix=".npz")
    with os.fdopen(fd, "wb") as out:
        np.savez_compressed(out, **{k: v.astype(np.float32) for k, v in weights.items()})
    os.replace(tmp, args.output)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
