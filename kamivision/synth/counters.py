"""The counter's button on its own, drawn as a screenshot shows it: a number of 1 to 20 in
one of four dark buttons, blurred, scaled down and saved as JPEG, sometimes under a
translucent bar with one of its icons over or beside the digits.

Used by ``benchmarks/counter.py`` (the reader's digits, right, unsure or wrong by height)
and ``scripts/train_digits.py`` (the small-digit classifier's training glyphs), each with
its own seeds; the covered-digit tests draw fixed counters through the same steps
(:func:`button_picture`, :func:`under_bar`, :func:`photographed`).

Tested in tests/vision/test_digits.py.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Callable, Optional

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..vision.bar import Bar, overbright, undo_bar
from ..vision.buttons import ButtonBlock, find_buttons
from ..vision.layout import ScreenLayout
from .render import _font

DARK, INK = (40, 35, 30), (238, 234, 224)

Face = Callable[[int], ImageFont.FreeTypeFont]


@dataclass(frozen=True)
class Counter:
    """One drawn counter: the picture as the reader sees it and what was drawn."""

    rgb: np.ndarray  # the picture, with a translucent bar (if any) already undone
    value: int  # the number drawn
    height: int  # the digits' height in the final picture (pixels)
    separators: tuple[float, ...]  # the separators' x in the final picture
    bar: Optional[Bar]  # the translucent bar drawn over it (None: none)
    over: Optional[np.ndarray]  # the bar's overbright map (None: no bar)

    def buttons(self) -> ButtonBlock:
        """The button block, found as the reader finds a footer's."""
        h, w = self.rgb.shape[:2]
        return find_buttons(self.rgb, (0, 0, w, h), list(self.separators), self.over)

    def layout(self) -> ScreenLayout:
        """A screen layout holding only what the counter's reader needs."""
        h, w = self.rgb.shape[:2]
        shade = (0, self.bar.slope) if self.bar is not None else (0, 1.0)
        return ScreenLayout(
            w,
            h,
            (0.0, 0.0, float(w), float(h)),
            (0, h),
            (0, 0, w, h),
            (0, 0, w, h),
            ((0, 0, 1, 1),),
            shade,
            self.buttons(),
        )


def draw_counter(rng: np.random.Generator, face: Optional[Face] = None, icon: bool = False) -> Counter:
    """Draw one counter from ``rng``: 14 to 30 points in the second of four dark buttons, a
    little off centre, blurred (sigma up to 0.8), scaled by 0.5 to 1, JPEG at quality 60 to
    95.  ``face``: a size in points to a Pillow font (default: the renderer's, Aileron);
    ``icon``: a translucent bar and one of its icons drawn over or beside the digits."""
    face = face or _font
    size = int(rng.integers(14, 31))
    side = int(size / 0.42 * rng.uniform(0.9, 1.4))
    bh = int(side * rng.uniform(0.8, 1.6))
    value = int(rng.integers(1, 21))
    centre = (1.5 * side + rng.uniform(-1, 1), bh / 2 + rng.uniform(-1, 1))
    picture, box = button_picture(str(value), face(size), side, bh, centre)
    bar = None
    if icon:
        picture, bar = _bar_and_icon(picture, box, rng)
    sigma = float(rng.uniform(0.0, 0.8))
    scale = float(rng.uniform(0.5, 1.0))
    quality = int(rng.integers(60, 96))
    return photographed(picture, value, box, side, bar, sigma, scale, quality)


def button_picture(text: str, font: ImageFont.FreeTypeFont, side: int, height: int, centre: tuple) -> tuple:
    """Four dark buttons ``side`` pixels wide and ``height`` high with ``text`` centred at
    ``centre`` (in the second): the picture, and the text's box."""
    picture = Image.new("RGB", (4 * side, height), DARK)
    draw = ImageDraw.Draw(picture)
    for x in (side, 2 * side, 3 * side):
        draw.line([(x, 0), (x, height)], fill=(200, 196, 188), width=2)
    draw.text(centre, text, fill=INK, font=font, anchor="mm")
    return picture, draw.textbbox(centre, text, font=font, anchor="mm")


def under_bar(picture: Image.Image, bar: Bar) -> Image.Image:
    """The picture as a translucent bar ``bar`` shows it (each channel ``slope * value +
    offset``)."""
    under = np.asarray(picture, np.float32) * bar.slope + np.asarray(bar.offset, np.float32)
    return Image.fromarray(np.clip(under + 0.5, 0, 255).astype(np.uint8))


def photographed(
    picture: Image.Image,
    value: int,
    box: tuple,
    side: int,
    bar: Optional[Bar],
    sigma: float,
    scale: float,
    quality: int,
) -> Counter:
    """The counter as a screenshot shows it: ``picture`` (buttons ``side`` wide, the digits
    of ``value`` in ``box``, under ``bar`` if any) blurred by ``sigma`` (none at 0.2 or
    less), scaled by ``scale`` and saved as JPEG at ``quality``; the bar undone as the
    reader undoes it."""
    rgb = np.asarray(picture)
    if sigma > 0.2:
        rgb = cv2.GaussianBlur(rgb, (0, 0), sigma)
    w, h = round(picture.width * scale), round(picture.height * scale)
    rgb = cv2.resize(rgb, (w, h), interpolation=cv2.INTER_AREA)
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="JPEG", quality=quality)
    rgb = np.asarray(Image.open(buf).convert("RGB"))
    over = None
    if bar is not None:
        over = overbright(rgb, bar)
        rgb = undo_bar(rgb, bar)
    separators = tuple(x * scale for x in (side, 2 * side, 3 * side))
    return Counter(rgb, value, round((box[3] - box[1]) * scale), separators, bar, over)


def _bar_and_icon(picture: Image.Image, box: tuple, rng: np.random.Generator) -> tuple[Image.Image, Bar]:
    """The picture under a translucent bar, with an outline icon drawn near the digits'
    box; and the bar's map."""
    darkness, tint = float(rng.uniform(0.2, 0.8)), float(rng.choice([0.0, rng.uniform(0.0, 40.0)]))
    bar = Bar(0, 1.0 - darkness, (tint * darkness,) * 3)
    picture = under_bar(picture, bar)
    x0, y0, x1, y1 = box
    r = (y1 - y0) * float(rng.uniform(0.25, 0.6))
    cx = (x0 + x1) / 2 + float(rng.uniform(-1, 1)) * ((x1 - x0) / 2 + r)
    cy = (y0 + y1) / 2 + float(rng.uniform(-0.6, 0.6)) * (y1 - y0)
    gray = int(rng.integers(235, 256))
    width = int(rng.integers(1, 4))
    draw = ImageDraw.Draw(picture)
    kind = int(rng.integers(3))
    if kind == 0:
        draw.polygon([(cx - r, cy), (cx + r * 0.7, cy - r), (cx + r * 0.7, cy + r)], outline=(gray,) * 3, width=width)
    elif kind == 1:
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=(gray,) * 3, width=width)
    else:
        draw.rectangle([cx - 0.8 * r, cy - 0.8 * r, cx + 0.8 * r, cy + 0.8 * r], outline=(gray,) * 3, width=width)
    return picture, bar
