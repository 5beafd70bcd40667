"""Running the web app: ``kamivision serve`` and ``kamivision review``.

The socket is bound here, before uvicorn starts, so that a port in use is one clear line
and a port of 0 (any free port, as ``review`` uses) is known before the URL is printed.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import secrets
import socket
import threading
import time
from pathlib import Path
from typing import Callable, Optional

from ..errors import KamiError
from ..files import check_input
from .app import create_app
from .protocol import BoundedH11Protocol, raise_open_files
from .settings import Settings


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_addresses() -> list[str]:
    """This computer's address on its network, as a phone on the same network reaches it
    (the source address of a route outward; no packet is sent)."""
    out = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        out.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    return [a for a in out if not a.startswith("127.")] or ["THIS-COMPUTER'S-ADDRESS"]


def _check_certificate(certificate: Path, key: Path) -> None:
    """One clear line when the pair cannot be loaded (not PEM, or the key does not match)."""
    import ssl

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(str(certificate), str(key))
    except (ssl.SSLError, OSError) as error:
        reason = getattr(error, "reason", None) or str(error).split("]")[-1].strip() or type(error).__name__
        raise KamiError(f"{certificate}, {key}: not a certificate and its key in PEM ({reason})") from None


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as error:
        sock.close()
        reason = error.strerror or str(error)
        raise KamiError(f"cannot listen on {host}:{port}: {reason}") from None
    sock.listen(128)  # connections wait in the backlog until uvicorn takes them: the URL works once printed
    sock.set_inheritable(True)
    return sock


def run(
    host: str,
    port: int,
    settings: Optional[Settings] = None,
    open_browser: bool = False,
    announce: Callable[[str], None] = print,
    token: Optional[str] = None,
    certificate: Optional[tuple[Path, Path]] = None,
) -> None:
    """Serve until Ctrl-C (or, for a review, until the page's Finish).  A host other than
    the loopback gets a random token that every request must carry.  ``certificate``:
    (certificate file, key file) in PEM, to serve HTTPS."""
    import uvicorn

    if certificate is not None:
        for path in certificate:
            check_input(path)
        _check_certificate(*certificate)
    settings = settings or Settings()
    token = token or settings.token
    if token is None and not is_loopback(host):
        token = secrets.token_urlsafe(18)
    stopping: list = []  # the server, once made: a review's Finish stops it
    if settings.review is not None and settings.on_quit is None:
        settings = dataclasses.replace(settings, on_quit=lambda: setattr(stopping[0], "should_exit", True))
    settings = dataclasses.replace(settings, token=token)
    sock = bind(host, port)
    port = sock.getsockname()[1]
    app = create_app(settings)
    tls = {} if certificate is None else {"ssl_certfile": str(certificate[0]), "ssl_keyfile": str(certificate[1])}
    BoundedH11Protocol.limit = max(64, min(4096, raise_open_files() - 64))  # descriptors left for files
    config = uvicorn.Config(
        app, http=BoundedH11Protocol, log_level="warning", access_log=False, timeout_graceful_shutdown=3, **tls
    )
    server = uvicorn.Server(config)
    stopping.append(server)
    query = f"?token={token}" if token else ""
    scheme = "https" if certificate is not None else "http"
    wildcard = host in ("0.0.0.0", "::", "")
    shown_host = "127.0.0.1" if host == "localhost" or wildcard else host
    local = f"{scheme}://{'[' + shown_host + ']' if ':' in shown_host else shown_host}:{port}/{query}"
    if is_loopback(host):
        announce(f"kamivision is at {local}")
    else:
        announce(
            f"WARNING: kamivision is listening on {host}:{port}, open to the network: anyone with the link "
            "below can use it (and this computer's processors) while it runs"
            + ("." if certificate else "; without --cert, screenshots and the link travel unencrypted.")
        )
        names = lan_addresses() if wildcard else [host]
        for name in names:
            shown = f"[{name}]" if ":" in name else name
            announce(f"Open on your phone (same network): {scheme}://{shown}:{port}/{query}")
    announce("Press Ctrl-C to stop.")
    if open_browser:

        def opener() -> None:
            for _ in range(100):
                if server.started:
                    break
                time.sleep(0.05)
            import webbrowser

            if not webbrowser.open(local):
                announce(f"no browser could be started: open {local} yourself")

        threading.Thread(target=opener, daemon=True).start()
    server.run(sockets=[sock])
