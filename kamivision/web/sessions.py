"""The web app's sessions: one screenshot (or board file) each, and the store that holds them.

A session is what one page works on: the picture, the board as read, the
:class:`~kamivision.review.ReviewModel` that the page's edits go through (so undo, fill and
saving behave exactly as the library's), its solve job and last answer.

Two stores keep them, with one interface that the app uses (:class:`SessionStore`):

- :class:`MemoryStore`, the default: this process's memory, at most
  :attr:`~MemoryStore.max_sessions` sessions and :attr:`~MemoryStore.max_bytes` of
  pictures, idle ones dropped first, every session forgotten after
  :attr:`~MemoryStore.idle_seconds` without a request.  Nothing is written to disk.
- :class:`kamivision.web.redisstore.RedisStore`, for ``serve --redis``: the same limits,
  held in Redis, so that any number of web processes serve the same players.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Protocol

import numpy as np

from ..board import Board
from ..geometry import Geometry
from ..review import ReviewModel
from .jobs import Job


class StoreFull(Exception):
    """No room for another session."""


class NoSession(LookupError):
    """The session asked for is not (or no longer) in the store."""


class RateLimited(Exception):
    """A client address made more requests of one kind this minute than it may."""

    def __init__(self, kind: str, limit: int):
        super().__init__(f"more than {limit} {kind} a minute from your address: try again in a minute")
        self.retry_after = 60 - int(time.time() % 60)  # the count starts again on the minute


@dataclass
class Result:
    """A finished solve: the board it was for and what the solver (and the check) said."""

    board: Board
    solution: Any  # kamivision.solver.Solution
    check: Any = None  # kamivision.check.parcheck.CounterCheck
    doubt: Any = None  # kamivision.check.doubt.Doubt (None: a board file)
    job: Any = None  # the id of the job that found it


@dataclass
class Session:
    """One picture and the board on it, being reviewed and solved from a page."""

    name: str
    image: Optional[np.ndarray]  # None in a session loaded without its picture (RedisStore.get)
    geometry: Geometry
    model: ReviewModel
    read: Board  # the board as read (the model's board changes with the edits)
    recognition: Any = None  # kamivision.vision.Recognition; None for a board file
    save_to: Optional[Path] = None  # review mode: where "save" writes (chosen on the command line)
    id: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    touched: float = field(default_factory=time.time)
    job: Optional[Job] = None
    result: Optional[Result] = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    files: dict = field(default_factory=dict)  # name -> bytes made from it: the page's JPEG, overlay.png, ...
    pinned: bool = False  # the review's own session: never dropped
    size: tuple[int, int] = (0, 0)  # the picture's (height, width)

    def __post_init__(self) -> None:
        if self.image is not None:
            self.size = tuple(self.image.shape[:2])

    @property
    def nbytes(self) -> int:
        return (0 if self.image is None else self.image.nbytes) + sum(len(v) for v in self.files.values())

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


class SessionStore(Protocol):
    """What the app needs of a store (:class:`MemoryStore`, or
    :class:`~kamivision.web.redisstore.RedisStore`)."""

    def get(self, session_id: str, picture: bool = False) -> Session:
        """The session (its picture loaded too when ``picture``); :class:`NoSession` if gone."""

    def change(self, session_id: str) -> contextlib.AbstractContextManager[Session]:
        """The session, held alone for a change that is kept when the block ends."""

    def add(self, session: Session, pinned: bool = False) -> Session: ...

    def remove(self, session_id: str) -> None: ...

    def cached(self, session: Session, name: str, make: Callable[[], bytes]) -> bytes:
        """``make()``, kept with the session under ``name`` for the next request."""

    def count(self, kind: str, address: str, limit: int) -> None:
        """Count a request of ``kind`` from ``address``: :class:`RateLimited` past ``limit`` a minute."""


def busy(session: Session) -> bool:
    return session.job is not None and not session.job.finished


class MemoryStore:
    """The sessions in this process's memory, bounded in number, bytes and idle time."""

    def __init__(self, max_sessions: int = 64, max_bytes: int = 1_500_000_000, idle_seconds: float = 3600.0):
        self.max_sessions = max_sessions
        self.max_bytes = max_bytes
        self.idle_seconds = idle_seconds
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self._counts: dict[tuple[str, str, int], int] = {}

    def __len__(self) -> int:
        return len(self._sessions)

    @property
    def nbytes(self) -> int:
        with self._lock:
            return sum(s.nbytes for s in self._sessions.values())

    def get(self, session_id: str, picture: bool = False) -> Session:
        with self._lock:
            session = self._sessions.get(session_id)
            if session is None:
                raise NoSession(session_id)
            session.touched = time.time()
            return session

    @contextlib.contextmanager
    def change(self, session_id: str) -> Iterator[Session]:
        session = self.get(session_id)
        with session.lock:
            yield session

    def add(self, session: Session, pinned: bool = False) -> Session:
        """Keep ``session``, dropping expired and then least recently used idle sessions to
        make room; :class:`StoreFull` when the busy ones alone fill the store."""
        with self._lock:
            self._expire(time.time())
            idle = sorted(
                (s for s in self._sessions.values() if not busy(s) and not s.pinned),
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

    def remove(self, session_id: str) -> None:
        with self._lock:
            self._sessions.pop(session_id, None)

    def cached(self, session: Session, name: str, make: Callable[[], bytes]) -> bytes:
        with session.lock:
            if name not in session.files:
                session.files[name] = make()
            return session.files[name]

    def count(self, kind: str, address: str, limit: int) -> None:
        minute = int(time.time() // 60)
        with self._lock:
            self._counts = {k: v for k, v in self._counts.items() if k[2] == minute}
            key = (kind, address, minute)
            self._counts[key] = self._counts.get(key, 0) + 1
            if self._counts[key] > limit:
                raise RateLimited(kind, limit)

    def finish(self, job: Job) -> None:
        """A solve ended (called by the job queue): its answer goes into its session.

        It is called with the queue's lock held, so it takes no other lock (the app takes
        a session's lock and then the queue's): one assignment, atomic in Python."""
        session = self._sessions.get(job.session)
        if session is not None and job.solution is not None and session.job is job:
            session.result = Result(
                board=job.board, solution=job.solution, check=job.check, doubt=job.doubt, job=job.id
            )

    def _expire(self, now: float) -> None:
        for key, session in list(self._sessions.items()):
            if now - session.touched > self.idle_seconds and not busy(session) and not session.pinned:
                del self._sessions[key]


# ---------------------------------------------------------------- opening a session


#: The most a board file's unknown fields may hold on the page (bytes of JSON).
MAX_EXTRA = 64_000


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
        from ..formats import PUZZLES

        if isinstance(obj, dict) and obj.get("format") in PUZZLES:
            raise BoardFileError(
                f"{filename}: {obj['format']} boards are solved with 'kamivision solve FILE', not on this page"
            )
        board = board_from_dict(obj, filename)
        del obj, text
        # Fields the format does not name are kept (the board file downloads with them),
        # within a bound: the store's limits count pictures, and megabytes of nested
        # lists in one such field took hundreds of megabytes of memory per session.
        extra = len(json.dumps(board.extra, separators=(",", ":"))) if board.extra else 0
        if extra > MAX_EXTRA:
            raise BoardFileError(
                f"{filename}: fields the board format does not name hold {extra:,} bytes; the page keeps at most {MAX_EXTRA:,}"
            )
        return session_from_board(board, stem)
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
    from ..synth.render import board_palette, render

    if board.palette is None:
        board = dataclasses.replace(board, palette=tuple(board_palette(board)))
    image, layout = render(board)
    geometry = Geometry(layout.board, (0, layout.height))
    model = ReviewModel(board=board)
    return Session(name=name or board.name or "board", image=image, geometry=geometry, model=model, read=board)


def session_from_review(review, name: str) -> Session:
    """A session over a :class:`~kamivision.review.session.ReviewSession` (``kamivision
    review``): its picture, reading and board, saved to the review's output."""
    return Session(
        name=name,
        image=review.image,
        geometry=review.geometry,
        model=review.model,
        read=review.model.board,
        recognition=review.recognition,
        save_to=review.output,
    )
