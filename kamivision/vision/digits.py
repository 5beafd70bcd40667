"""The digits the counter is matched against: 0-9 drawn in several sans-serif faces and
weights, with no system font needed (Pillow's bundled Aileron at three stroke weights,
OpenCV's Hershey simplex and duplex stroke fonts at three thicknesses each).

Tested in tests/vision/test_buttons.py.
"""

from __future__ import annotations

from functools import lru_cache

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
