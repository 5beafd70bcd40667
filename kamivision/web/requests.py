"""What an endpoint reads from its request: the body within a limit, the app's settings,
store and queue (on ``request.app.state``), the session named in the path, the client.

Tested in tests/web/test_app.py.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from starlette.exceptions import HTTPException
from starlette.requests import Request

if TYPE_CHECKING:
    from .sessions import Session
    from .settings import Settings

#: The most a JSON request body may hold (bytes).
MAX_JSON = 1_000_000


def refuse(status: int, message: str) -> HTTPException:
    return HTTPException(status_code=status, detail=message)


async def read_body(request: Request, limit: int, too_large: str) -> bytes:
    """The request's body, read in chunks against ``limit`` bytes: a larger one is refused
    (413, ``too_large``) from its Content-Length or at the chunk that passes the limit,
    never held whole."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise refuse(413, too_large)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise refuse(413, too_large)
        chunks.append(chunk)
    return b"".join(chunks)


async def json_body(request: Request) -> dict:
    raw = await read_body(request, MAX_JSON, "request too large")
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise refuse(400, "the request is not valid JSON") from None
    if not isinstance(body, dict):
        raise refuse(400, "the request must be a JSON object")
    return body


def settings_of(request: Request) -> Settings:
    return request.app.state.settings


def store_of(request: Request):
    return request.app.state.store


def jobs_of(request: Request):
    """The job queue, started at the first solve (a page that only reads starts none)."""
    state = request.app.state
    with state.jobs_lock:
        if state.jobs is None:
            state.jobs = state.make_jobs()
        return state.jobs


def session_id(request: Request) -> str:
    return request.path_params["sid"]


def address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def count(request: Request, kind: str, limit: int) -> None:
    if limit > 0:
        store_of(request).count(kind, address(request), limit)


def current(request: Request, session: Session) -> Session:
    """``session`` with its job as the queue sees it now (the store keeps the answer)."""
    if session.job is not None:
        session.job = jobs_of(request).current(session.job)
    return session
