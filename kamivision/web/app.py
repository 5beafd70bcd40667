"""The web app: a JSON API over the sessions and the solve queue, and the page that uses it.

Routes (all answers are JSON, errors ``{"error": "one line"}`` with a 4xx/5xx status):

- ``GET /``: the page; ``/static/...``: its script and style (no other site is used).
- ``GET /api/config``: limits, and the review's session when the app serves a review.
- ``POST /api/sessions``: the request body is a screenshot or a board file (``X-Filename``
  names it); answers the session (:func:`~kamivision.web.views.describe`).
- ``GET|DELETE /api/sessions/{id}``; ``GET /api/sessions/{id}/image``: the picture.
- ``POST /api/sessions/{id}/edit``: ``{"op": "paint", "cells": [...], "color": k|null}``,
  ``{"op": "fill", "cell": n, "color": k|null}``, ``{"op": "undo"}``, ``{"op": "redo"}``.
- ``POST /api/sessions/{id}/solve`` (``{"max_seconds": s}``), ``GET .../solve`` (polling),
  ``GET .../events`` (server-sent events), ``POST .../cancel``.
- ``GET /api/sessions/{id}/board.json | overlay.png | solution.gif``: downloads.
- ``POST /api/sessions/{id}/save`` (``{"overwrite": bool}``): review mode only, to the file
  named on the command line; ``POST /api/quit``: review mode only, ends the server.
- ``POST /share``, ``GET /manifest.webmanifest``, ``GET /static/icon-N.png``: the page on
  a phone's home screen and in its share sheet (:mod:`~kamivision.web.install`); a share
  answers with a redirect to the page, not JSON.

The endpoints are module-level functions that find the settings, the session store and the
job queue on ``request.app.state``: the same endpoints serve the in-memory store and queue
(the default) and Redis's (``Settings.redis``, :mod:`~kamivision.web.redisstore`).  Who may
call them is :mod:`~kamivision.web.security`'s business; what they read from a request is
:mod:`~kamivision.web.requests`'; failures are answered by :mod:`~kamivision.web.handlers`.
Nothing from a request names a path on the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from pathlib import Path
from typing import Optional
from urllib.parse import quote, unquote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import KamiError, OutputExistsError
from . import views
from .handlers import exception_handlers
from .install import icon, manifest, page_address, shared_picture
from .jobs import Job, JobQueue
from .requests import count, current, jobs_of, json_body, read_body, refuse, session_id, settings_of, store_of
from .security import Guard
from .sessions import MemoryStore, NoSession, Session, release_memory, session_from_upload
from .settings import Settings
from .views import describe, edit_state, job_state

log = logging.getLogger("kamivision.web")

STATIC = Path(__file__).parent / "static"


# ---------------------------------------------------------------- pages and config


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


async def config(request: Request) -> Response:
    settings = settings_of(request)
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
    settings = settings_of(request)
    filename = Path(unquote(request.headers.get("x-filename", "upload")) or "upload").name[:200] or "upload"
    await run_in_threadpool(count, request, "uploads", settings.uploads_per_minute)
    data = await read_body(
        request, settings.max_upload, f"{filename}: the file is larger than {settings.max_upload // 1_000_000} MB"
    )
    session = await open_session(request, data, filename)
    return JSONResponse(describe(session), status_code=201)


async def share(request: Request) -> Response:
    """The phone's share sheet (:mod:`.install`): the shared picture opens a session as an
    upload does, and the browser goes on to the page at it (or to the page with the error)."""
    settings = settings_of(request)
    limit = settings.max_upload
    try:
        await run_in_threadpool(count, request, "uploads", settings.uploads_per_minute)
        body = await read_body(request, limit + 100_000, f"the shared file is larger than {limit // 1_000_000} MB")
        data, filename = shared_picture(request.headers.get("content-type", ""), body)
        del body
        if len(data) > limit:
            raise refuse(413, f"{filename}: the file is larger than {limit // 1_000_000} MB")
        session = await open_session(request, data, filename)
    except HTTPException as error:  # the browser was sent here: the page shows the error
        return RedirectResponse(page_address(settings.token, error=str(error.detail)), status_code=303)
    return RedirectResponse(page_address(settings.token, s=session.id), status_code=303)


async def open_session(request: Request, data: bytes, filename: str) -> Session:
    """A new session for an uploaded or shared file, kept in the store: read (at most
    ``readers`` at once), or refused with one line naming the file."""
    if not data:
        raise refuse(400, f"{filename}: the file is empty")
    async with request.app.state.readers:
        try:
            session = await run_in_threadpool(session_from_upload, data, filename)
        except KamiError as error:
            raise refuse(422, str(error)) from None
        finally:
            del data
            await run_in_threadpool(release_memory)
    await run_in_threadpool(store_of(request).add, session)
    return session


def show(request: Request) -> Response:
    session = current(request, store_of(request).get(session_id(request)))
    out = describe(session)
    out["solve"] = job_state(session, jobs_of(request), store_of(request))
    return JSONResponse(out)


def delete(request: Request) -> Response:
    store = store_of(request)
    session = store.get(session_id(request))
    if session.pinned:
        raise refuse(409, "the review's own screenshot stays open until the review ends")
    if session.job is not None and not jobs_of(request).current(session.job).finished:
        jobs_of(request).cancel(session.job)
    store.remove(session.id)
    return JSONResponse({"deleted": session.id})


def image(request: Request) -> Response:
    store = store_of(request)
    session = store.get(session_id(request), picture=True)

    def encode() -> bytes:
        import cv2

        ok, data = cv2.imencode(".jpg", session.image[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
        return data.tobytes()

    picture = store.cached(session, "page.jpg", encode)
    return Response(picture, media_type="image/jpeg", headers={"Cache-Control": "private, max-age=3600"})


async def edit(request: Request) -> Response:
    body = await json_body(request)
    return await run_in_threadpool(_edit, request, body)


def _edit(request: Request, body: dict) -> Response:
    op, color = body.get("op"), body.get("color")
    with store_of(request).change(session_id(request)) as session:
        model = session.model
        try:
            if op == "paint":
                cells = body.get("cells")
                if not isinstance(cells, list) or len(cells) > session.board.size:
                    raise refuse(400, "paint needs cells: a list of cell numbers on the board")
                model.paint(cells, color)
            elif op == "fill":
                model.fill_region(body.get("cell"), color)
            elif op == "undo":
                model.undo()
            elif op == "redo":
                model.redo()
            else:
                raise refuse(400, "op must be paint, fill, undo or redo")
        except ValueError as error:
            raise refuse(400, str(error)) from None
        return JSONResponse(edit_state(session))


# ---------------------------------------------------------------- solving


async def solve(request: Request) -> Response:
    body = await json_body(request)
    return await run_in_threadpool(_solve, request, body)


def _solve(request: Request, body: dict) -> Response:
    settings = settings_of(request)
    seconds = body.get("max_seconds", settings.default_seconds)
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not 1 <= seconds <= settings.max_seconds:
        raise refuse(400, f"max_seconds must be a number from 1 to {settings.max_seconds:g}")
    jobs = jobs_of(request)
    with store_of(request).change(session_id(request)) as session:
        if session.job is not None and not jobs.current(session.job).finished:
            raise refuse(409, "a solve is already running for this board: wait for it or cancel it")
        count(request, "solves", settings.solves_per_minute)
        job = Job(
            session=session.id,
            board=session.board,
            max_seconds=float(seconds),
            recognition=session.reading(),
            check_seconds=settings.check_seconds,
        )
        jobs.submit(job)
        session.job = job
        return JSONResponse(job_state(session, jobs, store_of(request)), status_code=202)


def solve_state(request: Request) -> Response:
    session = current(request, store_of(request).get(session_id(request)))
    return JSONResponse(job_state(session, jobs_of(request), store_of(request)))


def cancel(request: Request) -> Response:
    jobs = jobs_of(request)
    session = current(request, store_of(request).get(session_id(request)))
    if session.job is None or session.job.finished:
        raise refuse(409, "no solve is running for this board")
    jobs.cancel(session.job)
    return JSONResponse(job_state(current(request, session), jobs, store_of(request)))


async def events(request: Request) -> Response:
    """Server-sent events: the solve's state whenever it changes, until it has finished."""
    jobs = jobs_of(request)
    store = store_of(request)
    sid = session_id(request)
    await run_in_threadpool(store.get, sid)  # 404 now, not in the stream

    def look() -> tuple[Optional[Job], dict]:
        session = current(request, store.get(sid))
        return session.job, job_state(session, jobs, store)

    async def stream():
        seen, quiet = None, 0.0
        while True:
            try:
                job, state = await run_in_threadpool(look)
            except NoSession:
                return
            except Exception as error:  # noqa: BLE001 - Redis gone mid-stream: the page falls back to polling, which says why
                log.warning("the event stream of %s ended: %s", sid, error)
                return
            version = None if job is None else (job.id, job.version)
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
    """A download named after ``name``: its letters and digits in any script (RFC 6266's
    ``filename*``, UTF-8), with an ASCII-only ``filename`` for older clients (a header is
    Latin-1: "Снимок экрана" in it answered 500)."""
    kept = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)[:120] or "board"
    ascii_name = "".join(ch if ch.isascii() else "_" for ch in kept)
    disposition = f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(kept, safe='')}"
    return Response(data, media_type=media, headers={"Content-Disposition": disposition})


def board_file(request: Request) -> Response:
    from ..board import dump_board

    session = store_of(request).get(session_id(request))
    return _attachment(dump_board(session.board).encode("utf-8"), "application/json", f"{session.name}.json")


def _solved(request: Request) -> Session:
    """The session with its picture and its answer; 409 before a solve has answered."""
    session = store_of(request).get(session_id(request), picture=True)
    if session.result is None:
        raise refuse(409, "solve the board first")
    return session


def overlay_png(request: Request) -> Response:
    session = _solved(request)
    result = session.result

    def make() -> bytes:
        from ..overlay import draw_solution, png_bytes
        from ..pipeline import ShotSolution

        reading = session.reading()
        if reading is not None:
            import dataclasses

            reading = dataclasses.replace(reading, board=result.board)
            picture = ShotSolution(session.image, reading, result.solution, session.geometry, result.check).overlay()
        else:
            picture = draw_solution(session.image, result.board, result.solution.moves, session.geometry, [], None)
        return png_bytes(picture)

    data = store_of(request).cached(session, f"overlay-{result.job}.png", make)
    return _attachment(data, "image/png", f"{session.name}-solution.png")


def solution_gif(request: Request) -> Response:
    session = _solved(request)
    result = session.result
    if views.step_cells(result) > views.MAX_STEP_CELLS:  # a frame per step, each painting every cell
        raise refuse(
            422,
            f"this answer is too large to animate ({result.board.size:,} cells times {len(result.solution.moves) + 1} "
            f"steps, past {views.MAX_STEP_CELLS:,}): download the overlay and the board file instead",
        )

    def make() -> bytes:
        from ..overlay import gif_bytes, step_frames

        return gif_bytes(step_frames(session.image, result.board, result.solution.moves, session.geometry))

    data = store_of(request).cached(session, f"solution-{result.job}.gif", make)
    return _attachment(data, "image/gif", f"{session.name}-solution.gif")


# ---------------------------------------------------------------- review mode


async def save(request: Request) -> Response:
    body = await json_body(request)
    return await run_in_threadpool(_save, request, body)


def _save(request: Request, body: dict) -> Response:
    overwrite = body.get("overwrite") is True
    with store_of(request).change(session_id(request)) as session:
        if session.save_to is None:
            raise refuse(404, "saving on the server is for 'kamivision review'; download the board file instead")
        try:
            if session.model.needs_overwrite(session.save_to) and not overwrite:
                raise OutputExistsError(f"{session.save_to.name} exists")
            written = session.model.save(session.save_to, overwrite=True)
        except OutputExistsError:
            return JSONResponse(
                {"error": f"{session.save_to.name} exists: replace it?", "exists": True}, status_code=409
            )
        except KamiError as error:
            raise refuse(500, str(error)) from None
    return JSONResponse({"saved": written.name})  # its name: the page has no business with the server's folders


async def quit_(request: Request) -> Response:
    on_quit = settings_of(request).on_quit
    if on_quit is None:
        raise refuse(404, "only 'kamivision review' can be ended from the page")
    on_quit()
    return JSONResponse({"quit": True})


_SID = "/api/sessions/{sid}"
ROUTES = [
    Route("/", index),
    Route("/api/config", config),
    Route("/api/sessions", upload, methods=["POST"]),
    Route(_SID, show),
    Route(_SID, delete, methods=["DELETE"]),
    Route(_SID + "/image", image),
    Route(_SID + "/edit", edit, methods=["POST"]),
    Route(_SID + "/solve", solve, methods=["POST"]),
    Route(_SID + "/solve", solve_state),
    Route(_SID + "/cancel", cancel, methods=["POST"]),
    Route(_SID + "/events", events),
    Route(_SID + "/board.json", board_file),
    Route(_SID + "/overlay.png", overlay_png),
    Route(_SID + "/solution.gif", solution_gif),
    Route(_SID + "/save", save, methods=["POST"]),
    Route("/api/quit", quit_, methods=["POST"]),
    Route("/share", share, methods=["POST"]),
    Route("/manifest.webmanifest", manifest),
    Route("/static/icon-{size:int}.png", icon),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]


def _store_bounds(settings: Settings) -> dict:
    """The bounds the settings give the store; the store's own defaults for the others."""
    bounds = {}
    if settings.max_sessions is not None:
        bounds["max_sessions"] = settings.max_sessions
    if settings.max_store_mb is not None:
        bounds["max_bytes"] = settings.max_store_mb * 1_000_000
    return bounds


def create_app(settings: Optional[Settings] = None, store=None) -> Starlette:
    """The app over ``store`` (by default a :class:`~kamivision.web.sessions.MemoryStore`,
    or Redis's when ``settings.redis`` names one); its queue's worker processes stop when
    the app shuts down."""
    settings = settings or Settings()
    if settings.redis is not None:
        from .redisstore import RedisJobs, RedisStore, connect

        connection = connect(settings.redis)
        if store is None:
            store = RedisStore(connection, **_store_bounds(settings))
        make_jobs = lambda: RedisJobs(connection, max_waiting=settings.max_waiting)  # noqa: E731
    else:
        if store is None:
            store = MemoryStore(**_store_bounds(settings))
        queue = (settings.workers, settings.max_waiting, store.finish, settings.max_memory_mb, settings.max_disk_mb)
        make_jobs = lambda: JobQueue(*queue)  # noqa: E731
    if settings.review is not None:
        store.add(settings.review, pinned=True)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        if app.state.jobs is not None:  # kill the solving processes with the server
            app.state.jobs.close()

    app = Starlette(routes=ROUTES, exception_handlers=exception_handlers(settings.redis is not None), lifespan=lifespan)
    command = "review" if settings.review is not None else "serve"
    app.add_middleware(Guard, token=settings.token, allowed_hosts=settings.allowed_hosts, command=command)
    app.state.settings = settings
    app.state.store = store
    app.state.jobs = None
    app.state.jobs_lock = threading.Lock()
    app.state.make_jobs = make_jobs
    app.state.readers = asyncio.Semaphore(settings.readers)
    return app
