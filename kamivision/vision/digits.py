"""One glyph of the counter read as a digit (:func:`read_glyph`), and what it is read against.

- The reader: each glyph, cut out by brightness and scaled to a fixed box, is compared
  with the templates (normalised cross-correlation, with a penalty for a different aspect
  and for loops the digit does not have); a glyph of a few pixels is read by the
  classifier too, and the two must agree.  The confidence is the margin over the
  runner-up digit.
- The templates: 0-9 drawn in several sans-serif faces and weights, with no system font
  needed (Pillow's bundled Aileron at three stroke weights, OpenCV's Hershey simplex and
  duplex stroke fonts at three thicknesses each).
- For small digits, a classifier: a network of one hidden layer, trained by
  ``scripts/train_digits.py`` (scikit-learn) on digits 5 to 15 pixels high, drawn in
  seven sans-serif faces and weights, blurred, scaled and saved as JPEG, and cut out by the
  reader's own segmentation.  Its weights ship in ``digits.npz``; running it is two matrix
  products (no scikit-learn at run time: importing it costs more than a second).

Tested in tests/vision/test_buttons.py, tests/vision/test_digits.py, tests/vision/test_covered.py.
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache
from pathlib import Path
from typing import Optional

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


GLYPH_SIZE = (20, 30)  # width, height of the normalised digit images

#: Glyphs up to this height (pixels) are read by the small-digit classifier too
#: (:func:`~kamivision.vision.digits.classify`): where the templates, scaled up from a few
#: pixels, tell a 6 from an 8 by a thin margin, the classifier was trained on digits of that
#: size.  A glyph the two read differently is unsure.
CLASSIFIED_UP_TO = 13
#: A small glyph the classifier reads as the templates do, with at least this probability,
#: takes that probability as its confidence when it is higher, unless a translucent bar
#: reaches the button: the classifier never saw a bar's icon joined to a digit (with the
#: lift there, ``benchmarks/counter.py --icon`` seeds 2 and 3 read a 10 as 90 and a 17 as
#: 8).  On ``benchmarks/counter.py`` (seeds 1-8, 24,000 counters) 19,681 are read right
#: against 18,263 without it, none wrong either way; in the two faces left out of its
#: training (``--font``, seeds 1-2, 12,000 counters) 8,966 against 7,861, and 2 wrong
#: against 17.
CLASSIFIER_SURE = 0.95

Template = tuple[str, np.ndarray, float]  # digit, normalised glyph image, aspect


def _glyph_image(mask: np.ndarray, shade: Optional[np.ndarray] = None) -> tuple[np.ndarray, float]:
    """A binary glyph (or its ``shade``, the gray levels over the same pixels) cropped to
    its box, resized to GLYPH_SIZE and blurred; and its aspect."""
    crop = glyph_crop(mask, shade)
    aspect = crop.shape[1] / crop.shape[0]
    img = cv2.resize(crop, GLYPH_SIZE, interpolation=cv2.INTER_AREA if shade is None else cv2.INTER_LINEAR)
    return unit(cv2.GaussianBlur(img, (0, 0), 1.2)), aspect


_TEMPLATES_LOCK = threading.Lock()


def digit_templates() -> tuple[Template, ...]:
    """Digits 0-9 in several sans-serif faces and weights (no system fonts needed): Pillow's
    bundled Aileron at three weights, and OpenCV's Hershey simplex and duplex stroke fonts
    at three thicknesses.  Made once per process (about 50 ms; a second thread asking
    meanwhile waits for them: :func:`~kamivision.vision.reader.warm_up`)."""
    with _TEMPLATES_LOCK:
        return _make_templates()


@lru_cache(maxsize=1)
def _make_templates() -> tuple[Template, ...]:
    return tuple((digit, *_glyph_image(mask)) for digit, mask in digit_masks())


#: How many closed loops each digit has in a sans-serif face (a 4 may be open or closed).
HOLES = {"0": {1}, "1": {0}, "2": {0}, "3": {0}, "4": {0, 1}, "5": {0}, "6": {1}, "7": {0}, "8": {2}, "9": {1}}
#: The score lost by a digit whose loops the glyph does not have.
HOLE_PENALTY = 0.3
#: Loops are counted on glyphs at least this tall (pixels).  Smaller, blur and JPEG close
#: a 6's opening into an 8's second loop, or fill a 6's loop: with the penalty, 6 read as
#: 8 or 5 and 16 as 18 with confidence on glyphs of 10 to 15 pixels
#: (``benchmarks/counter.py``: 6 to 8 wrong in 3,000; without it on glyphs under 18
#: pixels, 2 in 21,000, the rest unsure).  The game's digits on real shots measure 25 to 60.
LOOPS_FROM = 18


#: Glyphs shorter than this (pixels) are read from their gray levels, not their mask:
#: at a dozen pixels a stroke is two or three pixels, and its anti-aliased edges carry
#: much of the shape.
SHADE_BELOW = 18


def holes(mask: np.ndarray) -> int:
    """The glyph's closed loops: background regions it encloses, bigger than a speck (a
    fiftieth of its box), so that JPEG noise inside a stroke is no loop."""
    padded = np.pad(mask.astype(np.uint8), 1)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(1 - padded, connectivity=4)
    outside = labels[0, 0]
    return sum(1 for i in range(1, count) if i != outside and stats[i, cv2.CC_STAT_AREA] >= max(3, padded.size / 50))


def read_glyph(mask: np.ndarray, shade: Optional[np.ndarray] = None, lift: bool = True) -> tuple[str, float, float]:
    """The digit a glyph mask shows, the match's score (-1..1) and a confidence (0..1)
    from the margin over the runner-up digit; for a glyph of :data:`CLASSIFIED_UP_TO`
    pixels or fewer, the classifier's say too (``lift``: its agreement may raise the
    confidence, :data:`CLASSIFIER_SURE`).  A digit whose loops the glyph lacks (or has
    too many of) loses :data:`HOLE_PENALTY`: the shape's topology survives fonts that the
    templates do not cover (a 6 with a straight spine still has one loop, a 5 none), on
    glyphs tall enough to keep their loops (:data:`LOOPS_FROM`)."""
    small = shade is not None and mask.shape[0] < SHADE_BELOW
    img, aspect = _glyph_image(mask, shade if small else None)
    loops = holes(mask) if mask.shape[0] >= LOOPS_FROM else None
    scores: dict[str, float] = {}
    for digit, template, t_aspect in digit_templates():
        score = float((img * template).sum()) - 0.8 * abs(math.log(max(aspect, 0.05) / t_aspect))
        if loops is not None and loops not in HOLES[digit]:
            score -= HOLE_PENALTY
        scores[digit] = max(scores.get(digit, -9.0), score)
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    (best, s1), (_, s2) = ranked[0], ranked[1]
    confidence = margin_confidence(s1, s2)
    if mask.shape[0] <= CLASSIFIED_UP_TO:
        p = classify(mask, shade)
        if str(int(p.argmax())) != best:
            confidence = 0.0
        elif lift and p.max() >= CLASSIFIER_SURE:
            confidence = max(confidence, float(p.max()))
    return best, s1, confidence
