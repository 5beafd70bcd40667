import dataclasses
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import deque

import pytest
from typer.testing import CliRunner

from kamivision.board import Move, make_board
from kamivision.cli import app
from kamivision.errors import BoardFileError, KamiError
from kamivision.floodit import read_collection
from kamivision.limits import Stop
from kamivision.report import note_text
from kamivision.solver import core, solve
from kamivision.solver.notes import BeamAnswer
from kamivision.solver.pivot import layered_bound, moves_from, pivot_graph

from ..boards import random_board
from ..conftest import machine, shared_path


def bfs_pivot(board, limit=14):
    """Fewest moves by plain breadth-first search over every color at the pivot."""
    pivot = board.pivot if board.pivot is not None else (0, 0)
    seen = {board.cells}
    frontier = deque([(board, 0)])
    while frontier:
        current, depth = frontier.popleft()
        if current.is_solved():
            return depth
        if depth >= limit:
            continue
        for c in sorted(current.colors_used()):
            nxt = current.apply(Move(pivot[0], pivot[1], c))
            if nxt.cells not in seen:
                seen.add(nxt.cells)
                frontier.append((nxt, depth + 1))
    return None


def random_pivot_board(rng):
    rows, columns = rng.choice([(3, 3), (3, 4), (4, 4), (4, 5), (5, 4)])
    k = rng.choice([2, 3, 3, 4])
    grid = [[rng.randrange(k) for _ in range(columns)] for _ in range(rows)]
    pivot = [rng.randrange(rows), rng.randrange(columns)]
    return make_board(grid, lattice="square", rules="pivot", pivot=pivot)


def assert_solves_like_bfs(rng, boards, settings=None):
    """solve() proves the breadth-first optimum on random small pivot boards, with moves
    that solve them."""
    for _ in range(boards):
        board = random_pivot_board(rng)
        expected = bfs_pivot(board)
        solution = solve(board, settings=settings)
        assert solution.optimal and solution.length == expected, board
        current = board
        for move in solution.moves:
            current = current.apply(move)
        assert current.is_solved()


def test_pivot_solver_equals_breadth_first_search(both):
    assert_solves_like_bfs(random.Random(77), 300, both)


@pytest.mark.parametrize("max_bytes", [1, 40_000])
def test_a_full_memory_pivot_search_goes_on_depth_first_and_stays_optimal(max_bytes):
    """With memory full at once (1 byte: depth-first from the start) or after some states,
    the compiled pivot search goes on depth-first from its open states and still proves
    the breadth-first optimum (before, it stopped unproven)."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    assert_solves_like_bfs(random.Random(78), 150, machine(max_bytes=max_bytes))
    cells = random.Random(1)
    big = make_board([[cells.randrange(8) for _ in range(14)] for _ in range(14)], lattice="square", rules="pivot")
    tight_reports: list = []
    roomy_reports: list = []
    tight = solve(big, settings=machine(max_bytes=200_000), progress=tight_reports.append)  # full after thousands
    roomy = solve(big, settings=machine(max_bytes=1 << 30), progress=roomy_reports.append)
    # Depth-first, states are searched again (more expansions), never missed.
    assert tight.optimal and tight.length == roomy.length and tight.expanded > roomy.expanded
    # The progress reports say so from then on, as the free rules' do.
    assert any(info.get("memory_full") for info in tight_reports)
    assert roomy_reports and not any(info.get("memory_full") for info in roomy_reports)


def test_layered_bound_never_exceeds_the_optimum_and_complete_colors_are_exact():
    """Checked from every state reached on small boards, not only from the start."""
    rng = random.Random(5)
    for _ in range(120):
        board = random_pivot_board(rng)
        g = pivot_graph(board)
        # Exact optimum from every flood set by backward BFS over the full move set.
        start = 1 << g.start
        states, queue = {start}, deque([start])
        while queue:
            f = queue.popleft()
            frontier = g.frontier(f)
            for c, regions in g.by_color.items():
                child = f | (regions & frontier)
                if child != f and child not in states:
                    states.add(child)
                    queue.append(child)
        optimum = {}
        for f in sorted(states, key=lambda s: -s.bit_count()):
            if f == g.everything:
                optimum[f] = 0
                continue
            frontier = g.frontier(f)
            optimum[f] = 1 + min(optimum[f | (r & frontier)] for r in g.by_color.values() if f | (r & frontier) != f)
        for f in states:
            assert layered_bound(g, f) <= optimum[f]
            if f != g.everything:
                assert min(1 + optimum[child] for _, child in moves_from(g, f)) == optimum[f]


def test_beam_mode_is_reported_as_unproven():
    board = make_board([[0, 1, 2], [1, 2, 0], [2, 0, 1]], lattice="square", rules="pivot")
    solution = solve(board, beam=4)
    assert not solution.optimal and solution.notes == (BeamAnswer(4),)
    assert note_text(solution.notes[0]) == "beam search of width 4: a good solution, not proven optimal"


def test_other_islands_are_refused_clearly():
    board = make_board([[0, None, 1], [0, None, 1]], lattice="square", rules="pivot")
    with pytest.raises(KamiError, match="connected"):
        solve(board)


def test_collection_formats(tmp_path):
    digits = tmp_path / "set.txt"
    digits.write_text("# two boards\n1212\n\n3344\n")
    boards = read_collection(digits)
    assert [b.board.rows for b in boards] == [2, 2] and boards[0].board.rules == "pivot"
    walk = tmp_path / "walk.txt"
    walk.write_text("." + "01234" * 119 + "0123\n")
    (puzzle,) = read_collection(walk)
    assert (puzzle.board.rows, puzzle.board.columns, puzzle.board.pivot) == (20, 30, (0, 0))
    problems = tmp_path / "problems"
    problems.mkdir()
    (problems / "2_2_02_001").write_text("2 2 2\n1 2\n2 1\n2\n")
    (p,) = read_collection(problems)
    assert p.optimum == 2 and solve(p.board).length == 2
    bad = tmp_path / "bad.txt"
    bad.write_text("12a4\n")
    with pytest.raises(BoardFileError, match="bad.txt:1"):
        read_collection(bad)


def test_collection_command_prints_a_table_and_total(tmp_path):
    digits = tmp_path / "set.txt"
    digits.write_text("1212\n1122\n")
    result = CliRunner().invoke(app, ["solve", str(digits), "--rules", "pivot", "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert "2 boards: 2 moves in all, 2 proven optimal" in result.stdout
    digits.write_text("1212\n")  # one board: the totals count, not "True"
    result = CliRunner().invoke(app, ["solve", str(digits), "--rules", "pivot"])
    assert "1 board: 1 move in all, 1 proven optimal" in result.stdout, result.stdout


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to a process group")
@pytest.mark.parametrize(
    "jobs, as_json",
    [("2", True), pytest.param("1", False, marks=pytest.mark.slow), pytest.param("2", False, marks=pytest.mark.slow)],
)
def test_ctrl_c_stops_a_collection_run_with_the_totals_so_far(tmp_path, jobs, as_json):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) ends the run at
    once, whether it lands inside a board's search or between boards, and in the worker
    processes too: the totals of the boards done (with --json: whole JSON lines only),
    exit 130, no traceback."""
    rng = random.Random(11)
    lines = ["".join(str(rng.randrange(8)) for _ in range(14 * 14)) for _ in range(300)]
    collection = tmp_path / "boards.txt"
    collection.write_text("\n".join(lines) + "\n")

    def own_group():
        os.setsid()
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    child = subprocess.Popen(
        [sys.executable, "-m", "kamivision", "solve", str(collection), "--rules", "pivot", "--jobs", jobs]
        + (["--json"] if as_json else []),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=own_group,
    )
    time.sleep(4)
    assert child.poll() is None, child.communicate()
    os.killpg(child.pid, signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    if as_json:
        rows = [json.loads(line) for line in out.splitlines()]
        assert len(rows) < 300 and all(row["name"].startswith("boards#") for row in rows)
        return
    rows = [line for line in out.splitlines() if line.startswith("boards#")]
    total = out.strip().splitlines()[-1]
    noun = "board" if len(rows) == 1 else "boards"
    assert f"{len(rows)} {noun} (interrupted): " in total, out[-500:]
    assert len(rows) < 300


def test_pc19_first_boards_match_the_known_optima():
    folder = shared_path("data", "floodit")
    puzzles = read_collection(folder / "pc19.txt")[:50]
    known = (folder / "pc19-optimal-solutions.txt").read_text().split()[:50]
    assert [solve(p.board).length for p in puzzles] == [len(k) for k in known]


def test_the_greedy_answer_always_floods_the_board():
    from kamivision.solver.pivot import check_flood, greedy, pivot_graph

    rng = random.Random(12)
    for _ in range(40):
        board = dataclasses.replace(
            random_board(
                rng, rng.choice(["square", "triangle"]), rng.randint(1, 12), rng.randint(1, 12), rng.randint(1, 6), 0.0
            ),
            rules="pivot",
        )
        g = pivot_graph(board)
        colors = greedy(g)
        assert check_flood(g, colors)


def test_an_asked_for_beam_keeps_to_the_time_limit_and_to_ctrl_c(monkeypatch):
    import kamivision.solver.pivot as pivot

    rng = random.Random(7)
    board = make_board([[rng.randrange(6) for _ in range(12)] for _ in range(12)], lattice="square", rules="pivot")
    graph = pivot_graph(board)
    seen = []
    real = pivot._beam

    def recording(g, flood, width, deadline=None):
        seen.append(deadline)
        return real(g, flood, width, deadline)

    monkeypatch.setattr(pivot, "_beam", recording)
    started = time.perf_counter()
    solution = solve(board, max_seconds=3, beam=50)
    assert seen and seen[0] is not None and seen[0] <= started + 3.5  # the beam ends with the limit
    assert pivot.check_flood(graph, [m.color for m in solution.moves])
    assert len(solution.moves) <= len(pivot.greedy(graph))

    # A beam that runs out of time, or is stopped by Ctrl-C, gives the greedy answer.
    monkeypatch.setattr(pivot, "_beam", lambda g, flood, width, deadline=None: None)
    solution = solve(board, max_seconds=3, beam=10**6)
    assert [m.color for m in solution.moves] == pivot.greedy(graph) and not solution.optimal
    assert solution.notes == (BeamAnswer(10**6, cut=Stop.LIMIT),) and solution.stopped is Stop.LIMIT
    assert "time limit ended the beam search" in note_text(solution.notes[0])

    def interrupted(g, flood, width, deadline=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(pivot, "_beam", interrupted)
    solution = solve(board, max_seconds=3, beam=10**6)
    assert [m.color for m in solution.moves] == pivot.greedy(graph) and solution.interrupted


def test_the_python_flood_search_reads_the_clock_before_each_child():
    import kamivision.solver.pivot as pivot
    from kamivision.solver import limits

    rng = random.Random(3)
    board = make_board([[rng.randrange(8) for _ in range(12)] for _ in range(12)], lattice="square", rules="pivot")
    graph = pivot_graph(board)

    class Unchecked(limits.Budget):
        def charge(self, bound: int) -> None:  # only the check within an expansion can stop it
            pass

    budget = Unchecked(limits.Limits(max_seconds=1000.0))
    budget.proof_deadline = 0.0
    weighed = []
    real = pivot.layered_bound
    pivot_bound = lambda g, flood: weighed.append(flood) or real(g, flood)  # noqa: E731
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pivot, "layered_bound", pivot_bound)
        with pytest.raises(limits.SearchStopped):
            pivot._flood_astar_loop(graph, budget, real(graph, 1 << graph.start), 1 << graph.start, [0])
    assert weighed == []  # no child weighed past the deadline
