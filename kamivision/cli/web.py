"""Commands in the browser: ``review`` (one screenshot, saved beside it), ``serve`` (the
app for many players) and ``worker`` (solves queued on Redis).

Tested in tests/web/test_server.py, tests/web/test_redis.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..errors import KamiError
from ..report import safe_text
from .common import DISK_OPTION, MEMORY_OPTION, app, fail, number


@app.command(
    "review",
    epilog="""\b
Examples:
  kamivision review level.png                 # the page saves level.json when you press Save
  kamivision review level.json --image level.png""",
)
def review_command(
    source: Annotated[
        Path, typer.Argument(metavar="SOURCE", help="A screenshot, or a board file (with --image).", show_default=False)
    ],
    output: Annotated[
        Optional[Path],
        typer.Option("-o", "--output", metavar="FILE", help="The board file to save.  [default: beside the source]"),
    ] = None,
    image: Annotated[Optional[Path], typer.Option(metavar="SHOT", help="The screenshot of a board file.")] = None,
    max_seconds: Annotated[
        float,
        typer.Option(
            callback=number, min=1.0, metavar="SECONDS", help="The page's solve limit (it can be changed there)."
        ),
    ] = 30.0,
    port: Annotated[
        int,
        typer.Option(
            "--port", min=0, max=65535, metavar="PORT", help="Local port.  [default: any free port]", show_default=False
        ),
    ] = 0,
    browser: Annotated[
        bool, typer.Option("--browser/--no-browser", help="Open the page in the default browser.")
    ] = True,
) -> None:
    """Open the screenshot in a page in your browser: fix misread cells, solve, save the board."""
    import secrets

    from ..review import open_review
    from ..web import Settings
    from ..web.server import run
    from ..web.sessions import session_from_review

    try:
        review = open_review(source, image=image, output=output)
        session = session_from_review(review, (source if source.suffix.lower() != ".json" else image or source).stem)
        settings = Settings(review=session, default_seconds=max_seconds, max_seconds=max(600.0, max_seconds))
        typer.echo(f"reviewing {safe_text(str(source))}; Save writes {safe_text(str(review.output))}")
        run("127.0.0.1", port, settings, open_browser=browser, announce=typer.echo, token=secrets.token_urlsafe(18))
    except KamiError as error:
        fail(error)


@app.command(
    "serve",
    epilog="""\b
Examples:
  kamivision serve                    # this computer only: http://127.0.0.1:8000/
  kamivision serve --host 0.0.0.0     # your phone too, on the same network (a link with a token)
  kamivision serve --host 0.0.0.0 --cert cert.pem --key key.pem   # the same over HTTPS""",
)
def serve_command(
    ctx: typer.Context,
    host: Annotated[
        str, typer.Option(metavar="ADDRESS", help="Address to listen on (0.0.0.0: every network).")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, metavar="PORT", help="Port to listen on (0: any free port).")
    ] = 8000,
    max_seconds: Annotated[
        float,
        typer.Option(
            callback=number, min=1.0, metavar="SECONDS", help="A solve's default limit (the page can change it)."
        ),
    ] = 30.0,
    limit: Annotated[
        float, typer.Option(callback=number, min=1.0, metavar="SECONDS", help="The longest solve a page may ask for.")
    ] = 600.0,
    workers: Annotated[
        int,
        typer.Option(
            min=0, metavar="N", help="Solves run at once.  [default: one per core, less one]", show_default=False
        ),
    ] = 0,
    browser: Annotated[
        bool, typer.Option("--browser/--no-browser", help="Open the page in the default browser.")
    ] = False,
    cert: Annotated[
        Optional[Path], typer.Option(metavar="FILE", help="Serve HTTPS with this certificate (PEM); needs --key.")
    ] = None,
    key: Annotated[Optional[Path], typer.Option(metavar="FILE", help="The certificate's private key (PEM).")] = None,
    redis: Annotated[
        Optional[str],
        typer.Option(
            envvar="KAMIVISION_REDIS",
            metavar="URL",
            help="Keep sessions in Redis and queue solves there for 'kamivision worker' (redis://host:6379/0; with a password, give it in KAMIVISION_REDIS instead).",
        ),
    ] = None,
    token: Annotated[
        Optional[str],
        typer.Option(
            "--token",
            envvar="KAMIVISION_TOKEN",
            metavar="TOKEN",
            help="The token every request needs (the same for every web process; better given in KAMIVISION_TOKEN).  [default: a random one off the loopback]",
            show_default=False,
        ),
    ] = None,
    allow_host: Annotated[
        Optional[list[str]],
        typer.Option(
            "--allow-host",
            metavar="NAME",
            help="Also answer requests for this host name without a token (a public site behind a proxy); repeatable.",
        ),
    ] = None,
    uploads_per_minute: Annotated[
        int, typer.Option(min=0, metavar="N", help="Uploads one client address may make a minute (0: no limit).")
    ] = 0,
    solves_per_minute: Annotated[
        int, typer.Option(min=0, metavar="N", help="Solves one client address may ask for a minute (0: no limit).")
    ] = 0,
    max_waiting: Annotated[
        int, typer.Option(min=1, metavar="N", help="Solves that may wait; more get 'try again' (503).")
    ] = 64,
    max_sessions: Annotated[
        Optional[int],
        typer.Option(
            min=1,
            metavar="N",
            help="Screenshots held at once, idle ones dropped first.  [default: 64; 2000 with --redis]",
            show_default=False,
        ),
    ] = None,
    max_store_mb: Annotated[
        Optional[int],
        typer.Option(
            min=1,
            metavar="MB",
            help="Megabytes of screenshots held at once, idle ones dropped first.  [default: 1500; 4000 with --redis]",
            show_default=False,
        ),
    ] = None,
    max_memory_mb: Annotated[Optional[int], MEMORY_OPTION] = None,
    max_disk_mb: Annotated[Optional[int], DISK_OPTION] = None,
) -> None:
    """Run kamivision in the browser: open a screenshot, fix cells, solve, step through the moves."""
    from ..web import Settings

    warn_of_secrets(ctx, redis=redis, token=token)
    from ..solver.settings import usable_cpus
    from ..web.server import run

    settings = Settings(
        default_seconds=max_seconds,
        max_seconds=max(limit, max_seconds),
        workers=workers or max(1, usable_cpus() - 1),
        token=token or None,
        allowed_hosts=Settings.allowed_hosts + tuple(allow_host or ()),
        redis=redis,
        uploads_per_minute=uploads_per_minute,
        solves_per_minute=solves_per_minute,
        max_waiting=max_waiting,
        max_sessions=max_sessions,
        max_store_mb=max_store_mb,
        max_memory_mb=max_memory_mb,
        max_disk_mb=max_disk_mb,
    )
    try:
        if (cert is None) != (key is None):
            raise KamiError("HTTPS needs both --cert and --key")
        for given, option in ((max_memory_mb, "--max-memory-mb"), (max_disk_mb, "--max-disk-mb")):
            if redis is not None and given is not None:
                raise KamiError(f"with --redis the workers solve: give {option} to 'kamivision worker'")
        if redis is not None:
            from ..web.redisstore import reachable

            reachable(redis)
        run(host, port, settings, open_browser=browser, announce=typer.echo, certificate=(cert, key) if cert else None)
    except KamiError as error:
        fail(error)


@app.command(
    "worker",
    epilog="""\b
Examples:
  kamivision worker --redis redis://10.0.0.5:6379/0    # solves for 'kamivision serve --redis' on any host
  kamivision worker --redis redis://localhost --burst  # the solves waiting now, then stop""",
)
def worker_command(
    ctx: typer.Context,
    redis: Annotated[
        str,
        typer.Option(
            envvar="KAMIVISION_REDIS",
            metavar="URL",
            help="The Redis that the web processes queue solves on (with a password, give it in KAMIVISION_REDIS instead).",
        ),
    ],
    burst: Annotated[bool, typer.Option("--burst", help="Stop when the queue is empty.")] = False,
    name: Annotated[
        Optional[str],
        typer.Option(
            "--name", metavar="NAME", help="This worker's name in Redis.  [default: a random one]", show_default=False
        ),
    ] = None,
    max_memory_mb: Annotated[Optional[int], MEMORY_OPTION] = None,
    max_disk_mb: Annotated[Optional[int], DISK_OPTION] = None,
) -> None:
    """Solve boards queued by 'kamivision serve --redis', one at a time; run one per core."""
    warn_of_secrets(ctx, redis=redis)
    try:
        from ..web.worker import run_worker

        run_worker(redis, burst=burst, name=name, max_mb=max_memory_mb, max_disk_mb=max_disk_mb)
    except KamiError as error:
        fail(error)


def warn_of_secrets(ctx: typer.Context, **values: Optional[str]) -> None:
    """One line on stderr for each secret given on the command line, where every user of
    the machine can read it (``ps``): a Redis URL with a password, a token.  They belong
    in the environment (``KAMIVISION_REDIS``, ``KAMIVISION_TOKEN``), from a file only the
    service reads (``docs/deploy.md``)."""
    from urllib.parse import urlsplit

    for name, value in values.items():
        source = ctx.get_parameter_source(name)
        if not value or source is None or source.name != "COMMANDLINE":
            continue
        if name == "redis":
            try:
                secret = urlsplit(value).password is not None
            except ValueError:
                secret = False
            if secret:
                typer.echo(
                    "warning: the Redis password is on the command line, where any user of this machine can read it: give the URL in KAMIVISION_REDIS instead",
                    err=True,
                )
        else:
            typer.echo(
                f"warning: the {name} is on the command line, where any user of this machine can read it: give it in KAMIVISION_{name.upper()} instead",
                err=True,
            )
