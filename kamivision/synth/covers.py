"""What covers the game on a screenshot: a phone's bars and rounded corners, a player's ink.

:func:`kamivision.synth.render.render` draws the game; these are drawn over it (or, for the
bars of a phone without a translucent one, beside it).  Images are float32 RGB arrays,
changed in place.

Tested in tests/vision/test_bar.py, tests/vision/test_cells.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw

from ..board import Board
from ..geometry import cell_centre


def three_buttons(img: np.ndarray, top: int, bottom: int) -> None:
    """Android's back, home and recent-apps buttons, centred between rows ``top`` and ``bottom``."""
    w = img.shape[1]
    cy, u = (top + bottom) / 2, bottom - top
    pil = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    d = ImageDraw.Draw(pil)
    gray = (200, 200, 200)
    for k, cx in enumerate((w * 0.25, w * 0.5, w * 0.75)):
        r = 0.18 * u
        if k == 0:
            d.polygon([(cx - r, cy), (cx + r * 0.7, cy - r), (cx + r * 0.7, cy + r)], outline=gray, width=2)
        elif k == 1:
            d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=gray, width=2)
        else:
            d.rectangle([cx - r * 0.8, cy - r * 0.8, cx + r * 0.8, cy + r * 0.8], outline=gray, width=2)
    img[:] = np.asarray(pil, dtype=np.float32)


def pill(img: np.ndarray, cy: float, width: float, color: tuple[int, int, int]) -> None:
    """A gesture handle: a thin bar ``width`` wide, centred across the screen at ``cy``."""
    w = img.shape[1]
    height = max(3, round(0.012 * w))
    cv2.rectangle(
        img,
        (round(w / 2 - width / 2), round(cy - height / 2)),
        (round(w / 2 + width / 2), round(cy + height / 2)),
        color,
        thickness=-1,
        lineType=cv2.LINE_AA,
    )


@dataclass(frozen=True, slots=True)
class NavBar:
    """A translucent navigation bar over the bottom of the screen: ``kind`` "buttons"
    (Android's back, home and recent-apps icons) or "pill" (a gesture handle); ``height``
    in screen widths (real ones are 0.08 to 0.15); ``darkness`` the share of the light it
    takes away (0.2 to 0.8: a bar "darkened to 40 %" has darkness 0.6); ``tint`` the
    color it is mixed with (black for most phones)."""

    kind: str = "buttons"
    height: float = 0.105
    darkness: float = 0.55
    tint: tuple[int, int, int] = (0, 0, 0)


NAV_KINDS = ("buttons", "pill")


def draw_nav_overlay(img: np.ndarray, bar: NavBar) -> None:
    """The bar over the bottom of the screen (and so of the footer): everything under it
    mixed with the tint by ``darkness``, then its icons on top."""
    h, w = img.shape[:2]
    top = h - round(bar.height * w)
    img[top:] = img[top:] * (1.0 - bar.darkness) + np.array(bar.tint, np.float32) * bar.darkness
    if bar.kind == "pill":
        pill(img, (top + h) / 2, 0.3 * w, (235, 235, 235))
    else:
        three_buttons(img, top, h)


def draw_status_bar(img: np.ndarray, bar: NavBar) -> None:
    """A translucent status bar over the top of the screen (and so of the board's top
    rows): mixed with its tint like a navigation bar, with a clock and battery in white."""
    w = img.shape[1]
    height = round(bar.height * w)
    img[:height] = img[:height] * (1.0 - bar.darkness) + np.array(bar.tint, np.float32) * bar.darkness
    u = height / 2
    marks = np.zeros((height, w), np.uint8)
    cv2.putText(
        marks,
        "9:41",
        (round(0.05 * w), round(0.7 * height)),
        cv2.FONT_HERSHEY_SIMPLEX,
        u / 22,
        255,
        max(1, round(u / 10)),
        cv2.LINE_AA,
    )
    cv2.rectangle(marks, (round(0.88 * w), round(0.3 * height)), (round(0.94 * w), round(0.7 * height)), 255, -1)
    alpha = (marks.astype(np.float32) / 255.0)[..., None]
    img[:height] = img[:height] * (1 - alpha) + 250.0 * alpha


def _rounded(shape: tuple[int, int], corners: tuple[int, int, int, int], r: int) -> np.ndarray:
    """A mask (255 inside) of the rectangle from ``(x0, y0)`` to ``(x1, y1)`` with corners
    rounded to radius ``r``."""
    x0, y0, x1, y1 = corners
    mask = np.zeros(shape, np.uint8)
    cv2.rectangle(mask, (x0 + r, y0), (x1 - r, y1), 255, -1)
    cv2.rectangle(mask, (x0, y0 + r), (x1, y1 - r), 255, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


@dataclass(frozen=True, slots=True)
class Banner:
    """A notification drawn over the top of the screen, as a screenshot taken while one
    shows keeps it: a rounded box from ``top`` down ``height`` (screen widths; real ones
    are 0.2 to 0.3 high, 0.01 to 0.1 from the top), of ``kind`` "pale" or "dark"
    (opaque, as Android's), or "frosted" (the screen under it blurred and washed pale,
    as iOS's), with two lines of text."""

    kind: str = "pale"
    top: float = 0.03
    height: float = 0.24


BANNER_KINDS = ("pale", "dark", "frosted")


def draw_banner(img: np.ndarray, banner: Banner) -> None:
    """The banner over the screen (and so over the board's top rows)."""
    w = img.shape[1]
    x0, x1 = round(0.03 * w), round(0.97 * w)
    y0, y1 = round(banner.top * w), round((banner.top + banner.height) * w)
    mask = _rounded(img.shape[:2], (x0, y0, x1, y1), round(0.04 * w))
    if banner.kind == "frosted":
        face = cv2.GaussianBlur(img, (0, 0), 0.03 * w) * 0.35 + 245.0 * 0.65
        ink = 30.0
    else:
        face = np.full_like(img, 245.0 if banner.kind == "pale" else 40.0)
        ink = 30.0 if banner.kind == "pale" else 235.0
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    img[:] = img * (1 - alpha) + face * alpha
    text = np.zeros(img.shape[:2], np.uint8)
    u = banner.height * w
    for k, line in enumerate(("Messages   now", "See you at eight? Bring the board")):
        cv2.putText(
            text,
            line,
            (x0 + round(0.05 * w), y0 + round((0.35 + 0.3 * k) * u)),
            cv2.FONT_HERSHEY_SIMPLEX,
            w / 1100,
            255,
            max(1, round(w / 500)),
            cv2.LINE_AA,
        )
    alpha = (text.astype(np.float32) / 255.0)[..., None]
    img[:] = img * (1 - alpha) + ink * alpha


@dataclass(frozen=True, slots=True)
class Window:
    """A window floating over the screen (a picture-in-picture video): its top left corner
    at ``x``, ``y`` and its size, in screen widths (real ones are 0.35 to 0.6 wide, 9:16
    to 16:9), showing a smooth, strongly colored picture drawn from ``seed``; ``round``,
    a disc of that width (a chat head: 0.1 to 0.2 across, often at the screen's side);
    ``shadow``, the darkness (0 to 1) of a drop shadow under it, cast a little downwards
    and blurred over a hundredth of the width (0: none)."""

    x: float
    y: float
    width: float = 0.45
    height: float = 0.26
    seed: int = 0
    round: bool = False
    shadow: float = 0.0


def draw_window(img: np.ndarray, window: Window) -> None:
    """The window over the screen, with slightly rounded corners (or a disc)."""
    h, w = img.shape[:2]
    x0, y0 = round(window.x * w), round(window.y * w)
    x1, y1 = min(w, x0 + round(window.width * w)), min(h, y0 + round(window.height * w))
    rng = np.random.default_rng(window.seed)
    picture = cv2.GaussianBlur(rng.uniform(0, 255, (y1 - y0, x1 - x0, 3)).astype(np.float32), (0, 0), 0.05 * w)
    picture = np.clip((picture - picture.mean()) * 4 + rng.uniform(60, 160), 0, 255)
    corner = (min(x1 - x0, y1 - y0) - 1) / 2 if window.round else 0.015 * w
    mask = _rounded((y1 - y0, x1 - x0), (0, 0, x1 - x0 - 1, y1 - y0 - 1), max(1, round(corner)))
    if window.shadow > 0:
        shade = np.zeros((h, w), np.float32)
        drop = round(0.006 * w)
        shade[min(h, y0 + drop) : min(h, y1 + drop), x0:x1] = mask[: max(0, min(h, y1 + drop) - y0 - drop)] / 255.0
        shade = cv2.GaussianBlur(shade, (0, 0), 0.012 * w) * window.shadow
        img *= (1.0 - shade)[..., None]
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - alpha) + picture * alpha


def round_corners(img: np.ndarray, radius: float) -> None:
    """The screen's rounded corners cut out in black, as some phones save screenshots."""
    h, w = img.shape[:2]
    mask = _rounded((h, w), (0, 0, w - 1, h - 1), max(1, round(radius * w)))
    img *= (mask.astype(np.float32) / 255.0)[..., None]


# ------------------------------------------------------------------ a player's ink

#: Pens players write with on screenshots (RGB): light blue as in the real ones, red, white.
INKS = ((90, 200, 250), (225, 35, 45), (250, 250, 250))


def _ink_mark(rng: np.random.Generator, size: int) -> np.ndarray:
    """A mask (float 0..1, ``size`` square) of one handwritten-looking mark: a number of
    one or two digits in a slanted, wobbly hand (most marks), a stroke or a dot."""
    canvas = np.zeros((size, size), np.uint8)
    kind = rng.random()
    thick = max(2, round(size / 14))
    if kind < 0.75:
        text = str(int(rng.integers(1, 30)))
        font = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX if rng.random() < 0.5 else cv2.FONT_HERSHEY_SIMPLEX
        scale = size / (36.0 if len(text) == 1 else 48.0)
        (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
        cv2.putText(canvas, text, ((size - tw) // 2, (size + th) // 2), font, scale, 255, thick, cv2.LINE_AA)
    elif kind < 0.9:
        points = rng.uniform(0.15, 0.85, (int(rng.integers(3, 6)), 2)) * size
        cv2.polylines(canvas, [points.round().astype(np.int32)], False, 255, thick, cv2.LINE_AA)
    else:
        centre = tuple(int(v) for v in rng.uniform(0.35, 0.65, 2) * size)
        cv2.circle(canvas, centre, max(2, round(size * rng.uniform(0.06, 0.15))), 255, -1, cv2.LINE_AA)
    canvas = canvas.astype(np.float32) / 255.0
    # A hand's slant and wobble: rotate, shear and bend a little.
    angle = float(rng.uniform(-18, 18))
    matrix = cv2.getRotationMatrix2D((size / 2, size / 2), angle, 1.0)
    matrix[0, 1] += float(rng.uniform(-0.25, 0.1))
    canvas = cv2.warpAffine(canvas, matrix, (size, size), flags=cv2.INTER_LINEAR)
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32)
    wobble = 0.03 * size * np.sin(ys / size * 2 * np.pi * float(rng.uniform(0.5, 1.5)) + float(rng.uniform(0, 6)))
    return cv2.remap(canvas, xs + wobble.astype(np.float32), ys, cv2.INTER_LINEAR)


def draw_ink(img: np.ndarray, board: Board, box, marks: int, rng: np.random.Generator) -> tuple[tuple[int, int], ...]:
    """Write ``marks`` marks in one pen over cells of the board (in place), as players do
    when they count regions: numbers, strokes and dots, each about a cell wide.  Returns
    the cells at the marks' centres."""
    h, w = img.shape[:2]
    ink = np.array(INKS[int(rng.integers(len(INKS)))], np.float32)
    column = box[2] / board.columns
    size = max(8, round(0.8 * column))
    cells = []
    for _ in range(marks):
        r, c = int(rng.integers(1, board.rows - 1)), int(rng.integers(board.columns))
        x, y = cell_centre(board.lattice, board.rows, board.columns, r, c, box)
        x0, y0 = round(x - size / 2), round(y - size / 2)
        if x0 < 0 or y0 < 0 or x0 + size > w or y0 + size > h:
            continue
        alpha = _ink_mark(rng, size)[..., None]
        patch = img[y0 : y0 + size, x0 : x0 + size]
        patch[:] = patch * (1 - alpha) + ink * alpha
        cells.append((r, c))
    return tuple(cells)
