"""The answer a player gets from `kamivision solve LEVEL` without a limit, stopped with
Ctrl-C after T seconds: is it at par?  (Issue 50, item 4: it must be as good as a 10 s
limit's.)

    python benchmarks/first_answer.py ../shared/data/kami2-journey [--after 3 5 10] [--only Bud]

Each level is solved by the command in a fresh process, sent SIGINT after each T (one run
per T), and its JSON answer read: moves against par, proven or not, the exit status (0: it
finished with a proof before T).  By default the six hardest Journey levels (Threegrid4-6,
Bud4-6).
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

HARDEST = ("Threegrid4", "Threegrid5", "Threegrid6", "Bud4", "Bud5", "Bud6")


def answer_after(path: Path, seconds: float) -> tuple[dict, float, int]:
    """The command's JSON answer for ``path`` when Ctrl-C comes after ``seconds`` (or its
    own end, if sooner), the wall time and the exit status."""
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "kamivision", "solve", str(path), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = child.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    wall = time.perf_counter() - started
    if not out.strip():
        raise SystemExit(f"{path}: no answer (exit {child.returncode}): {err.strip()[-200:]}")
    return json.loads(out), wall, child.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--after", type=float, nargs="+", default=[3.0, 5.0, 10.0])
    parser.add_argument("--only", nargs="+", default=list(HARDEST), help="level names containing these")
    args = parser.parse_args()
    # Started in the background by a shell script, this process ignores SIGINT, and the
    # commands it starts would too (an ignored signal stays ignored across exec): each would
    # run on after its Ctrl-C until the 120 s wait gave up.  A handler of its own is reset
    # to the default at exec, so the commands take Ctrl-C as a player's terminal sends it.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    levels = sorted(p for p in args.folder.glob("*.json") if any(name in p.stem for name in args.only))
    if not levels:
        raise SystemExit(f"{args.folder}: no level matches {args.only}")
    print(f"{'level':<20} {'par':>4} " + " ".join(f"{f'after {t:g} s':>14}" for t in args.after))
    print("-" * (26 + 15 * len(args.after)))
    over = 0
    for path in levels:
        par = json.loads(path.read_text()).get("par")
        cells = []
        for seconds in args.after:
            answer, wall, status = answer_after(path, seconds)
            moves = len(answer["moves"])
            over += par is not None and moves > par
            mark = "proven" if answer["optimal"] else ("over" if par is not None and moves > par else "")
            cells.append(f"{moves:>3} {mark:<6} {wall:>4.1f}")
        print(f"{path.stem:<20} {par if par is not None else '-':>4} " + " ".join(f"{c:>14}" for c in cells))
    print("-" * (26 + 15 * len(args.after)))
    print(f"answers over par: {over}; cells: moves, 'proven' when the proof finished first, wall seconds")


if __name__ == "__main__":
    main()
