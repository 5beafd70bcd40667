"""The HTTP connection, bounded: uvicorn's h11 protocol with limits on idle connections.

uvicorn closes a kept-alive connection after a response, but a connection that never sends
a whole request is held forever, and each one holds a file descriptor: a thousand idle
sockets leave the server unable to accept anyone ("Too many open files").  Here:

* a connection must send a request's headers within :data:`HEADER_SECONDS` of opening (or
  of its last answer), or it is closed;
* a connection that is not in the middle of a request is *idle*; when a client address
  holds :data:`PER_CLIENT` connections, or the server :attr:`BoundedH11Protocol.limit`,
  the oldest idle one is closed to make room for the newcomer.  A request being answered
  is never cut: a flood of idle or slow sockets costs only other idle sockets.  The
  loopback has no per-address limit: it is where a reverse proxy on the same host (as
  ``docs/deploy.md`` sets up) carries every player's connections, and it limits its own;
* uvicorn's own answers to malformed requests carry the app's security headers.

Tested in tests/web/test_server.py.
"""

from __future__ import annotations

from collections import OrderedDict

from uvicorn.protocols.http.h11_impl import H11Protocol

from .security import SECURITY_HEADERS

#: Seconds a connection has to send a request's headers.
HEADER_SECONDS = 10.0

#: Connections one client address may hold (a browser opens six per host, a few tabs more).
PER_CLIENT = 64

#: Addresses without the per-address limit (a reverse proxy on the same host).
LOOPBACK = frozenset({"127.0.0.1", "::1"})


def raise_open_files() -> int:
    """Raise this process's open-file limit to its hard limit; return the soft limit now."""
    try:
        import resource
    except ImportError:  # not a Unix: the system's own limit stands
        return 512
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 65536 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the limits above (see the module's docstring)."""

    #: The most connections at once: set from the open-file limit when the server starts.
    limit = 900
    #: Every open connection, oldest first (shared by the server's connections).
    opened: "OrderedDict[BoundedH11Protocol, None]" = OrderedDict()

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._deadline = None
        self.opened[self] = None
        self._make_room()
        self._arm()

    def connection_lost(self, exc) -> None:
        self.opened.pop(self, None)
        self._disarm()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()  # the next request's headers are due in time too

    def send_400_response(self, msg: str) -> None:
        self.transport.write(_bad_request(msg))
        self.transport.close()

    # ---------------------------------------------------------------- the limits

    def busy(self) -> bool:
        """In the middle of a request: its headers came, its answer is not finished."""
        return self.cycle is not None and not self.cycle.response_complete

    def _make_room(self) -> None:
        address = self.client[0] if self.client else None
        if address in LOOPBACK:
            address = None
        mine = [p for p in self.opened if p.client and p.client[0] == address] if address else []
        if len(mine) > PER_CLIENT:
            _close_oldest_idle(mine, keep=self)
        if len(self.opened) > self.limit:
            _close_oldest_idle(list(self.opened), keep=self)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(HEADER_SECONDS, self._late)

    def _disarm(self) -> None:
        if getattr(self, "_deadline", None) is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        if not self.busy() and not self.transport.is_closing():
            self.transport.close()


def _close_oldest_idle(connections: list, keep) -> None:
    for protocol in connections:
        if protocol is not keep and not protocol.busy() and not protocol.transport.is_closing():
            protocol.transport.close()
            protocol.opened.pop(protocol, None)
            return


def _bad_request(message: str) -> bytes:
    """A whole HTTP/1.1 400 answer with the app's security headers, written without h11
    (whose state the malformed request may have broken)."""
    body = message.encode("ascii", "replace")
    lines = [b"HTTP/1.1 400 Bad Request", b"content-type: text/plain; charset=utf-8", b"connection: close"]
    lines.append(b"content-length: " + str(len(body)).encode())
    lines += [name + b": " + value for name, value in SECURITY_HEADERS]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body
