"""The page as an app on a phone's home screen: the web app manifest, its icons, and the
share target (the phone's share sheet sends a screenshot straight to the page).

- ``GET /manifest.webmanifest``: the manifest (``display: standalone``, so "Add to Home
  Screen" opens the page without the browser's bars), with the server's token in its
  addresses when it has one (the page links it with the token).
- ``GET /static/icon-{192,512}.png``: the icons, drawn once per process: paper triangles
  in four KAMI colors.
- ``POST /share`` (in :mod:`.app`): the Web Share Target (``multipart/form-data``, the
  picture in ``image``, read by :func:`shared_picture`).  The picture opens a session
  exactly as an upload does, and the browser is sent on to the page at that session
  (:func:`page_address`); an error is sent on to the page to show.  The share
  sheet cannot send the page's ``X-Kamivision`` header, so :class:`~.security.Guard` lets
  this one request through without it when the browser says it did not come from another
  site (``Sec-Fetch-Site``), or, with a token, when it carries the token.

Browsers offer to install the page and list it in the share sheet only over HTTPS (or on
the loopback): behind a proxy with a certificate, as ``docs/deploy.md`` says.
"""

from __future__ import annotations

from email.parser import BytesParser
from email.policy import HTTP
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlencode

import cv2
import numpy as np
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .requests import refuse, settings_of

#: The form field the share target's picture comes in (named in the manifest).
SHARED_FIELD = "image"
#: Icon sizes in the manifest (Chromium asks for 192 and 512 to install).
ICON_SIZES = (192, 512)


def _with_token(path: str, token: str | None) -> str:
    return path + ("?" + urlencode({"token": token}) if token else "")


def page_address(token: str | None, **place: str) -> str:
    """The page's address, with the token when the server has one and ``place`` in the
    fragment (``s`` a session, ``error`` a message), as the page reads it."""
    return _with_token("/", token) + ("#" + urlencode(place) if place else "")


def manifest(request: Request) -> Response:
    token = settings_of(request).token
    body = {
        "name": "kamivision: KAMI puzzles solved from a screenshot",
        "short_name": "kamivision",
        "description": "Open a KAMI screenshot: the board read, the fewest moves proven, shown move by move.",
        "start_url": page_address(token),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f3efe6",
        "theme_color": "#1f6f8b",
        "icons": [
            {"src": f"/static/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"}
            for size in ICON_SIZES
        ],
        "share_target": {
            "action": _with_token("/share", token),
            "method": "POST",
            "enctype": "multipart/form-data",
            "params": {"files": [{"name": SHARED_FIELD, "accept": ["image/*", ".json", "application/json"]}]},
        },
    }
    return JSONResponse(body, media_type="application/manifest+json", headers={"Cache-Control": "no-store"})


@lru_cache(maxsize=len(ICON_SIZES))
def icon_png(size: int) -> bytes:
    """A square of paper triangles in four KAMI colors, ``size`` pixels wide, as PNG."""
    colors = [(0x2B, 0x5F, 0x75), (0xE8, 0xC9, 0x6A), (0xC8, 0x4B, 0x4B), (0xF3, 0xEF, 0xE6)]
    pattern = ((0, 0, 1, 1), (0, 2, 2, 1), (3, 2, 2, 0), (3, 3, 0, 0))  # a color per triangle, by row
    scale = 8  # drawn larger, then shrunk: smooth edges
    side = size * scale
    image = np.zeros((side, side, 3), np.uint8)
    step = side / 4
    for row, colors_in_row in enumerate(pattern):
        top, bottom = row * step, (row + 1) * step
        for k, color in enumerate(colors_in_row):
            # Triangles pointing up and down in turn, as KAMI's lattice (turned a quarter).
            left = (k - 1) * step
            if (row + k) % 2 == 0:
                points = [(left, bottom), (left + 2 * step, bottom), (left + step, top)]
            else:
                points = [(left, top), (left + 2 * step, top), (left + step, bottom)]
            cv2.fillPoly(image, [np.round(np.array(points)).astype(np.int32)], colors[color][::-1], cv2.LINE_8)
    image = cv2.resize(image, (size, size), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".png", image)
    assert ok
    return data.tobytes()


def icon(request: Request) -> Response:
    size = request.path_params["size"]
    if size not in ICON_SIZES:
        raise refuse(404, f"no icon of {size} pixels")
    return Response(icon_png(size), media_type="image/png", headers={"Cache-Control": "public, max-age=86400"})


def shared_picture(content_type: str, body: bytes) -> tuple[bytes, str]:
    """The picture and its file name in a share target's ``multipart/form-data`` body
    (parsed by the standard library's MIME parser, in memory)."""
    if not content_type.lower().startswith("multipart/form-data"):
        raise refuse(400, f"a share comes as multipart/form-data with the picture in '{SHARED_FIELD}'")
    head = b"Content-Type: " + content_type.encode("latin-1", "replace") + b"\r\n\r\n"
    message = BytesParser(policy=HTTP).parsebytes(head + body)
    if message.is_multipart():
        for part in message.iter_parts():
            if part.get_param("name", header="content-disposition") == SHARED_FIELD:
                name = Path(part.get_filename() or "shared").name[:200] or "shared"
                return part.get_payload(decode=True) or b"", name
    raise refuse(400, f"the share holds no picture (no '{SHARED_FIELD}' field)")
