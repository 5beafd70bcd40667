"""The web app: a JSON API over the sessions and the solve queue, and the page that uses it.

Routes (all answers are JSON, errors ``{"error": "one line"}`` with a 4xx/5xx status):

- ``GET /``: the page; ``/static/...``: its script and style (no other site is used).
- ``GET /api/config``: limits, and the review's session when the app serves a review.
- ``POST /api/sessions``: the request body is a screenshot or a board file (``X-Filename``
  names it); answers the session (:func:`~kamivision.web.sessions.describe`).
- ``GET|DELETE /api/sessions/{id}``; ``GET /api/sessions/{id}/image``: the picture.
- ``POST /api/sessions/{id}/edit``: ``{"op": "paint", "cells": [...], "color": k|null}``,
  ``{"op": "fill", "cell": n, "color": k|null}``, ``{"op": "undo"}``, ``{"op": "redo"}``.
- ``POST /api/sessions/{id}/solve`` (``{"max_seconds": s}``), ``GET .../solve`` (polling),
  ``GET .../events`` (server-sent events), ``POST .../cancel``.
- ``GET /api/sessions/{id}/board.json | overlay.png | solution.gif``: downloads.
- ``POST /api/sessions/{id}/save`` (``{"overwrite": bool}``): review mode only, to the file
  named on the command line; ``POST /api/quit``: review mode only, ends the server.

Security: a token, when set, is required on every request but the static files (query
``token=`` or header ``X-Kamivision-Token``); without one (loopback), the Host header must
name the loopback, against DNS rebinding.  Every POST must carry ``X-Kamivision: 1``, a
header another site's page cannot send without the browser asking first (no CSRF).
Nothing from a request names a path on the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional
from urllib.parse import parse_qs, unquote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import KamiError, OutputExistsError
from .jobs import Job, JobQueue, QueueFull
from .sessions import (
    Result,
    Session,
    SessionStore,
    StoreFull,
    describe,
    edit_state,
    job_state,
    release_memory,
    session_from_upload,
)

log = logging.getLogger("kamivision.web")

STATIC = Path(__file__).parent / "static"

#: Sent with every answer: the page runs only its own script, is not framed by another
#: site, and never sends its address (which may carry the token) to another.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data: blob:; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


@dataclass
class Settings:
    """The app's limits; the defaults are what ``kamivision serve`` uses."""

    token: Optional[str] = None  # required on every request when set
    max_upload: int = 20_000_000  # bytes
    default_seconds: float = 30.0  # a solve's time limit unless the page asks for another
    max_seconds: float = 600.0  # the most a page may ask for
    check_seconds: float = 10.0  # the counter check after a solve that missed the counter
    workers: int = 1  # solves run at once (one process each)
    max_waiting: int = 64  # solves waiting at most
    readers: int = 2  # screenshots read at once
    allowed_hosts: tuple[str, ...] = ("127.0.0.1", "localhost", "[::1]")  # without a token
    review: Optional[Session] = None  # review mode: the session to show, with where to save
    on_quit: Optional[Callable[[], None]] = None
    store: SessionStore = field(default_factory=SessionStore)


#: The most a JSON request body may hold (bytes).
MAX_JSON = 1_000_000


def _error(status: int, message: str) -> HTTPException:
    return HTTPException(status_code=status, detail=message)


async def _body(request: Request, limit: int, too_large: str) -> bytes:
    """The request's body, read in chunks against ``limit`` bytes: a larger one is refused
    (413, ``too_large``) from its Content-Length or at the chunk that passes the limit,
    never held whole."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _error(413, too_large)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _error(413, too_large)
        chunks.append(chunk)
    return b"".join(chunks)


class Guard:
    """ASGI middleware: the token (or, without one, a loopback Host) and the POST header."""

    def __init__(self, app, settings: Settings):
        self.app = app
        self.settings = settings

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + SECURITY_HEADERS
            await send(message)

        problem = self._problem(scope)
        if problem is not None:
            status, message = problem
            return await JSONResponse({"error": message}, status_code=status)(scope, receive, send_with_headers)
        return await self.app(scope, receive, send_with_headers)

    def _problem(self, scope) -> Optional[tuple[int, str]]:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        path = scope["path"]
        token = self.settings.token
        if token is None:
            host = headers.get("host", "")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name not in self.settings.allowed_hosts:
                return 403, f"this server answers only at the loopback address, not at {host!r}"
        elif not path.startswith("/static/"):
            given = headers.get("x-kamivision-token") or parse_qs(scope.get("query_string", b"").decode("latin-1")).get(
                "token", [""]
            )[0]
            if not secrets.compare_digest(given.encode(), token.encode()):
                command = "review" if self.settings.review is not None else "serve"
                return 403, f"this server needs the link with its token, as 'kamivision {command}' printed it"
        if scope["method"] in ("POST", "PUT", "DELETE") and headers.get("x-kamivision") != "1":
            return 403, "requests that change anything must come from kamivision's page (X-Kamivision header)"
        return None


def create_app(settings: Optional[Settings] = None) -> Starlette:
    """The app; its queue's worker processes stop when the app shuts down."""
    settings = settings or Settings()
    store = settings.store
    queue: Optional[JobQueue] = None
    readers = asyncio.Semaphore(settings.readers)

    def jobs() -> JobQueue:
        nonlocal queue
        if queue is None:
            queue = JobQueue(workers=settings.workers, max_waiting=settings.max_waiting)
        return queue

    if settings.review is not None:
        store.add(settings.review, pinned=True)

    def session_of(request: Request) -> Session:
        session = store.get(request.path_params["sid"])
        if session is None:
            raise _error(404, "unknown session (it may have expired): open the screenshot again")
        return session

    async def json_body(request: Request) -> dict:
        raw = await _body(request, MAX_JSON, "request too large")
        try:
            body = json.loads(raw or b"{}")
        except (ValueError, RecursionError):
            raise _error(400, "the request is not valid JSON") from None
        if not isinstance(body, dict):
            raise _error(400, "the request must be a JSON object")
        return body

    # ---------------------------------------------------------------- pages and config

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def config(request: Request) -> Response:
        return JSONResponse(
            {
                "max_upload": settings.max_upload,
                "default_seconds": settings.default_seconds,
                "max_seconds": settings.max_seconds,
                "review": None if settings.review is None else settings.review.id,
            }
        )

    # ---------------------------------------------------------------- sessions

    async def upload(request: Request) -> Response:
        filename = Path(unquote(request.headers.get("x-filename", "upload")) or "upload").name[:200] or "upload"
        data = await _body(request, settings.max_upload, f"{filename}: the file is larger than {settings.max_upload // 1_000_000} MB")
        if not data:
            raise _error(400, f"{filename}: the file is empty")
        async with readers:
            try:
                session = await run_in_threadpool(session_from_upload, data, filename)
            except KamiError as error:
                raise _error(422, str(error)) from None
            finally:
                del data
                await run_in_threadpool(release_memory)
        try:
            store.add(session)
        except StoreFull as error:
            raise _error(503, str(error)) from None
        return JSONResponse(describe(session), status_code=201)

    async def show(request: Request) -> Response:
        session = session_of(request)
        with session.lock:
            out = describe(session)
            out["solve"] = job_state(session, jobs())
        return JSONResponse(out)

    async def delete(request: Request) -> Response:
        session = session_of(request)
        if session.pinned:
            raise _error(409, "the review's own screenshot stays open until the review ends")
        if session.job is not None and not session.job.finished:
            jobs().cancel(session.job)
        store.remove(session.id)
        return JSONResponse({"deleted": session.id})

    async def image(request: Request) -> Response:
        session = session_of(request)

        def encode() -> bytes:
            with session.lock:
                if session.jpeg is None:
                    import cv2

                    ok, data = cv2.imencode(
                        ".jpg", session.image[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90]
                    )
                    session.jpeg = data.tobytes()
                return session.jpeg

        return Response(await run_in_threadpool(encode), media_type="image/jpeg", headers={"Cache-Control": "private, max-age=3600"})

    async def edit(request: Request) -> Response:
        session = session_of(request)
        body = await json_body(request)
        op = body.get("op")
        model = session.model
        color = body.get("color")
        with session.lock:
            try:
                if op == "paint":
                    cells = body.get("cells")
                    if not isinstance(cells, list) or len(cells) > session.board.size:
                        raise _error(400, "paint needs cells: a list of cell numbers on the board")
                    model.paint(cells, color)
                elif op == "fill":
                    model.fill_region(body.get("cell"), color)
                elif op == "undo":
                    model.undo()
                elif op == "redo":
                    model.redo()
                else:
                    raise _error(400, "op must be paint, fill, undo or redo")
            except ValueError as error:
                raise _error(400, str(error)) from None
            return JSONResponse(edit_state(session))

    # ---------------------------------------------------------------- solving

    async def solve(request: Request) -> Response:
        session = session_of(request)
        body = await json_body(request)
        seconds = body.get("max_seconds", settings.default_seconds)
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not 1 <= seconds <= settings.max_seconds:
            raise _error(400, f"max_seconds must be a number from 1 to {settings.max_seconds:g}")
        with session.lock:
            if session.job is not None and not session.job.finished:
                raise _error(409, "a solve is already running for this board: wait for it or cancel it")
            board = session.board
            reading = session.reading() if session.recognition is not None else None
            job = Job(
                session=session.id,
                board=board,
                max_seconds=float(seconds),
                recognition=reading,
                check_seconds=settings.check_seconds,
            )
            try:
                jobs().submit(job)
            except QueueFull as error:
                raise _error(503, str(error)) from None
            session.job = job
            return JSONResponse(_solve_state(session), status_code=202)

    def _solve_state(session: Session) -> dict:
        """The job's state; a job just finished gives the session its result."""
        job = session.job
        if job is not None and job.state == "done" and job.solution is not None:
            if session.result is None or session.result.solution is not job.solution:
                session.result = Result(board=job.board, solution=job.solution, check=job.check, doubt=job.doubt)
        return job_state(session, jobs())

    async def solve_state(request: Request) -> Response:
        session = session_of(request)
        with session.lock:
            return JSONResponse(_solve_state(session))

    async def cancel(request: Request) -> Response:
        session = session_of(request)
        job = session.job
        if job is None or job.finished:
            raise _error(409, "no solve is running for this board")
        jobs().cancel(job)
        with session.lock:
            return JSONResponse(_solve_state(session))

    async def events(request: Request) -> Response:
        session = session_of(request)

        async def stream():
            seen, quiet = -1, 0.0
            while True:
                with session.lock:
                    job = session.job
                    version = -1 if job is None else job.version
                    if version != seen:
                        state = _solve_state(session)
                if version != seen:
                    seen = version
                    quiet = 0.0
                    yield f"data: {json.dumps(state)}\n\n"
                    if job is None or job.finished:
                        return
                elif quiet >= 15:
                    quiet = 0.0
                    yield ": still here\n\n"
                if await request.is_disconnected():
                    return
                await asyncio.sleep(0.2)
                quiet += 0.2

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        )

    # ---------------------------------------------------------------- downloads

    def _attachment(data: bytes, media: str, name: str) -> Response:
        safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)[:120] or "board"
        return Response(data, media_type=media, headers={"Content-Disposition": f'attachment; filename="{safe}"'})

    async def board_file(request: Request) -> Response:
        from ..board import dump_board

        session = session_of(request)
        with session.lock:
            text = dump_board(session.board)
        return _attachment(text.encode("utf-8"), "application/json", f"{session.name}.json")

    def _solved(session: Session) -> Result:
        with session.lock:
            _solve_state(session)
            if session.result is None:
                raise _error(409, "solve the board first")
            return session.result

    def _shot(session: Session, result: Result):
        from ..pipeline import ShotSolution

        reading = session.reading()
        if reading is not None:
            import dataclasses

            reading = dataclasses.replace(reading, board=result.board)
            return ShotSolution(session.image, reading, result.solution, session.geometry, result.check)
        return None

    async def overlay_png(request: Request) -> Response:
        session = session_of(request)
        result = _solved(session)

        def make() -> bytes:
            if "overlay.png" not in result.files:
                from ..overlay import draw_solution, png_bytes

                shot = _shot(session, result)
                if shot is not None:
                    picture = shot.overlay()
                else:
                    picture = draw_solution(session.image, result.board, result.solution.moves, session.geometry, [], None)
                result.files["overlay.png"] = png_bytes(picture)
            return result.files["overlay.png"]

        return _attachment(await run_in_threadpool(make), "image/png", f"{session.name}-solution.png")

    async def solution_gif(request: Request) -> Response:
        session = session_of(request)
        result = _solved(session)

        def make() -> bytes:
            if "solution.gif" not in result.files:
                from ..overlay import gif_bytes, step_frames

                frames = step_frames(session.image, result.board, result.solution.moves, session.geometry)
                result.files["solution.gif"] = gif_bytes(frames)
            return result.files["solution.gif"]

        return _attachment(await run_in_threadpool(make), "image/gif", f"{session.name}-solution.gif")

    # ---------------------------------------------------------------- review mode

    async def save(request: Request) -> Response:
        session = session_of(request)
        if session.save_to is None:
            raise _error(404, "saving on the server is for 'kamivision review'; download the board file instead")
        body = await json_body(request)
        overwrite = body.get("overwrite") is True
        with session.lock:
            try:
                if session.model.needs_overwrite(session.save_to) and not overwrite:
                    raise OutputExistsError(f"{session.save_to.name} exists")
                written = session.model.save(session.save_to, overwrite=True)
            except OutputExistsError:
                return JSONResponse(
                    {"error": f"{session.save_to.name} exists: replace it?", "exists": True}, status_code=409
                )
            except KamiError as error:
                raise _error(500, str(error)) from None
        return JSONResponse({"saved": written.name})  # its name: the page has no business with the server's folders

    async def quit_(request: Request) -> Response:
        if settings.on_quit is None:
            raise _error(404, "only 'kamivision review' can be ended from the page")
        settings.on_quit()
        return JSONResponse({"quit": True})

    # ---------------------------------------------------------------- errors

    async def http_error(request: Request, error: HTTPException) -> Response:
        return JSONResponse({"error": error.detail}, status_code=error.status_code)

    async def client_gone(request: Request, error: ClientDisconnect) -> Response:
        # Nobody is left to answer: one line in the log, not a traceback.
        log.warning("%s %s: the client went away before sending the whole request", request.method, request.url.path)
        return Response(status_code=400)

    async def internal_error(request: Request, error: Exception) -> Response:
        log.exception("request %s %s failed", request.method, request.url.path)
        return JSONResponse({"error": f"the server failed ({type(error).__name__}); its log has the details"}, status_code=500)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        if queue is not None:  # kill the solving processes with the server
            queue.close()

    sid = "/api/sessions/{sid}"
    routes = [
        Route("/", index),
        Route("/api/config", config),
        Route("/api/sessions", upload, methods=["POST"]),
        Route(sid, show),
        Route(sid, delete, methods=["DELETE"]),
        Route(sid + "/image", image),
        Route(sid + "/edit", edit, methods=["POST"]),
        Route(sid + "/solve", solve, methods=["POST"]),
        Route(sid + "/solve", solve_state),
        Route(sid + "/cancel", cancel, methods=["POST"]),
        Route(sid + "/events", events),
        Route(sid + "/board.json", board_file),
        Route(sid + "/overlay.png", overlay_png),
        Route(sid + "/solution.gif", solution_gif),
        Route(sid + "/save", save, methods=["POST"]),
        Route("/api/quit", quit_, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: http_error, ClientDisconnect: client_gone, Exception: internal_error},
        lifespan=lifespan,
    )
    app.add_middleware(Guard, settings=settings)
    app.state.settings = settings
    app.state.jobs = jobs
    return app
