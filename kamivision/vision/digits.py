"""What the counter's digits are read against.

- The templates: 0-9 drawn in several sans-serif faces and weights, with no system font
  needed (Pillow's bundled Aileron at three stroke weights, OpenCV's Hershey simplex and
  duplex stroke fonts at three thicknesses each).
- For small digits, a classifier: a network of one hidden layer, trained by
  ``scripts/train_digits.py`` (scikit-learn) on digits 5 to 15 pixels high, drawn in
  seven sans-serif faces and weights, blurred, scaled and saved as JPEG, and cut out by the
  reader's own segmentation.  Its weights ship in ``digits.npz``; running it is two matrix
  products (no scikit-learn at run time: importing it costs more than a second).

Tested in tests/vision/test_buttons.py, tests/vision/test_digits.py.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np


def _weights(mask: np.ndarray, steps: tuple[int, ...]) -> list[np.ndarray]:
    """The mask thinned (negative steps) and thickened (positive) by a 3 x 3 kernel."""
    out = []
    kernel = np.ones((3, 3), np.uint8)
    for k in steps:
        m = mask.astype(np.uint8)
        if k < 0:
            m = cv2.erode(m, kernel, iterations=-k)
        elif k > 0:
            m = cv2.dilate(m, kernel, iterations=k)
        if m.any():
            out.append(m > 0)
    return out


@lru_cache(maxsize=1)
def digit_masks() -> tuple[tuple[str, np.ndarray], ...]:
    """The digits of :func:`digit_templates` as drawn: each a binary mask cropped to its box."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default(size=96)
    out = []
    for digit in "0123456789":
        canvas = Image.new("L", (140, 140), 0)
        ImageDraw.Draw(canvas).text((70, 70), digit, fill=255, font=font, anchor="mm")
        masks = _weights(np.asarray(canvas) > 127, (-2, 0, 2))
        for face in (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX):
            for thickness in (2, 4, 7):
                canvas = np.zeros((140, 140), np.uint8)
                cv2.putText(canvas, digit, (30, 110), face, 3.0, 255, thickness, cv2.LINE_AA)
                masks.append(canvas > 127)
        for mask in masks:
            ys, xs = np.nonzero(mask)
            out.append((digit, mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]))
    return tuple(out)


def margin_confidence(best: float, runner_up: float) -> float:
    """A reading's confidence (0..1) from the best digit's match score and the runner-up's:
    the margin between them, scaled down when the best itself matches poorly."""
    return float(np.clip((best - runner_up) * 4.0, 0.0, 1.0)) * float(np.clip(best / 0.6, 0.0, 1.0))


#: The classifier's input: a glyph's gray levels resized to this box (width, height).
FEATURE_SIZE = (8, 12)
MODEL = Path(__file__).with_name("digits.npz")


def glyph_crop(mask: np.ndarray, shade: np.ndarray | None = None) -> np.ndarray:
    """A glyph's gray levels (``shade``, or the mask when there are none) cropped to the
    mask's box, as float32."""
    ys, xs = np.nonzero(mask)
    return (mask if shade is None else shade)[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.float32)


def unit(img: np.ndarray) -> np.ndarray:
    """``img`` less its mean, scaled to unit length (as it is, when flat)."""
    img = img - img.mean()
    norm = float(np.linalg.norm(img))
    return img / norm if norm else img


def glyph_features(mask: np.ndarray, shade: np.ndarray | None) -> np.ndarray:
    """A glyph as the classifier sees it: :func:`glyph_crop` resized to
    :data:`FEATURE_SIZE` and made :func:`unit`; then the log of the box's aspect."""
    img = glyph_crop(mask, shade)
    h, w = img.shape
    interpolation = cv2.INTER_AREA if h > FEATURE_SIZE[1] else cv2.INTER_LINEAR
    resized = cv2.resize(img, FEATURE_SIZE, interpolation=interpolation).ravel()
    return np.append(unit(resized), np.log(w / h)).astype(np.float32)


@lru_cache(maxsize=1)
def _network() -> tuple[np.ndarray, ...]:
    with np.load(MODEL) as model:
        return tuple(model[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2"))


def classify(mask: np.ndarray, shade: np.ndarray | None) -> np.ndarray:
    """The classifier's probabilities for the digits 0-9 of one glyph."""
    w1, b1, w2, b2 = _network()
    out = np.maximum(glyph_features(mask, shade) @ w1 + b1, 0.0) @ w2 + b2
    e = np.exp(out - out.max())
    return e / e.sum()
