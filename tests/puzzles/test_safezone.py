"""Safe Zone: the rules, the bounds and the search checked against breadth-first search
on many small random boards (holes, helper blocks, both readings of the zone rule); the
spec's examples; the file format's errors."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import deque

import pytest

import kamivision.puzzles.safezone as safezone_module
from kamivision.errors import BoardFileError
from kamivision.puzzles.safezone import (
    SafeZone,
    SafeZoneProblem,
    assignment_bound,
    generate,
    read_safezone,
    safezone_from_dict,
    safezone_to_dict,
    solve_safezone,
    uncovered_zones,
)
from kamivision.puzzles.search import Limits, Stop
from kamivision.report.puzzles import describe_move

from ..conftest import shared_path

# The spec's three examples, as its text gives them (section 4).
EXAMPLES = {
    "tree": ([[0, 1, 4], [1, 1, 0], [2, 1, 0]], 3),
    "two blocks": ([[2, 4, 0], [1, 4, 2], [0, 1, 1]], 4),
    "helper": ([[2, 1, 1], [1, 4, 1], [2, 1, 0]], 4),
    "unsolvable": ([[1, 1, 1], [1, 4, 1], [2, 1, 0]], None),
}


def level(cells, **extra) -> SafeZone:
    return safezone_from_dict(
        {"format": "kamivision.safezone/1", "rows": len(cells), "columns": len(cells[0]), "cells": cells, **extra}
    )


def bfs(level: SafeZone, start=None):
    """The post's breadth-first search (goal test at generation): the optimum, or None."""
    problem = SafeZoneProblem(level)
    start = problem.start() if start is None else start
    if problem.is_goal(start):
        return 0
    seen, queue = {start}, deque([(start, 0)])
    while queue:
        state, depth = queue.popleft()
        for _, child in problem.moves(state):
            if problem.is_goal(child):
                return depth + 1
            if child not in seen:
                seen.add(child)
                queue.append((child, depth + 1))
    return None


def reachable(level: SafeZone) -> list[int]:
    problem = SafeZoneProblem(level)
    seen, queue = {level.blocks}, deque([level.blocks])
    while queue:
        for _, child in problem.moves(queue.popleft()):
            if child not in seen:
                seen.add(child)
                queue.append(child)
    return sorted(seen)


def random_level(rng: random.Random) -> SafeZone:
    while True:
        rows, columns = rng.randint(2, 4), rng.randint(2, 4)
        cells = [[1 if rng.random() > 0.15 else 0 for _ in range(columns)] for _ in range(rows)]
        floor = [(r, c) for r in range(rows) for c in range(columns) if cells[r][c]]
        zones = rng.randint(1, 2)
        blocks = zones + rng.randint(0, 1)  # helper blocks now and then
        if len(floor) < zones + blocks:
            continue
        picked = rng.sample(floor, zones + blocks)
        for r, c in picked[:zones]:
            cells[r][c] = 4
        for r, c in picked[zones:]:
            cells[r][c] = 6 if cells[r][c] == 4 else 2
        rules = rng.choice(["slide", "slide-stop-on-zone"])
        candidate = level(cells, rules=rules)
        if not SafeZoneProblem(candidate).is_goal(candidate.blocks):
            return candidate


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_the_specs_examples_have_their_optima(name):
    cells, optimal = EXAMPLES[name]
    result = solve_safezone(level(cells))
    assert result.length == optimal and result.optimal
    assert result.unsolvable == (optimal is None)


def test_the_shared_example_files_have_their_optima():
    folder = shared_path("spec", "examples")
    for path in sorted(folder.glob("sz-*.json")):
        board = read_safezone(path)
        result = solve_safezone(board)
        expected = json.loads(path.read_text()).get("optimal")
        assert result.length == expected, path.name


def test_the_helper_examples_moves_are_the_specs():
    result = solve_safezone(level(EXAMPLES["helper"][0]))
    assert [describe_move(m, 3) for m in result.moves] == [
        "block at (2, 0) slides up to (1, 0)",
        "block at (0, 0) slides right to (0, 2)",
        "block at (0, 2) slides down to (1, 2)",
        "block at (1, 0) slides right to (1, 1)",
    ]


def test_a_block_slides_until_an_edge_a_hole_or_a_block_and_a_zone_only_under_the_variant():
    board = level([[2, 1, 4, 1], [1, 1, 1, 0], [2, 1, 1, 1]])
    moves = {(m.start, m.direction): m.end for m, _ in SafeZoneProblem(board).moves(board.blocks)}
    assert moves[(0, "R")] == 3  # over the zone to the edge
    assert moves[(0, "D")] == 4  # stops above the other block
    assert (0, "U") not in moves and (0, "L") not in moves  # a slide of no cell is no move
    assert moves[(8, "U")] == 4
    stopping = level([[2, 1, 4, 1], [1, 1, 1, 0], [2, 1, 1, 1]], rules="slide-stop-on-zone")
    moves = {(m.start, m.direction): m.end for m, _ in SafeZoneProblem(stopping).moves(stopping.blocks)}
    assert moves[(0, "R")] == 2
    holes = level([[1, 2, 1, 0, 4]])  # a hole stops a block like the board's edge
    moves = {(m.start, m.direction): m.end for m, _ in SafeZoneProblem(holes).moves(holes.blocks)}
    assert moves == {(1, "L"): 0, (1, "R"): 2}


def test_astar_equals_breadth_first_search_on_many_small_random_boards():
    rng = random.Random(2026)
    solvable = unsolvable = 0
    for _ in range(400):
        board = random_level(rng)
        expected = bfs(board)
        result = solve_safezone(board)
        assert result.length == expected, safezone_to_dict(board)
        assert result.unsolvable == (expected is None)
        if expected is None:
            unsolvable += 1
        else:
            solvable += 1
            problem, state = SafeZoneProblem(board), board.blocks
            for move in result.moves:  # the moves are legal and reach the goal
                state = dict(((m.start, m.direction, m.end), s) for m, s in problem.moves(state))[
                    (move.start, move.direction, move.end)
                ]
            assert problem.is_goal(state)
    assert solvable > 100 and unsolvable > 10


@pytest.mark.parametrize("bound", [uncovered_zones, assignment_bound])
def test_the_bounds_never_overestimate_and_are_consistent(bound):
    rng = random.Random(7)
    checked = 0
    for _ in range(120):
        board = random_level(rng)
        h = bound(board)
        problem = SafeZoneProblem(board)
        for state in reachable(board):
            truth = bfs(board, state)
            value = h(state)
            if truth is None:
                continue
            assert value is not None and value <= truth, (safezone_to_dict(board, state), value, truth)
            for _, child in problem.moves(state):
                child_value = h(child)
                if child_value is not None:
                    assert value <= 1 + child_value
            checked += 1
    assert checked > 1000


def test_the_assignment_bound_calls_a_level_with_no_finite_assignment_a_dead_end():
    board = level([[2, 0, 4], [1, 0, 1]])  # a hole cuts the zone off from the block
    assert assignment_bound(board)(board.blocks) is None and bfs(board) is None
    result = solve_safezone(board)
    assert result.unsolvable and result.expanded == 0


def test_generated_levels_have_their_proven_optimum():
    rng = random.Random(3)
    for rows, zones, helpers in ((5, 2, 0), (5, 2, 1), (6, 3, 1)):
        made = generate(rng, rows, rows, zones, helpers, min_moves=3)
        assert made is not None
        board, result = made
        assert board.optimal == result.length >= 3 and result.optimal
        assert board.blocks.bit_count() == zones + helpers and board.zones.bit_count() == zones
        if rows == 5:
            assert bfs(board) == board.optimal


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": "kamivision.board/1"}, "format is 'kamivision.board/1'"),
        ({"rows": 0}, "rows must be an integer of at least 1"),
        ({"columns": "3"}, "columns must be an integer"),
        ({"cells": [[2, 4, 1], [1, 1]]}, "row 1 has 2 cells, expected 3"),
        ({"cells": [[2, 4, 1]]}, "cells has 1 rows, expected 2"),
        ({"cells": [[2, 4, 3], [1, 1, 1]]}, "cell (0,2) is 3"),
        ({"cells": [[2, 4, True], [1, 1, 1]]}, "cell (0,2) is true"),
        ({"cells": [[2, 4, 1.0], [1, 1, 1]]}, "cell (0,2) is 1.0"),
        ({"cells": [[2, 1, 1], [1, 1, 1]]}, "no safe zone"),
        ({"cells": [[4, 4, 2], [1, 1, 1]]}, "1 block(s) for 2 safe zones"),
        ({"par": -1}, "par must be a non-negative integer"),
        ({"optimal": "4"}, "optimal must be a non-negative integer or null"),
        ({"rules": "push"}, "rules is 'push'"),
    ],
)
def test_bad_files_get_one_line_naming_the_problem(change, message):
    obj = {"format": "kamivision.safezone/1", "rows": 2, "columns": 3, "cells": [[2, 4, 1], [1, 1, 1]], **change}
    with pytest.raises(BoardFileError) as raised:
        safezone_from_dict(obj, "levels/a.json")
    text = str(raised.value)
    assert text.startswith("levels/a.json: ") and message in text and "\n" not in text


def test_an_object_without_a_format_is_said_to_be_no_puzzle_file():
    with pytest.raises(BoardFileError) as raised:
        safezone_from_dict({"rows": 2, "columns": 3, "cells": [[2, 4, 1], [1, 1, 1]]}, "a.json")
    assert str(raised.value).startswith("a.json: no \"format\" field, expected 'kamivision.safezone/1' (not a ")


def test_a_file_round_trips_and_keeps_blocks_on_zones(tmp_path):
    board = level([[6, 4, 0], [1, 2, 2]], par=3, optimal=None, name="x")
    again = safezone_from_dict(safezone_to_dict(board))
    assert again == board
    path = tmp_path / "a.json"
    path.write_text("{nope")
    with pytest.raises(BoardFileError, match="a.json: not JSON"):
        read_safezone(path)


needs_compiled = pytest.mark.skipif(
    safezone_module._safezone is None, reason="kamivision.puzzles._safezone is not built (no C compiler?)"
)


@needs_compiled
def test_the_compiled_search_expands_the_same_states_as_the_python_search():
    """The same moves, states expanded, bound and verdict, on random small boards of both
    rules and on generated levels with more than four zones (the Hungarian method)."""
    rng = random.Random(11)
    boards = [random_level(rng) for _ in range(300)]
    for rows, zones, helpers in ((6, 3, 1), (6, 5, 0), (5, 5, 1), (8, 4, 0)):
        made = generate(rng, rows, rows, zones, helpers, min_moves=3)
        assert made is not None
        boards.append(made[0])
        boards.append(dataclasses.replace(made[0], rules="slide-stop-on-zone"))
    for board in boards:
        fast, slow = solve_safezone(board), solve_safezone(board, compiled=False)
        assert (fast.moves, fast.expanded, fast.lower_bound, fast.optimal, fast.unsolvable) == (
            slow.moves,
            slow.expanded,
            slow.lower_bound,
            slow.optimal,
            slow.unsolvable,
        ), safezone_to_dict(board)
    assert sum(b.zones.bit_count() > 4 for b in boards) >= 4


@needs_compiled
def test_the_compiled_search_stops_at_a_node_limit_where_the_python_one_does():
    made = generate(random.Random(5), 6, 6, 5, 0, min_moves=8)
    assert made is not None
    board, proven = made
    limit = Limits(max_nodes=proven.expanded // 2)
    fast, slow = solve_safezone(board, limit), solve_safezone(board, limit, compiled=False)
    assert fast.stopped == slow.stopped is Stop.LIMIT and fast.moves is None
    assert (fast.expanded, fast.lower_bound) == (slow.expanded, slow.lower_bound)


def test_the_bound_s_set_up_runs_inside_the_time_limit():
    """A 64 x 64 level with 500 zones: its distance tables alone take minutes, so the limit
    must stop them (the run is in a process of its own, given a minute at most: before,
    it ran for ten)."""
    import subprocess
    import sys

    script = (
        "import random, json\n"
        "from kamivision.puzzles.safezone import SafeZone, solve_safezone\n"
        "from kamivision.puzzles.search import Limits\n"
        "rng = random.Random(3); n = 64; cells = list(range(n * n))\n"
        "zones = rng.sample(cells, 500); rest = [c for c in cells if c not in set(zones)]\n"
        "blocks = rng.sample(rest, 500)\n"
        "level = SafeZone(n, n, (1 << n * n) - 1, sum(1 << z for z in zones), sum(1 << b for b in blocks))\n"
        "r = solve_safezone(level, Limits(max_seconds=0.5))\n"
        "print(json.dumps({'stopped': r.stopped.value, 'moves': r.moves}))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout) == {"stopped": "limit", "moves": None}


def test_ctrl_c_during_the_set_up_is_a_stop_not_a_traceback(monkeypatch):
    import kamivision.puzzles.safezone as safezone

    def interrupted(level, deadline=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(safezone, "segment_distances", interrupted)
    level = safezone_from_dict(
        {"format": "kamivision.safezone/1", "rows": 3, "columns": 3, "cells": [[2, 1, 1], [1, 4, 1], [2, 1, 0]]}
    )
    assert safezone.solve_safezone(level).stopped is Stop.INTERRUPTED
