"""Opening a review: what to show (screenshot, recognised or given board), where to save."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from ..board import Board, read_board
from ..errors import KamiError
from ..geometry import Geometry
from ..vision import Recognition, load_screenshot, recognize
from .model import ReviewModel


@dataclass
class ReviewSession:
    """A board to review over its screenshot, and where saving writes it."""

    image: np.ndarray
    model: ReviewModel
    geometry: Geometry
    swatches: list[tuple[int, int, int, int]]
    output: Path
    recognition: Recognition  # the screenshot's reading (for the counter check)


def _confidence_from_file(path: Path, board: Board) -> Optional[np.ndarray]:
    source = board.extra.get("source")
    if isinstance(source, dict) and isinstance(source.get("confidence"), list):
        try:
            values = np.array(source["confidence"], dtype=np.float32)
        except (TypeError, ValueError):
            return None
        if values.shape == (board.rows, board.columns):
            return values
    return None


def open_review(source: Path, image: Optional[Path] = None, output: Optional[Path] = None) -> ReviewSession:
    """A review of a screenshot (recognised now) or of a board file shown over ``image``.

    Where it will save is checked first (a writable folder, not a folder itself, never the
    screenshot); an existing board file there is asked about when saving."""
    from ..files import check_output

    screenshot = image if source.suffix.lower() == ".json" else source
    default = source if source.suffix.lower() == ".json" else source.with_suffix(".json")
    check_output(output or default, overwrite=True, inputs=(screenshot,))
    if source.suffix.lower() == ".json":
        if image is None:
            raise KamiError(f"{source}: a board file needs its screenshot: add --image SHOT")
        board = read_board(source)
        shot = load_screenshot(image)
        recognition = recognize(shot, str(image))
        if (board.rows, board.columns, board.lattice) != (29, 10, "triangle"):
            raise KamiError(f"{source}: only KAMI 2 boards (29 x 10 triangles) can be reviewed over a screenshot")
        if board.palette is None:
            import dataclasses

            board = dataclasses.replace(board, palette=recognition.board.palette)
        confidence = _confidence_from_file(source, board)
        default = source
    else:
        shot = load_screenshot(source)
        recognition = recognize(shot, str(source), name=source.stem)
        board = recognition.board
        confidence = recognition.confidence
        default = source.with_suffix(".json")
    geometry = recognition.geometry()
    model = ReviewModel(board=board, confidence=confidence)
    return ReviewSession(shot, model, geometry, list(recognition.layout.swatches), output or default, recognition)
