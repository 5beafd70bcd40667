"""Who may use the app: the token (or, without one, a loopback Host), and the page header.

A token, when set, is required on every request but the static files (query ``token=`` or
header ``X-Kamivision-Token``); without one (a server on the loopback only), the Host
header must name the loopback, against DNS rebinding.  Every request that changes anything
must carry ``X-Kamivision: 1``, a header another site's page cannot send without the
browser asking first (no CSRF); the share sheet's ``POST /share``, which cannot, needs
instead a ``Sec-Fetch-Site`` of ``none`` or ``same-origin`` (the browser's word that no
other site's page sent it).  Every answer carries :data:`SECURITY_HEADERS`.

Tested in tests/web/test_app.py, tests/web/test_install.py.
"""

from __future__ import annotations

import secrets
from typing import Optional
from urllib.parse import parse_qs

from starlette.responses import JSONResponse

#: Sent with every answer: the page runs only its own script, is not framed by another
#: site, and never sends its address (which may carry the token) to another.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data: blob:; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class Guard:
    """ASGI middleware: the token (or, without one, a loopback Host) and the page header.

    ``token``: required when set; ``allowed_hosts``: the Host names served without one;
    ``command``: the command that printed the link, for the message."""

    def __init__(self, app, token: Optional[str], allowed_hosts: tuple[str, ...], command: str = "serve"):
        self.app = app
        self.token = token
        self.allowed_hosts = allowed_hosts
        self.command = command

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
        if self.token is None:
            host = headers.get("host", "")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name not in self.allowed_hosts:
                return 403, f"this server answers only at the loopback address, not at {host!r}"
        elif not path.startswith("/static/"):
            given = (
                headers.get("x-kamivision-token")
                or parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [""])[0]
            )
            if not secrets.compare_digest(given.encode(), self.token.encode()):
                return 403, f"this server needs the link with its token, as 'kamivision {self.command}' printed it"
        if scope["method"] in ("POST", "PUT", "DELETE") and headers.get("x-kamivision") != "1":
            # The share sheet's POST cannot carry the header: it may come without it when
            # the browser says it was not sent by another site's page.
            if not (path == "/share" and headers.get("sec-fetch-site", "none") in ("none", "same-origin")):
                return 403, "requests that change anything must come from kamivision's page (X-Kamivision header)"
        return None
