"""Load on ``kamivision serve``: N clients upload a sample screenshot and solve it at once,
on loopback, against a server in its own process (`tests/web/test_load.py` does the same
with 20 and checks every answer).

    python benchmarks/serve_load.py [--clients 20 40] [--workers 1]

Prints, per round: wall time, upload and whole-round latency (median, 95th percentile,
max), answers at the proven optimum, and the server's resident memory (with its fork
server and solving processes) before, at its peak and after.

Then the attacks, each beside 20 real clients (and first those 20 alone, to compare):
one client solving 300 x 300 board files for 5 s each and polling their state, over and
over; ``--idle`` connections opened first and held (sending nothing); and 6 uploads at
once of a one-color 40 MP PNG (refused from its header) and of a 4096 x 3072 one (the
largest read).

With ``--redis``: ``--clients`` (say 200) upload and solve against two ``serve --redis``
web processes (clients alternate between them) and 1, 2, 4 workers (``--worker-counts``),
on a redis-server of its own, and then against one in-memory server with as many solving
processes; per row, screenshots solved per minute, the round trip (p50, p95) and the peak
resident memory of each kind of process.

    python benchmarks/serve_load.py --redis --clients 200 --worker-counts 1 2 4

Reading the screenshots costs the web processes far more than solving the samples costs
the workers; ``--solve-bound`` has every client upload instead a board file that takes
about 1.4 s to prove (an 8 x 8 square board in 5 colours, random with seed 2), so that the
workers are the bottleneck:

    python benchmarks/serve_load.py --redis --solve-bound --clients 40 --worker-counts 1 2 4
"""

from __future__ import annotations

import argparse
import io
import re
import resource
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kamivision.board import read_board  # noqa: E402
from tests.web.test_load import run_load  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[20, 40])
    parser.add_argument("--workers", type=int, default=0, help="solves at once (0: the server's default)")
    parser.add_argument("--idle", type=int, default=1000, help="idle connections held during the first attack")
    parser.add_argument("--redis", action="store_true", help="serve --redis with workers, beside the in-memory server")
    parser.add_argument("--worker-counts", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument(
        "--solve-bound", action="store_true", help="with --redis: a board file that takes 1.4 s to solve"
    )
    args = parser.parse_args()
    if args.redis:
        return redis_rounds(args.clients[0], args.worker_counts, solve_bound_board() if args.solve_bound else None)
    command = [sys.executable, "-m", "kamivision", "serve", "--port", "0"]
    if args.workers:
        command += ["--workers", str(args.workers)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        base = re.search(r"(http://\S+/)", server.stdout.readline()).group(1)
        print(
            "| clients | wall s | upload p50 / p95 s | round p50 / p95 / max s | at optimum | RSS before / peak / after MB |"
        )
        print("| --- | --- | --- | --- | --- | --- |")
        for clients in args.clients:
            figures = run_load(base, server.pid, clients)
            results = figures["results"]
            uploads = [r["upload"] for r in results]
            rounds = [r["total"] for r in results]
            good = sum(
                1
                for r in results
                if r["state"]["state"] == "done"
                and r["state"]["solution"]["optimal"]
                and r["state"]["solution"]["length"] == read_board(r["shot"].with_suffix(".json")).par
            )
            print(
                f"| {clients} | {figures['wall']:.1f} | {percentile(uploads, 0.5):.2f} / {percentile(uploads, 0.95):.2f} | "
                f"{percentile(rounds, 0.5):.1f} / {percentile(rounds, 0.95):.1f} / {max(rounds):.1f} | {good}/{clients} | "
                f"{figures['rss_before'] / 1e6:.0f} / {figures['rss_peak'] / 1e6:.0f} / {figures['rss_after'] / 1e6:.0f} |"
            )
        attacks(base, server.pid, args.idle)
    finally:
        server.terminate()
        server.wait(timeout=10)


def flat_png(width: int, height: int) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (width, height), (200, 100, 50)).save(buf, "PNG")
    return buf.getvalue()


def post(base: str, data: bytes, name: str) -> int:
    request = urllib.request.Request(
        base + "api/sessions", data=data, headers={"X-Kamivision": "1", "X-Filename": name}
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def attacks(base: str, pid: int, idle: int) -> None:
    """20 real clients beside a flood of idle connections, then beside six large uploads."""
    port = int(base.rsplit(":", 1)[1].strip("/"))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))
    print()
    print("| attack | real clients done | round p50 / p95 s | RSS before / peak / after MB | attack's answers |")
    print("| --- | --- | --- | --- | --- |")
    report("none (the same 20 clients alone)", run_load(base, pid, 20), "-")
    big = big_boards(base)
    report("one client solving 300 x 300 boards and polling", run_load(base, pid, 20), big())
    held = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(idle)]
    one = []
    for _ in range(20):  # one real request at a time, among the idle sockets
        started = time.monotonic()
        with urllib.request.urlopen(base + "api/config", timeout=30) as answer:
            answer.read()
        one.append(time.monotonic() - started)
    print(
        f"(one request at a time beside {idle} idle connections: p95 {percentile(one, 0.95) * 1000:.0f} ms)", flush=True
    )
    figures = run_load(base, pid, 20)
    for sock in held:
        sock.close()
    report(f"{idle} idle connections", figures, f"{idle} held")
    for label, data in (("6 x 40 MP one-color PNG", flat_png(6300, 6300)), ("6 x 4096x3072 PNG", flat_png(4096, 3072))):
        statuses: list[int] = []
        threads = [threading.Thread(target=lambda: statuses.append(post(base, data, "big.png"))) for _ in range(6)]
        for thread in threads:
            thread.start()
        figures = run_load(base, pid, 20)
        for thread in threads:
            thread.join()
        report(label, figures, ", ".join(str(code) for code in sorted(statuses)))


def big_boards(base: str):
    """Start one client that, until stopped, uploads a 300 x 300 board in 3 colors,
    solves it for 5 s and polls its state four times a second (the answer's view, every
    poll), over and over; the function that stops it says how many rounds it made and
    its slowest poll."""
    import json

    import numpy as np

    rng = np.random.default_rng(1)
    cells = rng.integers(0, 3, (300, 300)).tolist()
    board = json.dumps(
        {
            "format": "kamivision.board/1",
            "lattice": "square",
            "rows": 300,
            "columns": 300,
            "palette": ["#d04040", "#40a040", "#4060d0"],
            "cells": cells,
        }
    ).encode()
    stop = threading.Event()
    rounds, slowest = [0], [0.0]

    def call(url: str, data: bytes | None = None, kind: str | None = None) -> dict:
        headers = {
            "X-Kamivision": "1",
            **({"X-Filename": "big.json"} if kind is None and data else {}),
            **({"Content-Type": kind} if kind else {}),
        }
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=300) as answer:
            return json.loads(answer.read())

    def loop() -> None:
        while not stop.is_set():
            sid = call(base + "api/sessions", board)["id"]
            call(f"{base}api/sessions/{sid}/solve", json.dumps({"max_seconds": 5}).encode(), "application/json")
            while not stop.is_set():
                started = time.monotonic()
                state = call(f"{base}api/sessions/{sid}/solve")
                slowest[0] = max(slowest[0], time.monotonic() - started)
                if state["state"] in ("done", "cancelled", "failed"):
                    rounds[0] += 1
                    break
                time.sleep(0.25)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()

    def finish() -> str:
        stop.set()
        thread.join(timeout=300)
        return f"{rounds[0]} boards solved, slowest poll {slowest[0]:.2f} s"

    return finish


def report(label: str, figures: dict, attack: str) -> None:
    results = figures["results"]
    rounds = [r["total"] for r in results]
    done = sum(1 for r in results if r["state"]["state"] == "done")
    print(
        f"| {label} | {done}/{len(results)} | {percentile(rounds, 0.5):.1f} / {percentile(rounds, 0.95):.1f} | "
        f"{figures['rss_before'] / 1e6:.0f} / {figures['rss_peak'] / 1e6:.0f} / {figures['rss_after'] / 1e6:.0f} | {attack} |",
        flush=True,
    )


def solve_bound_board() -> Path:
    """An 8 x 8 square board in 5 colours (random, seed 2): about 1.4 s to prove its 8 moves."""
    import json
    import random
    import tempfile

    from kamivision.board import board_to_dict, make_board

    rng = random.Random(2)
    grid = [[rng.randrange(5) for _ in range(8)] for _ in range(8)]
    path = Path(tempfile.mkdtemp()) / "solve-bound.json"
    path.write_text(json.dumps(board_to_dict(make_board(grid, lattice="square", name="solve-bound"))))
    return path


def redis_rounds(clients: int, worker_counts: list[int], board: Path | None = None) -> None:
    import shutil

    from tests.web.conftest import RedisServer, start_web, start_worker, stop

    executable = shutil.which("redis-server")
    if executable is None:
        raise SystemExit("serve_load.py --redis: redis-server is not installed (apt-get install redis-server)")
    what = "a sample screenshot" if board is None else "the solve-bound board file"
    print(f"{clients} clients at once, each uploading {what} and solving it (limit 60 s)")
    print()
    print(
        "| server | solving processes | wall s | solved / min | at optimum | round p50 / p95 s | mean solve s | peak RSS per process MB |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    big = ["--max-waiting", str(clients + 8), "--max-sessions", str(clients + 8)]
    for workers in worker_counts:
        redis = RedisServer(executable)
        redis.start()
        webs, started = [], []
        try:
            started = [start_worker(redis.url) for _ in range(workers)]
            webs = [start_web("--redis", redis.url, *big) for _ in range(2)]
            kinds = {"web": [p.pid for _, p in webs], "worker": [w.pid for w in started], "redis": [redis.process.pid]}
            figures = run_load([url for url, _ in webs], kinds, clients, board, max_seconds=60)
            table_row("redis, 2 web processes", workers, clients, figures)
        finally:
            for _, process in webs:
                stop(process)
            for worker in started:
                stop(worker)
            redis.stop()
    for workers in worker_counts:
        url, process = start_web("--workers", str(workers), *big)
        try:
            figures = run_load(url, {"web": [process.pid]}, clients, board, max_seconds=60)
            table_row("in memory, 1 process", workers, clients, figures)
        finally:
            stop(process)


def table_row(label: str, workers: int, clients: int, figures: dict) -> None:
    results = figures["results"]
    done = [r for r in results if r["state"]["state"] == "done"]
    good = sum(
        1
        for r in done
        if r["state"]["solution"]["optimal"]
        and r["state"]["solution"]["length"]
        == (read_board(r["shot"].with_suffix(".json")).par or r["state"]["solution"]["length"])
    )
    totals = [r["total"] for r in results]
    solve = sum(r["state"]["solution"]["seconds"] for r in done) / max(1, len(done))
    peaks = ", ".join(f"{kind} {value / 1e6:.0f}" for kind, value in figures["peaks"].items())
    print(
        f"| {label} | {workers} | {figures['wall']:.1f} | {len(done) / figures['wall'] * 60:.0f} | {good}/{clients} | "
        f"{percentile(totals, 0.5):.1f} / {percentile(totals, 0.95):.1f} | {solve:.2f} | {peaks} |",
        flush=True,
    )


if __name__ == "__main__":
    main()
