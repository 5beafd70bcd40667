"""How a failure is answered: one JSON line ``{"error": ...}`` with its status, never a
traceback; the log gets the details.

Tested in tests/web/test_app.py.
"""

from __future__ import annotations

import logging

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from .jobs import QueueFull
from .sessions import NoSession, RateLimited, StoreFull

log = logging.getLogger("kamivision.web")


async def http_error(request: Request, error: HTTPException) -> Response:
    return JSONResponse({"error": error.detail}, status_code=error.status_code)


async def no_session(request: Request, error: NoSession) -> Response:
    return JSONResponse({"error": "unknown session (it may have expired): open the screenshot again"}, status_code=404)


async def unavailable(request: Request, error: Exception) -> Response:
    return JSONResponse({"error": str(error)}, status_code=503)


async def rate_limited(request: Request, error: RateLimited) -> Response:
    return JSONResponse({"error": str(error)}, status_code=429, headers={"Retry-After": str(error.retry_after)})


async def store_down(request: Request, error: Exception) -> Response:
    log.warning("%s %s: Redis did not answer: %s", request.method, request.url.path, error)
    return JSONResponse(
        {"error": "the server's store (Redis) is not answering: try again in a minute"}, status_code=503
    )


async def client_gone(request: Request, error: ClientDisconnect) -> Response:
    # Nobody is left to answer: one line in the log, not a traceback.
    log.warning("%s %s: the client went away before sending the whole request", request.method, request.url.path)
    return Response(status_code=400)


async def internal_error(request: Request, error: Exception) -> Response:
    log.exception("request %s %s failed", request.method, request.url.path)
    return JSONResponse(
        {"error": f"the server failed ({type(error).__name__}); its log has the details"}, status_code=500
    )


def exception_handlers(redis: bool) -> dict:
    """The app's handlers, by exception; with ``redis``, Redis's failures too."""
    handlers = {
        HTTPException: http_error,
        NoSession: no_session,
        StoreFull: unavailable,
        QueueFull: unavailable,
        RateLimited: rate_limited,
        ClientDisconnect: client_gone,
        Exception: internal_error,
    }
    if redis:
        from redis.exceptions import RedisError

        from .redisstore import Busy

        handlers[RedisError] = store_down
        handlers[Busy] = unavailable
    return handlers
