"""The counter check: other readings of doubtful cells re-solved against the counter."""

from __future__ import annotations

import dataclasses
import random

import numpy as np

from kamivision.board import BLANK, make_board
from kamivision.check.parcheck import apply_changes, candidate_changes, check_counter
from kamivision.solver import solve
from kamivision.vision import Recognition

from ..boards import random_board


def _recognition(board, doubtful: dict, colors: int) -> Recognition:
    """A recognition of ``board`` whose only uncertain cells are ``doubtful`` (cell -> the
    reading that is the runner-up, at cost 0.1; every other reading costs 0.5; blank is
    impossible)."""
    rows, cols = board.rows, board.columns
    confidence = np.ones((rows, cols), np.float32)
    costs = np.full((rows, cols, colors + 1), 0.5, np.float32)
    costs[..., colors] = np.inf
    for r in range(rows):
        for c in range(cols):
            costs[r, c, board.cells[r][c]] = 0.0
    for (r, c), runner_up in doubtful.items():
        confidence[r, c] = 0.0
        costs[r, c, runner_up] = 0.1
    return Recognition(
        board=board,
        layout=None,
        confidence=confidence,
        visible=np.ones((rows, cols), np.float32),
        par_confidence=1.0,
        offset=0.0,
        milliseconds=0.0,
        costs=costs,
    )


def test_a_misread_cell_whose_true_reading_meets_the_counter_is_named():
    rng = random.Random(5)
    cases = 0
    for _ in range(200):
        truth = random_board(rng, "triangle", 5, 4, 3, 0.0)
        optimum = solve(truth).length
        r, c = rng.randrange(5), rng.randrange(4)
        wrong = rng.choice([v for v in range(3) if v != truth.cells[r][c]])
        read = apply_changes(truth, ((r, c, truth.cells[r][c], wrong),))
        read = dataclasses.replace(read, par=optimum)
        solution = solve(read)
        if solution.length == optimum:
            assert check_counter(_recognition(read, {(r, c): truth.cells[r][c]}, 3), solution) is None
            continue
        cases += 1
        check = check_counter(_recognition(read, {(r, c): truth.cells[r][c]}, 3), solution)
        assert check is not None and check.complete and check.read_optimum == solution.length
        assert check.best is not None, "the true reading meets the counter, so it must be found"
        assert check.best.changes == ((r, c, wrong, truth.cells[r][c]),)
        assert check.best.board.cells == truth.cells
        assert check.best.solution.optimal and check.best.solution.length == optimum
    assert cases >= 20


def test_no_reading_is_offered_when_none_meets_the_counter():
    board = make_board([[0, 1, 0, 1], [1, 0, 1, 0]], par=1)  # far more than one move
    solution = solve(board)
    check = check_counter(_recognition(board, {(0, 0): 1}, 2), solution)
    assert check is not None and check.best is None and check.tried > 0


def test_alternatives_include_a_group_of_adjacent_cells_read_alike():
    board = make_board([[0, 0, 0, 0], [0, 1, 1, 0], [0, 0, 0, 0]], par=1)
    recognition = _recognition(board, {(1, 1): 0, (1, 2): 0}, 2)
    changes = [set(ch) for _, ch in candidate_changes(recognition, 100)]
    assert {(1, 1, 1, 0), (1, 2, 1, 0)} in changes
    assert {(1, 1, 1, 0)} in changes and {(1, 2, 1, 0)} in changes


def test_the_check_respects_its_time_limit():
    board = make_board([[0, 1, 0, 1], [1, 0, 1, 0]], par=1)
    check = check_counter(_recognition(board, {(0, 0): 1}, 2), solve(board), max_seconds=0.0)
    assert check is not None and not check.complete and check.tried == 0


def test_blank_readings_are_tried_where_blank_is_possible():
    board = make_board([[0, 0, 1], [1, 1, 1]], par=1)
    recognition = _recognition(board, {(0, 1): 1}, 2)
    costs = recognition.costs.copy()
    costs[0, 1, 2] = 0.05  # blank is possible there, and the cheapest other reading
    recognition = dataclasses.replace(recognition, costs=costs)
    assert recognition.other_readings()[0] == (np.float32(0.05), 0, 1, BLANK)


def test_a_check_where_most_readings_meet_the_counter_names_none():
    board = make_board([[0, 0, 0, 0], [0, 0, 0, 0]], par=2)  # 0 moves as read; any change needs 1 or 2
    recognition = _recognition(board, {(r, c): 1 for r in range(2) for c in range(4)}, 2)
    check = check_counter(recognition, solve(board))
    assert check is not None and check.tried > 5
    assert len(check.matching) > check.tried // 5 and not check.telling and check.best is None


def test_cells_a_person_fixed_stay_fixed_in_the_check():
    """Two cells misread; a person fixes one (A) on the page, and the counter is the true
    optimum: the check must build its readings on the fixed board and name the other (B),
    never offer A again (it used to re-solve readings of the board as first read)."""
    rng = random.Random(11)
    cases = 0
    for _ in range(300):
        truth = random_board(rng, "triangle", 5, 4, 3, 0.0)
        optimum = solve(truth).length
        (ra, ca), (rb, cb) = rng.sample([(r, c) for r in range(5) for c in range(4)], 2)
        wrong_a = rng.choice([v for v in range(3) if v != truth.cells[ra][ca]])
        wrong_b = rng.choice([v for v in range(3) if v != truth.cells[rb][cb]])
        read = apply_changes(truth, ((ra, ca, truth.cells[ra][ca], wrong_a), (rb, cb, truth.cells[rb][cb], wrong_b)))
        read = dataclasses.replace(read, par=optimum)
        fixed = apply_changes(read, ((ra, ca, wrong_a, truth.cells[ra][ca]),))
        solution = solve(fixed)
        if solution.length == optimum:
            continue
        cases += 1
        recognition = _recognition(read, {(ra, ca): truth.cells[ra][ca], (rb, cb): truth.cells[rb][cb]}, 3)
        check = check_counter(recognition, solution, board=fixed)
        assert check is not None and check.best is not None
        assert all((r, c) != (ra, ca) for alt in check.matching for r, c, _, _ in alt.changes)
        assert check.best.changes == ((rb, cb, wrong_b, truth.cells[rb][cb]),)
        assert check.best.board.cells == truth.cells
    assert cases >= 10


def test_the_check_searches_with_the_solves_settings(monkeypatch):
    """The readings are re-solved with the settings of the solve (its ``--max-memory-mb``
    above all), not with the machine's defaults."""
    from kamivision.check import parcheck
    from kamivision.solver import SearchSettings

    board = make_board([[0, 1, 0, 1], [1, 0, 1, 0]], par=1)
    solution = solve(board)
    given = SearchSettings(max_bytes=1_000_000, threads=1)
    seen = []
    monkeypatch.setattr(parcheck, "solve", lambda *args, **kw: seen.append(kw.get("settings")) or solve(*args, **kw))
    check = check_counter(_recognition(board, {(0, 0): 1}, 2), solution, settings=given)
    assert check is not None and check.tried == len(seen) > 0
    assert all(settings is given for settings in seen)


def test_a_pair_is_tried_when_its_second_cell_is_not_among_the_eight_cheapest():
    """Pairs are made of the sixteen cheapest single changes (eight before the check asked
    only within the counter): two misread cells that the counter needs together are tried,
    and meet it, though the second is the twelfth cheapest, behind ten doubtful cells read
    right, so that eight would never pair it."""

    rng, cases, met = random.Random(7), 0, 0
    while cases < 8:
        truth = random_board(rng, "triangle", 5, 4, 3, 0.0)
        optimum = solve(truth).length
        (ra, ca), (rb, cb), *decoys = rng.sample([(r, c) for r in range(5) for c in range(4)], 12)
        changes = tuple(
            (r, c, None, rng.choice([v for v in range(3) if v != truth.cells[r][c]])) for r, c in ((ra, ca), (rb, cb))
        )
        read = dataclasses.replace(apply_changes(truth, changes), par=optimum)
        solution = solve(read)
        alone = [apply_changes(read, ((r, c, None, truth.cells[r][c]),)) for r, c in ((ra, ca), (rb, cb))]
        if solution.length == optimum or any(solve(board).length == optimum for board in alone):
            continue  # not a case that needs both cells
        cases += 1
        recognition = _recognition(read, {(ra, ca): truth.cells[ra][ca], (rb, cb): truth.cells[rb][cb]}, 3)
        recognition.costs[ra, ca, truth.cells[ra][ca]] = 0.01
        recognition.costs[rb, cb, truth.cells[rb][cb]] = 0.3
        for r, c in decoys:  # doubtful, read right, with a runner-up cheaper than the second cell's
            recognition.confidence[r, c] = 0.0
            recognition.costs[r, c, (read.cells[r][c] + 1) % 3] = 0.1
        assert [(r, c) for _, r, c, _ in recognition.other_readings()].index((rb, cb)) >= 8
        check = check_counter(recognition, solution)
        assert check is not None and check.complete
        met += any({ch[:2] for ch in m.changes} == {(ra, ca), (rb, cb)} for m in check.matching)

    assert met >= 6  # (with 8 never: the rank asserted above is 8 or more)
