"""Draw a board as a phone screenshot of KAMI 2 (or KAMI 1 for square boards).

The screens and their proportions are in :mod:`kamivision.synth.screens`; the lattice's pixels
in :mod:`kamivision.geometry` (``docs/board-format.md``).

The picture is built in layers with numpy: a label image says which cell each pixel
belongs to; each cell gets its paper color, a fold shading of its own and the screen's
light (brighter at the top); paper grain and mottling come from seeded noise; edges are
darkened faintly between triangles of one color and more between colors; blank cells
show the game's pale gradient background.  Everything is deterministic for a seed.
"""

from __future__ import annotations

import colorsys
import dataclasses
import io
import math
from dataclasses import dataclass
from typing import Optional, Sequence

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..board import Board, hex_to_rgb
from ..geometry import TRIANGLE_ASPECT, cell_centre, label_image
from .covers import (
    Banner,
    NavBar,
    Window,
    draw_banner,
    draw_ink,
    draw_nav_overlay,
    draw_status_bar,
    draw_window,
    pill,
    round_corners,
    three_buttons,
)
from .screens import DEFAULT_DEVICE, DEVICES, Device, button_slots, counter_slot

# Paper colors seen in KAMI 2 (RGB); boards without a palette draw theirs from here.
PAPER_COLORS = [
    "#e7dcc5",  # cream
    "#e3662c",  # orange
    "#1e4c54",  # dark teal
    "#33c4b3",  # turquoise
    "#c8345f",  # magenta
    "#e9a23b",  # amber
    "#2e2b27",  # charcoal
    "#5b9f77",  # green
    "#a33a3e",  # red
    "#f0d889",  # pale yellow
    "#9fb68d",  # sage
    "#6a4a7c",  # purple
    "#3a6fa5",  # blue
    "#d98fa0",  # pink
]

FOOTER_RGB = (34, 25, 15)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where things are on a rendered screen, in pixels (``x, y, w, h`` rectangles)."""

    width: int
    height: int
    board: tuple[float, float, float, float]  # nominal board: x, y, w, h (h = 1.6166 w)
    footer: tuple[int, int, int, int]
    buttons: tuple[int, int, int, int]
    counter: tuple[int, int, int, int]
    swatches: tuple[tuple[int, int, int, int], ...]
    inked: tuple[tuple[int, int], ...] = ()  # cells with ink drawn over them (row, column)


def board_palette(board: Board, seed: int = 0) -> list[str]:
    """The board's palette, or a seeded choice of KAMI paper colors for its color ids."""
    used = max((v for row in board.cells for v in row if v is not None), default=0) + 1
    if board.palette is not None:
        return list(board.palette)
    rng = np.random.default_rng(seed + 7919)
    order = rng.permutation(len(PAPER_COLORS))
    chosen = [PAPER_COLORS[i] for i in order[:used]]
    # More colors than KAMI's papers (the format allows 64): hues a golden angle apart,
    # at three lightnesses, so that neighbours in the list stay far apart.
    for i in range(used - len(chosen)):
        hue = (i * 0.381966) % 1.0
        r, g, b = colorsys.hls_to_rgb(hue, (0.35, 0.55, 0.75)[i % 3], 0.65)
        chosen.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    return chosen


def layout_for(device: Device, colors: int, lattice: str = "triangle", rows: int = 29, columns: int = 10) -> Layout:
    w, h = device.width, device.height
    top = device.top * w
    footer_top = round(device.footer_top * w)
    footer_bottom = h if device.footer_bottom is None else round(device.footer_bottom * w)
    if lattice == "triangle":
        bw = device.board_width * w
        board = ((w - bw) / 2, top, bw, bw * TRIANGLE_ASPECT)
    else:
        cell = min(w / columns, (footer_top - top) / rows)
        bw, bh = cell * columns, cell * rows
        board = ((w - bw) / 2, top + (footer_top - top - bh) / 2, bw, bh)
    bw_px = round(device.buttons * w)
    buttons = (0, footer_top, bw_px, footer_bottom - footer_top)
    counter = tuple(round(v) for v in button_slots(device, buttons)[counter_slot(device)])
    edges = np.linspace(bw_px, w, colors + 1).round().astype(int)
    swatches = tuple(
        (int(edges[i]), footer_top, int(edges[i + 1] - edges[i]), footer_bottom - footer_top) for i in range(colors)
    )
    return Layout(w, h, board, (0, footer_top, w, footer_bottom - footer_top), buttons, counter, swatches)


# ------------------------------------------------------------------ noise and light


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    """Low-frequency noise in [-1, 1]: a coarse random grid upscaled with cubic interpolation."""
    gh = max(2, round(cells * h / max(w, 1)))
    coarse = rng.standard_normal((gh, cells)).astype(np.float32)
    out = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(out / 2.0, -1.0, 1.0)


def _grain(rng: np.random.Generator, h: int, w: int, scale: float, window=(slice(None), slice(None))) -> np.ndarray:
    """Paper grain in grey levels: fibres (fine noise, slightly blurred), mottling a few pixels
    across, and sparse darker specks, as in close-ups of real screenshots; only its ``window``
    is blurred (the same values where the blurs' reach stays inside it)."""
    fine = rng.standard_normal((h, w))[window].astype(np.float32)
    blobs = rng.standard_normal((h, w))[window].astype(np.float32)
    specks = (rng.random((h, w))[window] < 0.004).astype(np.float32)
    fine = cv2.GaussianBlur(fine, (0, 0), max(0.5, 0.7 * scale))
    blobs = cv2.GaussianBlur(blobs, (0, 0), max(1.0, 2.2 * scale))
    specks = cv2.GaussianBlur(specks, (0, 0), max(0.6, 0.8 * scale))
    return 3.2 * fine + 9.0 * blobs - 25.0 * specks


def _background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """The pale gradient behind blank cells: pinkish, greenish and lilac corners."""
    corners = np.array(
        [
            [238, 226, 228],  # top left: pink
            [228, 226, 238],  # top right: lilac
            [226, 236, 229],  # bottom left: mint
            [236, 232, 222],  # bottom right: warm
        ],
        dtype=np.float32,
    )
    corners += rng.uniform(-5, 5, corners.shape).astype(np.float32)
    rng.shuffle(corners)
    coarse = corners.reshape(2, 2, 3)
    return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)


# ------------------------------------------------------------------ the board


def _draw_board(img: np.ndarray, board: Board, box, palette: list[str], rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    _, y0, bw, bh = box
    scale = bw / 750.0
    full_labels = label_image(board.lattice, board.rows, board.columns, box, (h, w), hidden=True)
    # Worked out in the board's box and a margin the blurs' reach (the shadow's 4 sigma): the
    # same values as over the whole screen, whose noise is still drawn (the same picture).
    rows, cols = (np.flatnonzero((full_labels >= 0).any(axis=a)) for a in (1, 0))
    m = math.ceil(12.5 * max(1.0, scale)) + 4
    top, left = max(0, rows[0] - m), max(0, cols[0] - m)
    bottom, right = min(h, rows[-1] + 1 + m), min(w, cols[-1] + 1 + m)
    window = (slice(top, bottom), slice(left, right))
    labels = full_labels[window]
    n = board.rows * board.columns
    flat = [v for row in board.cells for v in row]
    colors = np.array(
        [hex_to_rgb(palette[v]) if v is not None else (0, 0, 0) for v in flat] + [(0, 0, 0)], dtype=np.float32
    )
    blank = np.array([v is None for v in flat] + [True])
    # np.take with native-size indices: 5-8 times faster than fancy indexing here.
    lab = np.where(labels < 0, n, labels).astype(np.intp)
    inside = ~np.take(blank, lab)
    # Fold shading: each cell a brightness offset and a gradient of its own.
    offset = rng.normal(0.0, 0.035, n + 1).astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi, n + 1)
    strength = rng.uniform(0.0, 0.05, n + 1).astype(np.float32)
    ys = np.arange(top, bottom, dtype=np.float32)[:, None]
    xs = np.arange(left, right, dtype=np.float32)[None, :]
    cx = np.zeros(n + 1, np.float32)
    cy = np.zeros(n + 1, np.float32)
    size = bw / 10.0
    for index in range(n):
        r, c = divmod(index, board.columns)
        cx[index], cy[index] = cell_centre(board.lattice, board.rows, board.columns, r, c, box)
    ux = (np.cos(angle) * strength / size).astype(np.float32)
    uy = (np.sin(angle) * strength / size).astype(np.float32)
    fold = (
        np.take(offset, lab) + (xs - np.take(cx, lab)) * np.take(ux, lab) + (ys - np.take(cy, lab)) * np.take(uy, lab)
    )
    light = 0.07 * (1.0 - (ys - y0) / bh) - 0.02 + 0.03 * _smooth_noise(rng, h, w, 5)[window]
    mottle = 0.018 * _smooth_noise(rng, h, w, 40)[window]
    factor = 1.0 + fold + light + mottle
    paper = np.take(colors, lab, axis=0)
    paper *= factor[..., None]
    paper += _grain(rng, h, w, scale, window)[..., None]
    # Edges: pixels whose right or lower neighbor belongs to another cell (both sides marked).
    cid = np.take(np.array([-1 if v is None else v for v in flat] + [-1]), lab)
    edge_same = np.zeros(lab.shape, np.float32)
    edge_diff = np.zeros(lab.shape, np.float32)
    for a_sl, b_sl in (
        ((slice(None), slice(0, -1)), (slice(None), slice(1, None))),
        ((slice(0, -1), slice(None)), (slice(1, None), slice(None))),
    ):
        differ = lab[a_sl] != lab[b_sl]
        same_color = differ & (cid[a_sl] == cid[b_sl]) & (cid[a_sl] >= 0)
        other = (differ & ~same_color).astype(np.float32)
        same_color = same_color.astype(np.float32)
        for sl in (a_sl, b_sl):
            np.maximum(edge_same[sl], same_color, out=edge_same[sl])
            np.maximum(edge_diff[sl], other, out=edge_diff[sl])
    # Creases between triangles of one color are thin dark lines; color boundaries are
    # clean cuts, softened by antialiasing.
    k = max(0.5, 0.5 * scale)
    edge_same = cv2.GaussianBlur(edge_same, (0, 0), k)
    edge_diff = cv2.GaussianBlur(edge_diff, (0, 0), k)
    paper *= (1.0 - 0.11 * edge_same - 0.04 * edge_diff)[..., None]
    paper = cv2.GaussianBlur(paper, (0, 0), 0.6)
    # Blank cells: the background, with paper casting a soft shadow on it.
    back = _background(rng, h, w)[window] + 0.08 * _grain(rng, h, w, scale, window)[..., None]
    shade = cv2.GaussianBlur(inside.astype(np.float32), (0, 0), 3.0 * max(1.0, scale))
    back *= (1.0 - 0.10 * shade)[..., None]
    covered = labels >= 0
    np.copyto(img[window], paper, where=(covered & inside)[..., None])
    np.copyto(img[window], back, where=(covered & ~inside)[..., None])


# ------------------------------------------------------------------ the footer


def _font(size: int) -> ImageFont.ImageFont:
    """Pillow's bundled FreeType font (Aileron, SIL Open Font Licence): no system fonts needed."""
    return ImageFont.load_default(size=size)


def _icon_back(draw: ImageDraw.ImageDraw, cx: float, cy: float, u: float, fill) -> None:
    head = [(cx - 0.42 * u, cy), (cx + 0.02 * u, cy - 0.42 * u), (cx + 0.02 * u, cy + 0.42 * u)]
    draw.polygon(head, fill=fill)
    draw.rectangle([cx - 0.05 * u, cy - 0.17 * u, cx + 0.42 * u, cy + 0.17 * u], fill=fill)


def _icon_restart(draw: ImageDraw.ImageDraw, cx: float, cy: float, u: float, fill) -> None:
    r = 0.36 * u
    width = max(2, round(0.07 * u))
    draw.arc([cx - r, cy - r, cx + r, cy + r], start=-60, end=250, fill=fill, width=width)
    ang = math.radians(-60)
    tx, ty = cx + r * math.cos(ang), cy + r * math.sin(ang)
    a = 0.2 * u
    draw.polygon([(tx - a, ty - 0.1 * u), (tx + 0.6 * a, ty - 0.3 * u), (tx + 0.45 * a, ty + 0.55 * a)], fill=fill)


def _icon_hint(draw: ImageDraw.ImageDraw, cx: float, cy: float, u: float, fill) -> None:
    r = 0.27 * u
    by = cy - 0.12 * u
    draw.ellipse([cx - r, by - r, cx + r, by + r], fill=fill)
    draw.polygon(
        [
            (cx - 0.6 * r, by + 0.6 * r),
            (cx + 0.6 * r, by + 0.6 * r),
            (cx + 0.35 * r, by + 1.45 * r),
            (cx - 0.35 * r, by + 1.45 * r),
        ],
        fill=fill,
    )
    lw = max(2, round(0.05 * u))
    for k in range(3):
        y = by + (1.65 + 0.35 * k) * r
        half = (0.5 - 0.1 * k) * r
        draw.line([(cx - half, y), (cx + half, y)], fill=fill, width=lw)


def _draw_footer(
    img: np.ndarray,
    layout: Layout,
    device: Device,
    palette: list[str],
    moves: Optional[int],
    selected: Optional[int],
    rng: np.random.Generator,
) -> None:
    h, w = img.shape[:2]
    fx, fy, fw, fh = layout.footer
    scale = w / 750.0
    region = img[fy : fy + fh, fx : fx + fw]
    region[:] = np.array(FOOTER_RGB, np.float32) + 0.4 * _grain(rng, fh, fw, scale)[..., None]
    for i, (sx, sy, sw, sh) in enumerate(layout.swatches):
        base = np.array(hex_to_rgb(palette[i]), np.float32)
        grad = 1.0 + 0.03 * np.linspace(1, -1, sh, dtype=np.float32)[:, None]
        mottle = 1.0 + 0.015 * _smooth_noise(rng, sh, sw, 6)
        img[sy : sy + sh, sx : sx + sw] = (
            base * (grad * mottle)[..., None] + 0.8 * _grain(rng, sh, sw, scale)[..., None]
        )
    white = (238, 236, 230)
    line = max(1, round(1.5 * scale))
    # Pillow draws the buttons on the footer's rows and a margin for the lines' width alone,
    # placed where they are on the screen (taking the whole picture through 8 bits and back
    # cost 13 % of a render on a mix of screens); the rest gets what that trip did to it.
    np.clip(img, 0, 255, out=img)
    np.trunc(img, out=img)
    top, bottom = max(0, fy - 4 * line), min(h, fy + fh + 4 * line)
    pil = Image.new("RGB", (w, h))
    pil.paste(Image.fromarray(img[top:bottom].astype(np.uint8)), (0, top))
    draw = ImageDraw.Draw(pil)
    bx, by, bw, bh = layout.buttons
    if device.style == "classic":
        for k in range(1, 4):
            x = round(bx + k * bw / 4)
            draw.line([(x, by), (x, by + bh)], fill=(205, 200, 192), width=line)
    else:
        draw.line([(bx + bw / 2, by), (bx + bw / 2, by + bh)], fill=(205, 200, 192), width=line)
        draw.line([(bx, by + bh / 2), (bx + bw, by + bh / 2)], fill=(205, 200, 192), width=line)
    slots = button_slots(device, layout.buttons)
    counter = slots.pop(counter_slot(device))
    # The icons fill the other slots in the game's order (a row: back, restart, hint; a
    # 2 x 2 block: restart, hint, back).
    icons = (
        (_icon_back, _icon_restart, _icon_hint)
        if device.style == "classic"
        else (_icon_restart, _icon_hint, _icon_back)
    )
    u = min(bw / (4 if device.style == "classic" else 2), bh / (1 if device.style == "classic" else 2))
    for (x, y, cw, ch), icon in zip(slots, icons):
        icon(draw, x + cw / 2, y + ch / 2, 0.75 * u, white)
    if moves is not None:
        x, y, cw, ch = counter
        font = _font(max(8, round(0.42 * u)))
        draw.text((x + cw / 2, y + ch / 2), str(moves), fill=white, font=font, anchor="mm")
    if selected is not None and 0 <= selected < len(layout.swatches):
        sx, sy, sw, sh = layout.swatches[selected]
        f = 0.3 * min(sw, sh)
        x1 = sx + sw
        draw.polygon([(x1 - f, sy), (x1, sy), (x1, sy + f)], fill=(236, 233, 226))
        draw.polygon([(x1 - f, sy), (x1, sy + f), (x1 - f, sy + f)], fill=(225, 172, 140))
        draw.line([(x1 - f, sy), (x1, sy + f)], fill=(245, 222, 205), width=max(1, line))
    img[top:bottom] = np.asarray(pil.crop((0, top, w, bottom)), dtype=np.float32)


def _draw_strips(img: np.ndarray, layout: Layout, device: Device, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    top = round(device.top * w)
    if top:
        strip = _background(rng, top, w) * 0.2 + np.array([232, 232, 234], np.float32) * 0.8
        img[:top] = strip
        if device.strip == "black":
            img[:top] = 0.0
        elif device.nav_bar == "android":
            img[:top] = np.array([30, 30, 32], np.float32)
        elif device.strip == "cutout":  # a camera hole punched in the screen
            cv2.circle(
                img, (round(w * rng.uniform(0.1, 0.9)), top // 2), max(2, round(0.3 * top)), (0, 0, 0), -1, cv2.LINE_AA
            )
    bottom = layout.footer[1] + layout.footer[3]
    if bottom < h:
        if device.nav_bar == "android":
            img[bottom:] = np.array([8, 8, 8], np.float32)
            three_buttons(img, bottom, h)
        else:
            img[bottom:] = _background(rng, h - bottom, w)
            pill(img, (bottom + h) / 2 + 0.1 * (h - bottom), 0.36 * w, (12, 12, 12))


# ------------------------------------------------------------------ the screen


def render(
    board: Board,
    device: str | Device = DEFAULT_DEVICE,
    seed: int = 0,
    moves: Optional[int] = None,
    selected: Optional[int] = 0,
    palette: Optional[Sequence[str]] = None,
    ink: int = 0,
    nav_bar: Optional[NavBar] = None,
    status_bar: Optional[NavBar] = None,
    corners: float = 0.0,
    banner: Optional[Banner] = None,
    window: Optional[Window] = None,
) -> tuple[np.ndarray, Layout]:
    """The screenshot (RGB, uint8) of ``board`` on ``device`` and where things are on it.

    ``moves`` is the number shown on the moves-left counter (default: the board's par,
    none when unknown); ``selected`` the swatch with the folded corner (None for none);
    ``ink`` the number of marks a player wrote over the board (:func:`draw_ink`);
    ``nav_bar`` a translucent navigation bar over the bottom of the screen (the device's
    own, if it has one, when None); ``status_bar`` a translucent status bar over the top
    (its ``kind`` unused); ``corners`` the radius (screen widths) of rounded screen
    corners cut out in black; ``banner`` a notification over the top of the screen;
    ``window`` a window floating over it.
    """
    dev = DEVICES[device] if isinstance(device, str) else device
    colors = list(palette) if palette is not None else board_palette(board, seed)
    rng = np.random.default_rng(seed)
    layout = layout_for(dev, len(colors), board.lattice, board.rows, board.columns)
    img = _background(rng, dev.height, dev.width)
    _draw_board(img, board, layout.board, colors, rng)
    _draw_strips(img, layout, dev, rng)
    if moves is None:
        moves = board.par
    _draw_footer(img, layout, dev, colors, moves, selected, rng)
    if nav_bar is None and dev.nav_overlay:
        nav_bar = NavBar("buttons", dev.nav_overlay, 0.55)
    if nav_bar is not None:
        draw_nav_overlay(img, nav_bar)
    if status_bar is not None:
        draw_status_bar(img, status_bar)
    if banner is not None:
        draw_banner(img, banner)
    if window is not None:
        draw_window(img, window)
    if corners > 0:
        round_corners(img, corners)
    if ink:
        layout = dataclasses.replace(layout, inked=draw_ink(img, board, layout.board, ink, rng))
    out = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    return out, layout


def encode(
    image: np.ndarray, path_suffix: str, jpeg_quality: Optional[int] = None, scale: Optional[float] = None
) -> bytes:
    """The image as file bytes: PNG, or JPEG at ``jpeg_quality``; optionally rescaled first,
    as real screenshots are when shared."""
    if scale is not None and scale != 1.0:
        h, w = image.shape[:2]
        image = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    pil = Image.fromarray(image)
    buf = io.BytesIO()
    if jpeg_quality is not None or path_suffix.lower() in (".jpg", ".jpeg"):
        pil.save(buf, format="JPEG", quality=jpeg_quality or 90)
    else:
        pil.save(buf, format="PNG", optimize=False)
    return buf.getvalue()
