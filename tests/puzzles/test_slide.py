"""Tile sliding: solvability, the bounds and the search checked against breadth-first
search (distinct and repeated labels, every 3 x 3 KenKen state); the spec's examples;
the file format's errors."""

from __future__ import annotations

import itertools
import json
import random
from collections import deque

import pytest

from kamivision.errors import BoardFileError
from kamivision.puzzles.search import Limits, Stop
from kamivision.puzzles.slide import HEURISTICS, readme_misplaced, solve_slide
from kamivision.puzzles.tiles import (
    SlideBoard,
    SlideProblem,
    draw,
    read_collection,
    slide_from_dict,
    slide_to_dict,
    solvable,
)

from ..conftest import shared_path

KENKEN_GOAL = [[1, 2, 3], [2, 3, 1], [3, 1, 0]]


def board(cells, goal=None, **extra) -> SlideBoard:
    obj = {"format": "kamivision.slide/1", "rows": len(cells), "columns": len(cells[0]), "cells": cells, **extra}
    if goal is not None:
        obj["goal"] = goal
    return slide_from_dict(obj)


def distances_to_goal(b: SlideBoard) -> dict[tuple, int]:
    """Every state that reaches the goal, with its distance (moves are reversible)."""
    problem = SlideProblem(b)
    seen = {b.goal: 0}
    queue = deque([b.goal])
    while queue:
        state = queue.popleft()
        for _, child in problem.moves(state):
            if child not in seen:
                seen[child] = seen[state] + 1
                queue.append(child)
    return seen


def arrangements(labels: list[int]) -> set[tuple]:
    return set(itertools.permutations(labels))


def test_the_specs_examples():
    example = board([[0, 1, 1], [2, 3, 1], [3, 2, 3]], KENKEN_GOAL)
    result = solve_slide(example)
    assert result.length == 10 and result.optimal
    values = {name: h(example)(example.cells) for name, h in HEURISTICS.items()}
    assert values == {"misplaced": 4, "manhattan": 8, "conflicts": 10}
    assert readme_misplaced(example)(example.cells) == 5
    one = board([[1, 2, 3], [2, 3, 0], [3, 1, 1]], KENKEN_GOAL)
    assert solve_slide(one).length == 1 and readme_misplaced(one)(one.cells) == 2  # the README's h overestimates
    eight = board([[0, 2, 3], [1, 8, 6], [4, 5, 7]])
    assert eight.goal == (1, 2, 3, 4, 5, 6, 7, 8, 0)
    assert [h(eight)(eight.cells) for h in HEURISTICS.values()] == [5, 6, 8]
    result = solve_slide(eight)
    assert result.length == 12
    assert " ".join(f"{m.tile}{m.direction}" for m in result.moves) == "1U 8L 5U 7L 6D 5R 8R 4U 7L 8D 5L 6U"
    odd = board([[2, 1, 3], [4, 5, 0]])
    result = solve_slide(odd)
    assert result.unsolvable and result.expanded == 0


def test_the_shared_example_files():
    for path in sorted(shared_path("spec", "examples").glob("slide-*.json")):
        obj = json.loads(path.read_text())
        result = solve_slide(slide_from_dict(obj, path.name))
        assert result.length == obj.get("optimal"), path.name


@pytest.mark.parametrize(
    "shape, labels",
    [
        ((2, 2), [1, 2, 3, 0]),
        ((2, 2), [1, 1, 2, 0]),
        ((2, 3), [1, 2, 3, 4, 5, 0]),
        ((2, 3), [1, 1, 2, 2, 3, 0]),
        ((1, 4), [1, 2, 3, 0]),
        ((1, 4), [1, 1, 2, 0]),
        ((3, 2), [1, 2, 2, 3, 3, 0]),
        ((4, 1), [1, 2, 3, 0]),
    ],
)
def test_the_solvability_rule_agrees_with_breadth_first_search(shape, labels):
    rows, columns = shape
    goal = [labels[r * columns : (r + 1) * columns] for r in range(rows)]
    reference = board(goal, goal)
    reach = set(distances_to_goal(reference))
    for state in arrangements(labels):
        cells = [list(state[r * columns : (r + 1) * columns]) for r in range(rows)]
        assert solvable(board(cells, goal)) == (state in reach), state


@pytest.mark.parametrize(
    "goal",
    [
        KENKEN_GOAL,
        pytest.param([[2, 3, 1], [1, 2, 3], [3, 1, 0]], marks=pytest.mark.slow),  # more Kenken goals in the full run
        pytest.param([[1, 3, 2], [3, 2, 1], [2, 1, 0]], marks=pytest.mark.slow),
        [[1, 2, 3], [4, 5, 6], [7, 8, 0]],
    ],
    ids=["kenken-1", "kenken-2", "kenken-3", "eight"],
)
def test_every_bound_is_admissible_and_consistent_on_every_state(goal):
    reference = board(goal, goal)
    distance = distances_to_goal(reference)
    problem = SlideProblem(reference)
    states = list(distance)
    if len(states) > 20_000:  # the 8-puzzle: a sample of its 181,440 states
        states = random.Random(5).sample(states, 6000)
    for name, make in HEURISTICS.items():
        h = make(reference)
        for state in states:
            value = h(state)
            assert value <= distance[state], (name, state, value, distance[state])
            for _, child in problem.moves(state):
                assert value <= 1 + h(child), (name, state)
    assert any(readme_misplaced(reference)(s) > distance[s] for s in states)  # the README's is not admissible


@pytest.mark.parametrize("goal", [KENKEN_GOAL, [[1, 3, 2], [3, 2, 1], [2, 1, 0]], [[1, 1, 2], [2, 3, 3], [4, 4, 0]]])
def test_the_capped_conflict_bound_for_large_boards_is_admissible_and_consistent_on_every_state(goal):
    from kamivision.puzzles.slide import capped_conflicts, manhattan

    reference = board(goal, goal)
    distance = distances_to_goal(reference)
    problem = SlideProblem(reference)
    h, plain = capped_conflicts(reference), manhattan(reference)
    stronger = 0
    for state, truth in distance.items():
        value = h(state)
        assert plain(state) <= value <= truth, (state, value, truth)
        stronger += value > plain(state)
        for _, child in problem.moves(state):
            assert value - h(child) <= 3, state  # M* moves by 1 a move, the +2 comes and goes
    assert stronger > 100  # it does add to Manhattan


def test_the_search_finds_the_breadth_first_optimum_on_kenken_and_eight_puzzle_starts():
    rng = random.Random(11)
    for goal in (KENKEN_GOAL, [[1, 2, 3], [4, 5, 6], [7, 8, 0]], [[1, 1], [2, 0]], [[1, 2, 2], [3, 3, 0]]):
        reference = board(goal, goal)
        distance = distances_to_goal(reference)
        for state in rng.sample(sorted(distance), min(60, len(distance))):
            rows, columns = reference.rows, reference.columns
            start = board([list(state[r * columns : (r + 1) * columns]) for r in range(rows)], goal)
            result = solve_slide(start)
            assert result.optimal and result.length == distance[state]
            replay = list(state)
            for move in result.moves:
                blank = replay.index(0)
                assert replay[move.start] == move.tile
                replay[blank], replay[move.start] = move.tile, 0
            assert tuple(replay) == reference.goal


def test_a_solved_board_takes_no_move_and_a_limit_stops_with_a_bound():
    done = board(KENKEN_GOAL, KENKEN_GOAL)
    assert solve_slide(done).length == 0
    hard = board([[0, 8, 7], [6, 5, 4], [3, 2, 1]])
    stopped = solve_slide(hard, Limits(max_nodes=10))
    assert stopped.moves is None and not stopped.optimal and stopped.stopped is Stop.LIMIT and stopped.lower_bound > 0


def test_the_board_is_drawn_beside_its_goal():
    text = draw(board([[0, 1, 1], [2, 3, 1], [3, 2, 3]], KENKEN_GOAL))
    assert text.splitlines()[0] == ". 1 1    1 2 3   <- goal"


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": None}, "format is None"),
        ({"rows": 1, "columns": 1, "cells": [[0]]}, "at least 2 cells"),
        ({"cells": [[0, 1, 1], [2, 3], [3, 2, 3]]}, "cells row 1 has 2 cells, expected 3"),
        ({"goal": [[1, 2, 3], [2, 3, 1]]}, "goal has 2 rows, expected 3"),
        ({"cells": [[0, 1, 1], [2, 3, 1], [3, 2, "3"]]}, 'cells cell (2,2) is "3"'),
        ({"cells": [[0, 1, 1], [2, 3, 1], [3, 2, -3]]}, "cells cell (2,2) is -3"),
        ({"cells": [[0, 1, 1], [2, 3, 1], [3, 2, 0]]}, "cells has 2 empty cells"),
        ({"cells": [[0, 1, 1], [2, 3, 1], [3, 2, 2]]}, "different labels"),
        ({"par": 1.5}, "par must be a non-negative integer"),
        ({"optimal": -2}, "optimal must be"),
        ({"cages": [{"cells": [[0, 0], [1, 0]], "op": "÷", "value": 2}]}, "goal cell (0,1) is in no cage"),
        ({"cages": [{"cells": [[0, 0], [5, 0]], "op": "+", "value": 3}]}, "cell (5,0) is off the board"),
        ({"cages": [{"cells": [[2, 2]], "op": None, "value": 0}]}, "the goal's empty cell"),
        ({"cages": [{"cells": [[0, 0], [1, 1]], "op": "+", "value": 4}]}, "not connected"),
        ({"cages": [{"cells": [[0, 0], [0, 1], [0, 2]], "op": "-", "value": 1}]}, "- needs exactly 2 cells"),
        ({"cages": [{"cells": [[0, 1], [0, 2]], "op": "÷", "value": 1}]}, "is not a whole number"),
        ({"cages": [{"cells": [[0, 0], [1, 0]], "op": "÷", "value": 3}]}, "value is 3, but the goal's labels give 2"),
        ({"cages": [{"cells": [[0, 0]], "op": "%", "value": 1}]}, "op is '%'"),
        ({"cages": [{"cells": [[0, 0], [1, 0]], "op": None, "value": 1}]}, "without an operation must have one cell"),
        ({"cages": [{"cells": [[0, 0]], "op": "+", "value": 1}]}, "a one-cell cage has no operation"),
        (
            {"cages": [{"cells": [[0, 0]], "op": None, "value": 1}, {"cells": [[0, 0]], "op": None, "value": 1}]},
            "also in cage 0",
        ),
    ],
)
def test_bad_files_get_one_line_naming_the_problem(change, message):
    obj = {
        "format": "kamivision.slide/1",
        "rows": 3,
        "columns": 3,
        "cells": [[0, 1, 1], [2, 3, 1], [3, 2, 3]],
        "goal": KENKEN_GOAL,
    }
    obj.update(change)
    with pytest.raises(BoardFileError) as raised:
        slide_from_dict(obj, "boards/b.json")
    text = str(raised.value)
    assert text.startswith("boards/b.json: ") and message in text and "\n" not in text, text


def test_the_specs_cages_are_accepted_and_the_file_round_trips():
    cages = [
        {"cells": [[0, 0], [1, 0]], "op": "/", "value": 2},
        {"cells": [[0, 1], [0, 2], [1, 2]], "op": "*", "value": 6},
        {"cells": [[1, 1], [2, 1]], "op": "-", "value": 2},
        {"cells": [[2, 0]], "op": None, "value": 3},
    ]
    b = board([[0, 1, 1], [2, 3, 1], [3, 2, 3]], KENKEN_GOAL, cages=cages, optimal=10, par=12)
    assert [c["op"] for c in b.cages] == ["÷", "×", "-", None]
    assert slide_from_dict(slide_to_dict(b)) == b


def test_collections_korf_style_or_bare_and_their_errors(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("# two boards\n1 1 99 1 0 2 3 4 5 6 7 8\n3 1 2 0 4 5 6 7 8\n")
    (first, a), (second, b) = read_collection(path)
    assert (first, a.optimal, a.cells[:3]) == ("1", 1, (1, 0, 2)) and a.goal == tuple(range(9))
    assert solve_slide(a).length == 1 and solve_slide(b).length is not None
    for text, message in (
        ("1 2 3\n", "has 3 numbers"),
        ("1 1 2 3 4 5 6 7 8\n", "each once"),
        ("a b\n", "not a list of integers"),
        ("# none\n", "no board"),
    ):
        path.write_text(text)
        with pytest.raises(BoardFileError, match=message):
            read_collection(path)


def test_a_4x4_kenken_board_gets_the_same_optimum_with_the_capped_bound_as_with_manhattan():
    from kamivision.puzzles.search import astar
    from kamivision.puzzles.slide import capped_conflicts, manhattan, manhattan_conflicts

    goal = (1, 2, 3, 4, 2, 1, 4, 3, 3, 4, 1, 2, 4, 3, 2, 0)
    reference = SlideBoard(4, 4, goal, goal)
    assert manhattan_conflicts(reference).__qualname__.startswith("capped_conflicts")
    problem = SlideProblem(reference)
    rng = random.Random(4)
    for _ in range(3):
        state, previous = goal, None
        for _ in range(30):
            options = [child for _, child in problem.moves(state) if child != previous]
            previous, state = state, rng.choice(options)
        start = SlideBoard(4, 4, state, goal)
        capped = astar(SlideProblem(start), capped_conflicts(start))
        plain = astar(SlideProblem(start), manhattan(start))
        assert capped.length == plain.length and capped.expanded <= plain.expanded
