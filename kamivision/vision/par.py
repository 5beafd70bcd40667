"""The moves-left counter: the par the game asks for, read from its button in the footer.

The counter's digits are cut out by brightness and matched against digits drawn with
Pillow's bundled font (normalised cross-correlation, with a penalty for a different aspect).
"""

from __future__ import annotations

import math
from typing import Optional

import cv2
import numpy as np

from .layout import ScreenLayout

GLYPH_SIZE = (20, 30)  # width, height of the normalised digit images


def _glyph_image(mask: np.ndarray) -> tuple[np.ndarray, float]:
    """A binary glyph cropped to its box, resized to GLYPH_SIZE and blurred; and its aspect."""
    ys, xs = np.nonzero(mask)
    crop = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.float32)
    aspect = crop.shape[1] / crop.shape[0]
    img = cv2.resize(crop, GLYPH_SIZE, interpolation=cv2.INTER_AREA)
    img = cv2.GaussianBlur(img, (0, 0), 1.2)
    img -= img.mean()
    norm = np.linalg.norm(img)
    return (img / norm if norm else img), aspect


Template = tuple[str, np.ndarray, float]  # digit, normalised glyph image, aspect


def digit_templates() -> list[Template]:
    """Digits 0-9 drawn with Pillow's bundled sans-serif font (no system fonts needed), at
    three stroke weights: the game's counter uses a light sans-serif.  Made afresh for each
    reading (a few milliseconds), so that no module holds a cache."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default(size=96)
    out = []
    for digit in "0123456789":
        canvas = Image.new("L", (140, 140), 0)
        ImageDraw.Draw(canvas).text((70, 70), digit, fill=255, font=font, anchor="mm")
        mask = np.asarray(canvas) > 127
        for k in (-2, 0, 2):
            m = mask.astype(np.uint8)
            if k < 0:
                m = cv2.erode(m, np.ones((3, 3), np.uint8), iterations=-k)
            elif k > 0:
                m = cv2.dilate(m, np.ones((3, 3), np.uint8), iterations=k)
            img, aspect = _glyph_image(m > 0)
            out.append((digit, img, aspect))
    return out


def _read_glyph(mask: np.ndarray, templates: list[Template]) -> tuple[str, float]:
    """The digit a glyph mask shows and a confidence (0..1) from the margin over the runner-up."""
    img, aspect = _glyph_image(mask)
    scores: dict[str, float] = {}
    for digit, template, t_aspect in templates:
        score = float((img * template).sum()) - 0.8 * abs(math.log(max(aspect, 0.05) / t_aspect))
        scores[digit] = max(scores.get(digit, -9.0), score)
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    (best, s1), (_, s2) = ranked[0], ranked[1]
    confidence = float(np.clip((s1 - s2) * 4.0, 0.0, 1.0)) * float(np.clip(s1 / 0.6, 0.0, 1.0))
    return best, confidence


def counter_rect(layout: ScreenLayout) -> tuple[int, int, int, int]:
    """The moves-left counter's button: the second of four in a row, or bottom right of 2 x 2."""
    bx, by, bw, bh = layout.buttons
    if layout.name == "notch":
        return bx + bw // 2, by + bh // 2, bw - bw // 2, bh - bh // 2
    return bx + bw // 4, by, bw // 4, bh


def read_par(rgb: np.ndarray, layout: ScreenLayout) -> tuple[Optional[int], float]:
    """The number on the moves-left counter and a confidence, or ``(None, 0)`` if unreadable."""
    x, y, w, h = counter_rect(layout)
    mx, my = int(0.14 * w), int(0.12 * h)
    patch = rgb[y + my : y + h - my, x + mx : x + w - mx]
    if patch.size == 0:
        return None, 0.0
    gray = cv2.cvtColor(patch, cv2.COLOR_RGB2GRAY).astype(np.float32)
    gray = np.clip(gray, 0, 255)  # a translucent bar was undone before (kamivision.vision.bar)
    floor = float(np.percentile(gray, 20))
    mask = (gray > floor + 0.5 * (255 - floor)).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    glyphs = [
        i
        for i in range(1, count)
        if stats[i, cv2.CC_STAT_HEIGHT] >= 0.15 * patch.shape[0] and stats[i, cv2.CC_STAT_AREA] >= 6
    ]
    if not 1 <= len(glyphs) <= 2:
        return None, 0.0
    glyphs.sort(key=lambda i: stats[i, cv2.CC_STAT_LEFT])
    digits, confidence = "", 1.0
    templates = digit_templates()
    for i in glyphs:
        digit, conf = _read_glyph(labels == i, templates)
        digits += digit
        confidence = min(confidence, conf)
    value = int(digits)
    if value == 0:
        return None, 0.0
    return value, confidence
