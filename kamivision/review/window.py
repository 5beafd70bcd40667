"""The review window (OpenCV HighGUI): a thin view over :class:`~kamivision.review.model.ReviewModel`.

Clicks select and paint cells, keys pick colors and run the commands; the model does the
rest.  The screenshot is shown scaled to fit the screen, with the lattice outlined, each
cell's class as a small disc (a cross for blank), uncertain cells ringed in red, and a
status line.  A key solves the current board and shows the overlay.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Optional

import cv2
import numpy as np

from ..board import hex_to_rgb
from ..geometry import label_image
from ..errors import KamiError, OutputExistsError
from ..overlay import Geometry, draw_solution, spread_markers
from ..report import progress_line
from .model import ReviewModel

TITLE = "kamivision review"
MAX_HEIGHT = 900  # the window's image height at most (pixels); larger screenshots are scaled
STATUS_HEIGHT = 44


def display_scale(height: int) -> float:
    """The factor from screenshot pixels to window pixels."""
    return min(1.0, MAX_HEIGHT / height)


class ReviewWindow:
    def __init__(
        self,
        image: np.ndarray,
        model: ReviewModel,
        geometry: Geometry,
        swatches: list[tuple[int, int, int, int]],
        output: Path,
        solve: Callable,
    ):
        self.model = model
        self.output = output
        self.solve = solve
        self.scale = display_scale(image.shape[0])
        self.full = image
        self.geometry = geometry
        h, w = image.shape[:2]
        self.size = (max(1, round(w * self.scale)), max(1, round(h * self.scale)))
        self.base = cv2.resize(image, self.size, interpolation=cv2.INTER_AREA)
        self.swatches = [tuple(round(v * self.scale) for v in rect) for rect in swatches]
        self.labels = self._cell_labels()
        self.prompt: Optional[str] = None
        self.pending: Optional[str] = None  # a command waiting for its confirming key
        self.showing: Optional[np.ndarray] = None  # the solution overlay, when shown
        self.pressed = False

    # ---------------------------------------------------------------- geometry

    def _cell_labels(self) -> np.ndarray:
        board = self.model.board
        x, y, w, h = (v * self.scale for v in self.geometry.box)
        labels = label_image(board.lattice, board.rows, board.columns, (x, y, w, h), (self.size[1], self.size[0]))
        top, bottom = self.geometry.visible
        labels[: round(top * self.scale)] = -1
        labels[round(bottom * self.scale) :] = -1
        return labels

    def cell_at(self, x: int, y: int) -> Optional[int]:
        if 0 <= y < self.labels.shape[0] and 0 <= x < self.labels.shape[1]:
            cell = int(self.labels[y, x])
            return cell if cell >= 0 else None
        return None

    def swatch_at(self, x: int, y: int) -> Optional[int]:
        for k, (sx, sy, sw, sh) in enumerate(self.swatches):
            if sx <= x < sx + sw and sy <= y < sy + sh:
                return k
        return None

    # ---------------------------------------------------------------- drawing

    def frame(self) -> np.ndarray:
        if self.showing is not None:
            view = self.showing
            status = "solution shown | e or Esc: back to editing"
        else:
            view = self._edit_view()
            status = self.prompt or self.model.status()
        bar = np.full((STATUS_HEIGHT, view.shape[1], 3), (34, 25, 15), np.uint8)
        font_scale = max(0.35, min(0.5, view.shape[1] / 1400))
        lines = _wrap(status, max(20, int(view.shape[1] / (font_scale * 19))))[:2]
        for i, line in enumerate(lines):
            cv2.putText(bar, line, (6, 17 + 20 * i), cv2.FONT_HERSHEY_SIMPLEX, font_scale, (235, 235, 230), 1, cv2.LINE_AA)
        return cv2.cvtColor(np.vstack([view, bar]), cv2.COLOR_RGB2BGR)

    def _edit_view(self) -> np.ndarray:
        board = self.model.board
        view = self.base.copy()
        palette = [hex_to_rgb(c) for c in (board.palette or [])]
        outlines = []
        r_dot = max(3, round(0.012 * self.size[0]))
        for cell in range(board.rows * board.columns):
            pts = self.geometry.polygon(board, cell) * self.scale
            outlines.append(np.round(pts * 16).astype(np.int32))
        cv2.polylines(view, outlines, True, (235, 235, 235), 1, cv2.LINE_AA, shift=4)
        for cell in range(board.rows * board.columns):
            x, y = (v * self.scale for v in self.geometry.centre(board, cell))
            centre = (round(x), round(y))
            value = board.color_at(cell)
            if value is None:
                d = r_dot
                cv2.line(view, (centre[0] - d, centre[1] - d), (centre[0] + d, centre[1] + d), (30, 30, 30), 2, cv2.LINE_AA)
                cv2.line(view, (centre[0] - d, centre[1] + d), (centre[0] + d, centre[1] - d), (30, 30, 30), 2, cv2.LINE_AA)
            else:
                fill = palette[value] if value < len(palette) else (128, 128, 128)
                cv2.circle(view, centre, r_dot + 1, (20, 20, 20), -1, cv2.LINE_AA)
                cv2.circle(view, centre, r_dot, fill, -1, cv2.LINE_AA)
            if self.model.uncertain(cell):
                cv2.circle(view, centre, 2 * r_dot + 2, (230, 30, 30), 2, cv2.LINE_AA)
        if self.model.selected is not None:
            pts = np.round(self.geometry.polygon(board, self.model.selected) * self.scale * 16).astype(np.int32)
            cv2.polylines(view, [pts], True, (255, 220, 0), 3, cv2.LINE_AA, shift=4)
        return view

    # ---------------------------------------------------------------- input

    def on_mouse(self, event: int, x: int, y: int, flags: int, param=None) -> None:
        if self.showing is not None:
            return
        if event == cv2.EVENT_LBUTTONDOWN:
            swatch = self.swatch_at(x, y)
            if swatch is not None:
                self._guard(lambda: self.model.set_color(swatch))
                return
            cell = self.cell_at(x, y)
            if cell is not None:
                self.pressed = True
                self.model.begin_stroke(cell)
        elif event == cv2.EVENT_MOUSEMOVE and self.pressed:
            cell = self.cell_at(x, y)
            if cell is not None and cell != self.model.selected:
                self.model.paint(cell)
        elif event == cv2.EVENT_LBUTTONUP and self.pressed:
            self.pressed = False
            self.model.end_stroke()
        elif event == cv2.EVENT_RBUTTONDOWN:
            self.model.select(self.cell_at(x, y))

    def _guard(self, action: Callable) -> None:
        try:
            action()
            self.prompt = None
        except ValueError as error:
            self.prompt = str(error)

    def on_key(self, key: int) -> bool:
        """Handle one key; False when the window should close."""
        char = chr(key) if 0 < key < 256 else ""
        if self.showing is not None:
            if char in ("e", "\x1b", " ", "\r"):
                self.showing = None
            return True
        confirming, self.pending = self.pending, None
        self.prompt = None
        if char == "q" or key == -2:
            if self.model.dirty and confirming != "q":
                self.pending = "q"
                self.prompt = "unsaved changes: press q again to quit without saving, or s to save"
                return True
            return False
        if char.isdigit() and char != "0":
            self._guard(lambda: self.model.set_color(int(char) - 1))
        elif char == "b":
            self.model.set_color(None)
        elif char == "f":
            self.model.fill_region()
        elif char == "z":
            self.model.undo()
        elif char == "y":
            self.model.redo()
        elif char == "s":
            if self.model.needs_overwrite(self.output) and confirming != "s":
                self.pending = "s"
                self.prompt = f"{self.output} exists: press s again to overwrite it"
            else:
                try:
                    self.model.save(self.output, overwrite=True)
                    self.prompt = f"saved {self.output}"
                except (OSError, OutputExistsError) as error:
                    self.prompt = f"not saved: {error}"
        elif char in (" ", "\r"):
            self._solve()
        return True

    def _solve(self) -> None:
        self.prompt = "solving..."
        cv2.imshow(TITLE, self.frame())
        cv2.waitKey(1)

        def progress(info: dict) -> None:
            self.prompt = " ".join(progress_line(info).split())
            cv2.imshow(TITLE, self.frame())
            cv2.waitKey(1)

        try:
            solution = self.solve(self.model.board, progress)
        except KamiError as error:
            self.prompt = f"cannot solve: {error}"
            return
        moves = spread_markers(self.model.board, solution.moves, self.geometry)
        overlay = draw_solution(self.full, self.model.board, moves, self.geometry)
        h = round(overlay.shape[0] * self.scale)
        self.showing = cv2.resize(overlay, (self.size[0], h), interpolation=cv2.INTER_AREA)
        proof = "proven optimal" if solution.optimal else f"not proven (at least {solution.lower_bound})"
        self.prompt = f"{solution.length} moves, {proof}"

    def run(self) -> None:
        open_window(self.on_mouse)
        while True:
            cv2.imshow(TITLE, self.frame())
            key = cv2.waitKey(30)
            try:
                visible = cv2.getWindowProperty(TITLE, cv2.WND_PROP_VISIBLE)
            except cv2.error:
                visible = 0
            if visible < 1:
                key = -2  # the window was closed: treat as quit
                if not self.on_key(key):
                    break
                if self.model.dirty:
                    # Closing with unsaved changes: reopen and ask.
                    open_window(self.on_mouse)
                continue
            if key != -1 and not self.on_key(key & 0xFF):
                break
        cv2.destroyAllWindows()


def _point_qt_at_fonts() -> None:
    """OpenCV's Qt windows look for fonts beside the wheel, which ships none: point Qt at
    the system's fonts when they are there (otherwise Qt prints a warning per window and
    goes on).  Done when a window opens, never at import."""
    for fonts in ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype", "/usr/share/fonts"):
        if os.path.isdir(fonts):
            os.environ.setdefault("QT_QPA_FONTDIR", fonts)
            return


def open_window(on_mouse: Callable) -> None:
    """A plain window (no toolbar, so the image starts at its top-left corner)."""
    _point_qt_at_fonts()
    cv2.namedWindow(TITLE, cv2.WINDOW_AUTOSIZE | cv2.WINDOW_GUI_NORMAL)
    cv2.setMouseCallback(TITLE, on_mouse)


def _wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(" "), [], ""
    for word in words:
        if len(line) + len(word) + 1 > width and line:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + [line] if line else lines
