"""The web app's settings: frozen, given once, apart from the store and the queue."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional

if TYPE_CHECKING:
    from .sessions import Session


@dataclass(frozen=True)
class Settings:
    """The app's limits; the defaults are what ``kamivision serve`` uses."""

    token: Optional[str] = None  # required on every request when set
    max_upload: int = 20_000_000  # bytes
    default_seconds: float = 30.0  # a solve's time limit unless the page asks for another
    max_seconds: float = 600.0  # the most a page may ask for
    check_seconds: float = 10.0  # the counter check after a solve that missed the counter
    workers: int = 1  # solves run at once (one process each); with redis, the workers' business
    max_waiting: int = 64  # solves waiting at most (across every web process, with redis)
    max_sessions: Optional[int] = None  # sessions held at most (None: the store's default)
    max_store_mb: Optional[int] = None  # their pictures' megabytes at most (None: the store's default)
    readers: int = 2  # screenshots read at once (in this process)
    max_memory_mb: Optional[int] = None  # the solves' stored states, in all (None: 60 % of what is free)
    max_disk_mb: Optional[int] = None  # disk for them, in all (None: half of what TMPDIR has free; 0: none)
    allowed_hosts: tuple[str, ...] = ("127.0.0.1", "localhost", "[::1]")  # without a token
    review: Optional[Session] = None  # review mode: the session to show, with where to save
    on_quit: Optional[Callable[[], None]] = None
    redis: Optional[str] = None  # a Redis URL: sessions and solves there (serve --redis)
    uploads_per_minute: int = 0  # from one client address; 0: no limit
    solves_per_minute: int = 0  # from one client address; 0: no limit
