"""The web app's sessions: one screenshot (or board file) each, held in memory.

A session is what one page works on: the picture, the board as read, the
:class:`~kamivision.review.ReviewModel` that the page's edits go through (so undo, fill and
saving behave exactly as the library's), its solve job and last answer.  The store bounds
the memory they hold: at most :attr:`SessionStore.max_sessions` sessions and
:attr:`SessionStore.max_bytes` of pictures, idle ones dropped first, and every session
forgotten after :attr:`SessionStore.idle_seconds` without a request.  Nothing is written to
disk: an upload lives in memory until its session goes.
"""

from __future__ import annotations

import dataclasses
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import numpy as np

from ..board import Board, board_to_dict
from ..graph import bits, region_cells
from ..geometry import Geometry
from ..pipeline import answer_notices, doubt_notices, reading_notices
from ..report import color_label, color_names, doubt_summary, verdict
from ..review import ReviewModel
from .jobs import Job


class StoreFull(Exception):
    """No room for another session."""


@dataclass
class Result:
    """A finished solve: the board it was for and what the solver (and the check) said."""

    board: Board
    solution: Any  # kamivision.solver.Solution
    check: Any = None  # kamivision.parcheck.CounterCheck
    doubt: Any = None  # kamivision.doubt.Doubt (None: a board file)
    files: dict = field(default_factory=dict)  # name -> bytes (overlay.png, solution.gif), made on demand


@dataclass
class Session:
    """One picture and the board on it, being reviewed and solved from a page."""

    name: str
    image: np.ndarray
    geometry: Geometry
    model: ReviewModel
    read: Board  # the board as read (the model's board changes with the edits)
    recognition: Any = None  # kamivision.vision.Recognition; None for a board file
    save_to: Optional[Path] = None  # review mode: where "save" writes (chosen on the command line)
    id: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    touched: float = field(default_factory=time.monotonic)
    job: Optional[Job] = None
    result: Optional[Result] = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    jpeg: Optional[bytes] = None  # the picture as sent to the page
    pinned: bool = False  # the review's own session: never dropped

    @property
    def nbytes(self) -> int:
        return self.image.nbytes + len(self.jpeg or b"") + sum(
            len(v) for v in (self.result.files.values() if self.result else ())
        )

    @property
    def board(self) -> Board:
        return self.model.board

    def edited_cells(self) -> list[int]:
        """Cells whose color differs from the reading (the user changed them)."""
        now, then = self.model.board.colors(), self.read.colors()
        return [i for i, (a, b) in enumerate(zip(now, then)) if a != b]

    def reading(self):
        """The recognition with the edits applied: edited cells count as checked (confidence 1)."""
        if self.recognition is None:
            return None
        confidence = self.recognition.confidence.copy()
        columns = self.read.columns
        for cell in self.edited_cells():
            confidence[divmod(cell, columns)] = 1.0
        return dataclasses.replace(self.recognition, board=self.model.board, confidence=confidence)


class SessionStore:
    """The sessions, bounded in number, bytes and idle time."""

    def __init__(self, max_sessions: int = 64, max_bytes: int = 1_500_000_000, idle_seconds: float = 3600.0):
        self.max_sessions = max_sessions
        self.max_bytes = max_bytes
        self.idle_seconds = idle_seconds
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._sessions)

    @property
    def nbytes(self) -> int:
        with self._lock:
            return sum(s.nbytes for s in self._sessions.values())

    def get(self, session_id: str) -> Optional[Session]:
        with self._lock:
            session = self._sessions.get(session_id)
            if session is not None:
                session.touched = time.monotonic()
            return session

    def add(self, session: Session, pinned: bool = False) -> Session:
        """Keep ``session``, dropping expired and then least recently used idle sessions to
        make room; :class:`StoreFull` when the busy ones alone fill the store."""
        with self._lock:
            self._expire(time.monotonic())
            idle = sorted(
                (s for s in self._sessions.values() if not _busy(s) and not s.pinned),
                key=lambda s: s.touched,
            )
            while idle and (
                len(self._sessions) >= self.max_sessions
                or sum(s.nbytes for s in self._sessions.values()) + session.nbytes > self.max_bytes
            ):
                self._sessions.pop(idle.pop(0).id, None)
            if len(self._sessions) >= self.max_sessions or (
                sum(s.nbytes for s in self._sessions.values()) + session.nbytes > self.max_bytes
            ):
                raise StoreFull("the server is holding as many screenshots as it may: try again in a few minutes")
            session.pinned = session.pinned or pinned
            self._sessions[session.id] = session
            return session

    def remove(self, session_id: str) -> Optional[Session]:
        with self._lock:
            return self._sessions.pop(session_id, None)

    def _expire(self, now: float) -> None:
        for key, session in list(self._sessions.items()):
            if now - session.touched > self.idle_seconds and not _busy(session) and not session.pinned:
                del self._sessions[key]


def _busy(session: Session) -> bool:
    return session.job is not None and not session.job.finished


# ---------------------------------------------------------------- opening a session


def session_from_upload(data: bytes, filename: str) -> Session:
    """A session for uploaded bytes: a screenshot (read now) or a board file (drawn by the
    renderer, so that the page shows it the same way).  Errors are
    :class:`~kamivision.errors.KamiError` naming ``filename``."""
    from ..board import board_from_dict
    from ..errors import BoardFileError
    from ..files import decode_image, parse_json
    from ..vision import recognize, within_read_pixels

    stem = Path(filename).stem or "upload"
    if data.lstrip()[:1] == b"{":
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise BoardFileError(f"{filename}: not valid JSON (not UTF-8 text)") from None
        # The command line's own reading: duplicate keys, over-long integers, deep nesting.
        obj = parse_json(text, filename, BoardFileError)
        from ..puzzles import FORMATS

        if isinstance(obj, dict) and obj.get("format") in FORMATS:
            raise BoardFileError(f"{filename}: {obj['format']} boards are solved with 'kamivision solve FILE', not on this page")
        return session_from_board(board_from_dict(obj, filename), stem)
    # At most files.MAX_SIDE a side and MAX_PIXELS, from the header; read at vision.READ_PIXELS.
    image = within_read_pixels(decode_image(data, filename))
    recognition = recognize(image, filename, name=stem)
    return session_from_recognition(image, recognition, stem)


def release_memory() -> None:
    """Hand freed memory back to the system (glibc keeps it otherwise, after a large read)."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if name and "libc" in name:
        try:
            ctypes.CDLL(name).malloc_trim(0)
        except (OSError, AttributeError):  # not glibc
            pass


def session_from_recognition(image: np.ndarray, recognition, name: str, board: Optional[Board] = None) -> Session:
    """A session over a screenshot and its reading (``board``: a board file shown instead)."""
    geometry = recognition.geometry()
    board = board or recognition.board
    confidence = recognition.confidence if board is recognition.board else None
    model = ReviewModel(board=board, confidence=confidence)
    return Session(name=name, image=image, geometry=geometry, model=model, read=board, recognition=recognition)


def session_from_board(board: Board, name: str) -> Session:
    """A session over a board file: the renderer draws it as a phone would show it."""
    from ..render import board_palette, render

    if board.palette is None:
        board = dataclasses.replace(board, palette=tuple(board_palette(board)))
    image, layout = render(board)
    geometry = Geometry(layout.board, (0, layout.height))
    model = ReviewModel(board=board)
    return Session(name=name or board.name or "board", image=image, geometry=geometry, model=model, read=board)


# ---------------------------------------------------------------- what the page is sent


def describe(session: Session) -> dict:
    """Everything the page draws: the picture's size, the lattice's cell polygons on it,
    the palette (the phone's order, numbered 1..K as on the command line), the cells with
    their confidence, the warnings, the editing state and the solve."""
    board, geometry = session.board, session.geometry
    polygons = [np.round(geometry.polygon(board, cell), 1).ravel().tolist() for cell in range(board.size)]
    confidence = (
        [1.0] * board.size if session.model.confidence is None else np.round(session.model.confidence, 3).ravel().tolist()
    )
    recognition = session.recognition
    hidden = [] if recognition is None else [r * board.columns + c for r, c in recognition.hidden]
    height, width = session.image.shape[:2]
    out = {
        "id": session.id,
        "name": session.name,
        "image": {"width": width, "height": height},
        "lattice": board.lattice,
        "rows": board.rows,
        "columns": board.columns,
        "par": board.par,
        "rules": board.rules,
        "palette": list(board.palette or ()),
        "labels": [color_label(board, k) for k in range(len(board.palette or ()))],
        "names": color_names(board),
        "read": board_cells(session.read),
        "confidence": confidence,
        "threshold": session.model.threshold,
        "hidden": hidden,
        "polygons": polygons,
        "centres": [list(np.round(geometry.centre(board, cell), 1)) for cell in range(board.size)],
        "swatches": [] if recognition is None else [list(map(int, s)) for s in recognition.layout.swatches],
        "screenshot": recognition is not None,
        "save": None if session.save_to is None else {"name": session.save_to.name},
    }
    out.update(edit_state(session))
    return out


def board_cells(board: Board) -> list[Optional[int]]:
    return list(board.colors())


def edit_state(session: Session) -> dict:
    """The part of :func:`describe` that an edit changes."""
    board = session.board
    edited = set(session.edited_cells())
    result = session.result
    if result is not None and result.board == board and result.doubt is not None:
        uncertain = list(result.doubt.matters)  # solved: only the doubt that would change the moves
    else:
        uncertain = [i for i in range(board.size) if session.model.uncertain(i) and i not in edited]
    return {
        "cells": board_cells(board),
        "edited": sorted(edited),
        "uncertain": uncertain,
        "can_undo": session.model.can_undo,
        "can_redo": session.model.can_redo,
        "dirty": session.model.dirty,
        "warnings": [] if session.recognition is None else [
            notice_to_json(n, board.columns) for n in reading_notices(session.reading())
        ],
        "solved": session.result is not None and session.result.board == board,
    }


def notice_to_json(notice, columns: int) -> dict:
    """A :class:`~kamivision.pipeline.Notice` for the page: cells as cell numbers."""
    out = {"text": notice.text[:1].upper() + notice.text[1:] + ".", "cells": [r * columns + c for r, c in notice.cells]}
    if notice.changes:
        out["changes"] = [[r * columns + c, value] for r, c, value in notice.changes]
    return out


def job_state(session: Session, queue) -> dict:
    """The solve as the page shows it: waiting (and where in the queue), running (bound and
    best so far), or finished with the answer."""
    job = session.job
    if job is None:
        return {"state": "idle"}
    out: dict[str, Any] = {"state": job.state, "job": job.id, "max_seconds": job.max_seconds, "version": job.version}
    if job.state == "queued":
        out["ahead"] = queue.position(job)
    if job.progress:
        out["progress"] = dict(job.progress)
    if job.started_at is not None:
        out["seconds"] = round((job.finished_at or time.monotonic()) - job.started_at, 2)
    if job.error:
        out["error"] = job.error
    if job.finished and session.result is not None and session.result.solution is job.solution:
        out["solution"] = describe_solution(session.result)
    return out


def describe_solution(result: Result) -> dict:
    """The moves, the board before each and after the last (for the step player), the
    region each move taps, the verdict and the warnings with the cells they concern."""

    board, solution = result.board, result.solution
    boards, moves = [board_cells(board)], []
    current = board
    for move in solution.moves:
        cell = move.row * board.columns + move.column
        region = list(bits(region_cells(current, cell)))
        moves.append(
            {
                "row": move.row,
                "column": move.column,
                "cell": cell,
                "color": move.color,
                "label": color_label(board, move.color),
                "region": region,
            }
        )
        current = current.apply(move)
        boards.append(board_cells(current))
    notices = answer_notices(board, solution, result.check)
    if result.doubt is not None:
        notices += doubt_notices(board, result.doubt)
    warnings = [notice_to_json(n, board.columns) for n in notices]
    n, par = solution.length, board.par
    if solution.interrupted:
        what = "You stopped the search"
    elif not solution.optimal:
        what = "The time limit stopped the search"
    else:
        what = None
    return {
        "length": n,
        "optimal": solution.optimal,
        "lower_bound": solution.lower_bound,
        "interrupted": solution.interrupted,
        "stopped": what,
        "seconds": round(solution.seconds, 2),
        "expanded": solution.expanded,
        "regions": solution.regions,
        "verdict": verdict(solution, par, result.doubt, board.columns),
        "summary": None if result.doubt is None else doubt_summary(result.doubt),
        "notes": list(solution.notes),
        "moves": moves,
        "boards": boards,
        "warnings": warnings,
        "board": board_to_dict(board),
    }
