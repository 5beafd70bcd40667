"""Screenshot -> board: the reader's stages in order (layout, cells, par) and what they found."""

from __future__ import annotations

import dataclasses
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import cv2
import numpy as np

from ..board import BLANK, Board, make_board, neighbor_table
from ..errors import ImageError
from ..files import load_image
from ..geometry import KAMI2_COLUMNS as COLUMNS
from ..geometry import KAMI2_ROWS as ROWS
from ..geometry import Geometry
from .alone import find_board_alone
from .bar import MAX_TINT, SLOPES, Bar, cut_corners, find_bars, overbright, undo_bar
from .buttons import find_buttons
from .cells import BLANK_CLASS, classify_cells, sample_cells, swatch_colors
from .digits import digit_templates
from .lattice import MisplacedLattice
from .layout import NoFooterError, ScreenLayout, find_layout, separator_lines
from .palette import PaletteDoubt, board_points, cluster_palette, match_palette, unused_swatch
from .par import read_par
from .settings import DEFAULT_SETTINGS, VisionSettings

#: At most this share of the cells may be off the screen (a board cropped at the sides
#: hides about a tenth); more, and the screenshot is not one the reader understands.
MAX_UNSEEN = 0.25


@dataclass(frozen=True, slots=True)
class Recognition:
    """A board read from a screenshot, with what was found on the way."""

    board: Board
    layout: ScreenLayout
    confidence: np.ndarray  # (rows, columns), 0..1
    visible: np.ndarray  # (rows, columns): the share of each cell the screen shows, 0..1
    par_confidence: float
    offset: float
    milliseconds: float
    settings: VisionSettings = DEFAULT_SETTINGS
    #: (rows, columns, colors + 1): how much less likely each reading of a cell is than the
    #: one chosen (0 for it; the last entry is blank; inf: impossible); None when unknown.
    costs: Optional[np.ndarray] = None
    #: Why the colors read are in doubt (the board's colors and the swatches disagree), or
    #: None when they agree (:mod:`kamivision.vision.palette`).
    palette_doubt: Optional[PaletteDoubt] = None

    @property
    def hidden(self) -> list[tuple[int, int]]:
        """Cells the screen shows too little of to judge (a board cropped at the sides),
        row by row; they are uncertain too."""
        rows, cols = np.nonzero(self.visible < self.settings.hidden)
        return list(zip(rows.tolist(), cols.tolist()))

    @property
    def uncertain(self) -> list[tuple[int, int]]:
        """Cells whose class is in doubt, row by row."""
        rows, cols = np.nonzero(self.confidence < self.settings.uncertain)
        return list(zip(rows.tolist(), cols.tolist()))

    def other_readings(self) -> list[tuple[float, int, int, Optional[int]]]:
        """``(cost, row, column, value)`` for every other reading of an uncertain cell that
        is plausible: its runner-up class, or the color of a neighbor (a misread cell
        usually belongs to a region beside it); cheapest first."""
        if self.costs is None:
            return []
        board = self.board
        table = neighbor_table(board.lattice, board.rows, board.columns)
        colors = self.costs.shape[2] - 1
        out = []
        for r, c in self.uncertain:
            cost = self.costs[r, c]
            here = board.cells[r][c]
            ranked = [v for v in np.argsort(cost) if np.isfinite(cost[v])]
            runner_up = next((int(v) for v in ranked if _value(int(v), colors) != here), None)
            values = {_value(runner_up, colors)} if runner_up is not None else set()
            values |= {board.color_at(n) for n in table[r * board.columns + c]}
            values.discard(here)
            for value in values:
                index = colors if value is BLANK else value
                if index < len(cost) and np.isfinite(cost[index]):
                    out.append((float(cost[index]), r, c, value))
        return sorted(out, key=lambda t: (t[0], t[1], t[2], -1 if t[3] is None else t[3]))

    def geometry(self) -> Geometry:
        """Where the lattice lies on the screenshot, at the offset the cells were read at."""
        x, y, w, h = self.layout.board
        return Geometry((x, y + self.offset, w, h), self.layout.visible)


def _value(index: int, colors: int) -> Optional[int]:
    """A cost column's cell value: a color, or BLANK for the last column."""
    return BLANK if index == colors else index


def _missed_bar(found: Optional[tuple], layout: ScreenLayout, bars: list[Bar]) -> Optional[Bar]:
    """A translucent bar over the whole footer that :func:`~kamivision.vision.bar.find_bars`
    could not see (its top on the footer's: the game's picture does not go on across that
    edge), told by the palette: its swatches are the board's colors through the map
    ``swatch = a * board + b`` (``found``), a bar's own model, darkening as a bar does."""
    if found is None or not layout.swatches or any(bar.side == "bottom" for bar in bars):
        return None
    slope, offset = found
    if not SLOPES[0] <= slope <= SLOPES[1] or max(offset) > MAX_TINT:
        return None
    return Bar(layout.footer[1], slope, offset)


def _buttons_under(bar: Bar, rgb: np.ndarray, layout: ScreenLayout) -> ScreenLayout:
    """The layout with the footer's buttons found again with ``bar`` undone (its
    separators show again) and its icons found, as for any bar."""
    undone = undo_bar(rgb, bar)
    _, top, _, height = layout.footer
    lines = separator_lines(cv2.cvtColor(np.ascontiguousarray(undone[top : top + height]), cv2.COLOR_RGB2LAB))
    block = find_buttons(undone, layout.buttons, lines, overbright(rgb, bar))
    return dataclasses.replace(layout, block=block, shade=(bar.top, bar.slope))


def recognize(
    rgb: np.ndarray, origin: str = "<image>", name: Optional[str] = None, settings: VisionSettings = DEFAULT_SETTINGS
) -> Recognition:
    """Read the board in a screenshot (RGB uint8, shape (H, W, 3)).  Raises
    :class:`ImageError`, naming ``origin``, when it is not a KAMI 2 screenshot the reader
    understands."""
    started = time.perf_counter()
    bars = find_bars(rgb)
    # What a navigation bar drew over the footer (its icons), then the game's own colors.
    over = [overbright(rgb, bar) for bar in bars if bar.side == "bottom"]
    for bar in bars:  # read the game's own colors under translucent system bars
        rgb = undo_bar(rgb, bar)
    cut = cut_corners(rgb)  # rounded screen corners cut out in black: not the game
    try:
        layout = find_layout(rgb, origin, cut, over[0] if over else None)
    except ImageError as error:
        turned = _turned(rgb)
        if turned is not None:
            raise ImageError(
                f"{origin}: this looks like a KAMI screenshot {turned}; turn it upright and try again"
            ) from None
        if not isinstance(error, NoFooterError):
            raise
        layout = find_board_alone(rgb, origin)  # a picture of the board alone, or ImageError
    for bar in bars:
        if bar.side == "bottom":
            layout = dataclasses.replace(layout, shade=(bar.top, bar.slope))
    try:
        samples = sample_cells(rgb, layout, settings, cut)
    except MisplacedLattice as error:
        raise ImageError(f"{origin}: {error}") from None
    unseen = int((~samples.seen).sum())
    if unseen > MAX_UNSEEN * ROWS * COLUMNS:
        hidden_rows = np.flatnonzero(~samples.seen.reshape(ROWS, COLUMNS).any(axis=1))
        if len(hidden_rows) and hidden_rows.tolist() == list(range(len(hidden_rows))):
            raise ImageError(
                f"{origin}: the board's top {len(hidden_rows)} rows are hidden (under a notification?): "
                "take the screenshot again without it"
            )
        raise ImageError(
            f"{origin}: the screen shows only part of the board ({unseen} of {ROWS * COLUMNS} cells unseen)"
        )
    weights = np.array([settings.lightness_weight, 1.0, 1.0])
    points, paper, flat = board_points(samples, settings)
    if layout.swatches:
        swatch_lab, swatch_rgb = swatch_colors(rgb, layout, cut)
        match = match_palette(points, swatch_lab, swatch_rgb, weights)
    elif len(points) >= 2:
        match = cluster_palette(points, weights, flat)  # a board alone: its colors from its cells
    else:
        raise ImageError(f"{origin}: no KAMI footer found, and too few paper cells to tell the board's colors")
    classes = classify_cells(samples, match.seeds.astype(np.float32), settings)
    classes.confidence[paper[list(match.stray)]] = 0.0  # a color no swatch shows: doubtful
    palette_doubt = match.doubt or unused_swatch(classes.classes, len(match.seeds))
    missed = _missed_bar(match.map, layout, bars)
    if missed is not None:
        layout = _buttons_under(missed, rgb, layout)
    par, par_confidence = read_par(layout)  # (None, 0.0) for a board alone: no counter
    grid = classes.classes.reshape(ROWS, COLUMNS)
    cells = [[BLANK if v == BLANK_CLASS else int(v) for v in row] for row in grid]
    if all(v is None for row in cells for v in row):
        raise ImageError(f"{origin}: every cell looks blank; this is not a KAMI board")
    palette = [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in np.round(match.rgb).astype(int)]
    board = make_board(cells, lattice="triangle", palette=palette, par=par, name=name)
    return Recognition(
        board=board,
        layout=layout,
        confidence=classes.confidence.reshape(ROWS, COLUMNS),
        visible=samples.visible.reshape(ROWS, COLUMNS),
        par_confidence=par_confidence,
        offset=samples.offset,
        milliseconds=1000 * (time.perf_counter() - started),
        settings=settings,
        costs=classes.costs.reshape(ROWS, COLUMNS, -1),
        palette_doubt=palette_doubt,
    )


def _turned(rgb: np.ndarray) -> Optional[str]:
    """How a picture the reader found no KAMI footer in is turned, when turning it back
    shows one ("upside down", ...); ``None`` when no turn does (not a screenshot).  Asked
    only after a failure, so a good screenshot never pays for it."""
    # np.rot90(k) turns counter-clockwise by k quarters: it undoes a picture turned k
    # quarters clockwise.
    for k, how in ((1, "turned a quarter clockwise"), (2, "upside down"), (3, "turned a quarter counter-clockwise")):
        upright = np.ascontiguousarray(np.rot90(rgb, k))
        try:
            find_layout(upright, "<turned>", cut_corners(upright))
        except ImageError:
            continue
        return how
    return None


#: Larger pictures are scaled down to this many pixels before reading: the reader's peak
#: memory is about 37 bytes a pixel and its time grows faster than the pixels, so a read
#: stays under 200 MB and a second.  Only the largest phones' and tablets' screenshots
#: are this large (1440 x 3200 is 4.6 MP; a 12.9-inch iPad's 5.6 MP); the reader measures
#: everything relative to the board, so the scale changes no answer.
READ_PIXELS = 4_000_000


def within_read_pixels(image: np.ndarray) -> np.ndarray:
    """``image``, scaled down (OpenCV's area averaging) when it has more than
    :data:`READ_PIXELS` pixels."""
    h, w = image.shape[:2]
    if h * w <= READ_PIXELS:
        return image
    import cv2

    scale = (READ_PIXELS / (h * w)) ** 0.5
    return cv2.resize(image, (max(1, int(w * scale)), max(1, int(h * scale))), interpolation=cv2.INTER_AREA)


def load_screenshot(path: str | Path) -> np.ndarray:
    """The screenshot at ``path`` as it is read (and drawn on): RGB, at most
    :data:`READ_PIXELS` pixels.  While the file is decoded, a second thread makes what
    the first reading in a process needs (:func:`warm_up`)."""
    # Not a daemon: a process that ends (a file that is no picture) waits the fraction of
    # a second the thread has left; a daemon thread inside OpenCV at exit aborts it.
    threading.Thread(target=warm_up, name="kamivision-warm-up").start()
    return within_read_pixels(load_image(path))


def warm_up() -> None:
    """Make once per process, ahead of need, what the reader's first screenshot would
    otherwise wait for: OpenCV's tables for CIE Lab (built on the first conversion, about
    0.12 s) and the counter's digit templates (about 0.05 s).  OpenCV and Pillow's decoders
    let go of the interpreter's lock, so on two cores this costs the reading nothing; a
    reading that gets there first waits for OpenCV's tables (built once, under its own
    lock), or makes the templates itself."""
    cv2.cvtColor(np.zeros((1, 1, 3), np.float32), cv2.COLOR_RGB2LAB)
    digit_templates()


def recognize_file(path: str | Path, settings: VisionSettings = DEFAULT_SETTINGS) -> Recognition:
    """Read the board in the screenshot at ``path`` (any format Pillow reads)."""
    path = Path(path)
    return recognize(load_screenshot(path), str(path), name=path.stem, settings=settings)
