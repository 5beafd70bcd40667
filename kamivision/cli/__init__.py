"""The command line: a thin typer layer over the library API.

Each command parses its options, calls one library function and prints.  A
:class:`~kamivision.errors.KamiError` becomes a one-line message on stderr and exit code 1;
usage errors exit with 2 (Click).  The commands are grouped by what they do:
:mod:`.solve`, :mod:`.tables` (runs over many boards), :mod:`.make` and :mod:`.web`; the
solver, OpenCV and the image stages are imported inside the commands that need them, so
that ``--help`` starts quickly and solving a board file loads no numpy.
"""

from __future__ import annotations

import os
import signal
import sys

__all__ = ["app", "main"]

#: Exit status after Ctrl-C (128 + 2), as in .common.
INTERRUPTED = 130


def _app():
    """The typer app with every command registered.  Imported here, not at the top: the
    console script imports this module before it calls :func:`main`, and Ctrl-C while
    typer and the commands load must end in one line, not a traceback."""
    # Each module registers its commands on the app; --help lists them in this order (so
    # the imports are not sorted here).
    # ruff: noqa: I001
    from . import solve  # noqa: F401
    from . import make  # noqa: F401
    from . import web  # noqa: F401
    from . import databases  # noqa: F401
    from .common import app

    return app


def __getattr__(name: str):
    """``from kamivision.cli import app`` (the tests' CliRunner) still works."""
    if name == "app":
        return _app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Exit status after SIGTERM (128 + 15): the run stopped as after Ctrl-C, and said so.
TERMINATED = 143
_terminated = False
_main_pid = -1


def _on_terminate(signum, frame) -> None:
    """SIGTERM is handled as Ctrl-C is (the best answer kept, temporary files removed as
    the exception unwinds), and the exit status says it was SIGTERM."""
    global _terminated
    if os.getpid() != _main_pid:  # a worker process forked from this one: end as usual
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        return
    _terminated = True
    raise KeyboardInterrupt


def main() -> None:
    global _main_pid
    _main_pid = os.getpid()
    signal.signal(signal.SIGTERM, _on_terminate)
    try:
        try:
            _app()()
        except KeyboardInterrupt:  # while typer and the commands load and are set up
            print("kamivision: interrupted", file=sys.stderr)
            raise SystemExit(INTERRUPTED) from None
    except SystemExit:
        if _terminated:
            raise SystemExit(TERMINATED) from None
        raise
    if _terminated:  # pragma: no cover - app() always exits through SystemExit
        raise SystemExit(TERMINATED)
