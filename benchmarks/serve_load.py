"""Load on ``kamivision serve``: N clients upload a sample screenshot and solve it at once,
on loopback, against a server in its own process (`tests/web/test_load.py` does the same
with 20 and checks every answer).

    python benchmarks/serve_load.py [--clients 20 40] [--workers 1]

Prints, per round: wall time, upload and whole-round latency (median, 95th percentile,
max), answers at the proven optimum, and the server's resident memory (with its fork
server and solving processes) before, at its peak and after.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
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
    args = parser.parse_args()
    command = [sys.executable, "-m", "kamivision", "serve", "--port", "0"]
    if args.workers:
        command += ["--workers", str(args.workers)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        base = re.search(r"(http://\S+/)", server.stdout.readline()).group(1)
        print("| clients | wall s | upload p50 / p95 s | round p50 / p95 / max s | at optimum | RSS before / peak / after MB |")
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
                f"| {clients} | {figures['wall']:.1f} | {percentile(uploads, .5):.2f} / {percentile(uploads, .95):.2f} | "
                f"{percentile(rounds, .5):.1f} / {percentile(rounds, .95):.1f} / {max(rounds):.1f} | {good}/{clients} | "
                f"{figures['rss_before'] / 1e6:.0f} / {figures['rss_peak'] / 1e6:.0f} / {figures['rss_after'] / 1e6:.0f} |"
            )
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
