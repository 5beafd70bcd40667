"""Load: 20 clients upload a screenshot and solve it at once, on loopback, against a real
``kamivision serve``.  Every one is answered with the proven optimum, none is lost, the
server's memory stays bounded and it still answers afterwards.
``benchmarks/serve_load.py`` runs the same with timings."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kamivision.board import Move, board_from_dict, read_board

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
pytestmark = pytest.mark.slow  # the load test: minutes on a loaded machine (the full run has it)

SHOTS = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".jpg", ".png") and p.with_suffix(".json").exists())


def request(url: str, data: bytes | None = None, headers: dict | None = None, method: str | None = None) -> dict:
    req = urllib.request.Request(url, data=data, headers={"X-Kamivision": "1", **(headers or {})}, method=method)
    with urllib.request.urlopen(req, timeout=120) as response:
        return json.loads(response.read())


def one_client(base: str, shot: Path, max_seconds: float = 30) -> dict:
    """Upload ``shot``, solve it, wait for the answer; the figures of that round."""
    start = time.monotonic()
    session = request(base + "api/sessions", shot.read_bytes(), {"X-Filename": shot.name})
    uploaded = time.monotonic()
    sid = session["id"]
    request(
        f"{base}api/sessions/{sid}/solve",
        json.dumps({"max_seconds": max_seconds}).encode(),
        {"Content-Type": "application/json"},
    )
    while True:
        state = request(f"{base}api/sessions/{sid}/solve")
        if state["state"] in ("done", "cancelled", "failed"):
            break
        time.sleep(0.25)
    return {"shot": shot, "state": state, "upload": uploaded - start, "total": time.monotonic() - start}


def rss_bytes(pid: int) -> int:
    """Resident memory of ``pid`` and its descendants (the fork server and the solvers)."""
    total = 0
    pids = [pid]
    while pids:
        current = pids.pop()
        try:
            with open(f"/proc/{current}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            with open(f"/proc/{current}/task/{current}/children") as children:
                pids.extend(int(p) for p in children.read().split())
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def run_load(
    bases: str | list[str],
    pids: int | dict[str, list[int]],
    clients: int = 20,
    board: Path | None = None,
    max_seconds: float = 30,
) -> dict:
    """``clients`` rounds at once, taking turns over ``bases`` (one URL or several), with
    the samples (or each with ``board``); their results, the wall time, and the memory of
    the ``pids`` (each with the processes it forked): all of them together before, at their
    peak and after, and, when ``pids`` names kinds of process, each kind's peak per process."""
    bases = [bases] if isinstance(bases, str) else bases
    kinds = pids if isinstance(pids, dict) else {"server": [pids]}

    def total() -> int:
        return sum(rss_bytes(pid) for group in kinds.values() for pid in group)

    peak, before = [total()], total()
    peaks = {kind: 0 for kind in kinds}
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], total())
            for kind, group in kinds.items():
                peaks[kind] = max([peaks[kind]] + [rss_bytes(pid) for pid in group])
            time.sleep(0.1)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    start = time.monotonic()
    with ThreadPoolExecutor(clients) as pool:
        results = list(
            pool.map(
                lambda i: one_client(bases[i % len(bases)], board or SHOTS[i % len(SHOTS)], max_seconds), range(clients)
            )
        )
    wall = time.monotonic() - start
    stop.set()
    watcher.join()
    return {
        "results": results,
        "wall": wall,
        "rss_before": before,
        "rss_peak": peak[0],
        "rss_after": total(),
        "peaks": peaks,
    }


def test_twenty_clients_at_once_are_all_answered_with_the_optimum(server):
    base, process = server
    figures = run_load(base, process.pid, clients=20)
    results = figures["results"]
    assert len(results) == 20
    for result in results:
        state, truth = result["state"], read_board(result["shot"].with_suffix(".json"))
        assert state["state"] == "done", (result["shot"].name, state)
        solution = state["solution"]
        assert solution["optimal"] and solution["length"] == truth.par, (result["shot"].name, solution["verdict"])
        board = board_from_dict(solution["board"])
        for move in solution["moves"]:
            board = board.apply(Move(move["row"], move["column"], move["color"]))
        assert board.is_solved()
    assert figures["rss_peak"] < 2_000_000_000, figures["rss_peak"]
    assert request(base + "api/config")["max_upload"] > 0  # still answering
    again = one_client(base, SHOTS[0])
    assert again["state"]["state"] == "done"
    print(
        f"\n20 clients: {figures['wall']:.1f} s wall, upload median "
        f"{sorted(r['upload'] for r in results)[10]:.2f} s, round max {max(r['total'] for r in results):.1f} s, "
        f"server memory {figures['rss_before'] / 1e6:.0f} -> peak {figures['rss_peak'] / 1e6:.0f} MB"
    )
