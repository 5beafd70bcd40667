"""The textbook searches on a toy problem: shortest paths, no solution, limits, Ctrl-C."""

from __future__ import annotations

import pytest

from kamivision.puzzles.search import Limits, Stop, astar, idastar


class Line:
    """Walk on 0..n-1 by +1 or +2 (or only +2); the goal is n-1."""

    def __init__(self, n: int, steps=(1, 2), start: int = 0):
        self.n, self.steps, self.first = n, steps, start

    def start(self):
        return self.first

    def is_goal(self, state):
        return state == self.n - 1

    def moves(self, state):
        for step in self.steps:
            if state + step < self.n:
                yield step, state + step


def zero(state):
    return 0


def test_both_searches_find_a_shortest_path():
    for search in (astar, idastar):
        result = search(Line(10), zero)
        assert result.optimal and result.length == 5 and sum(result.moves) == 9


def test_astar_reports_no_solution_when_the_states_run_out():
    result = astar(Line(10, steps=(2,)), zero)  # 9 is odd: never reached from 0
    assert result.unsolvable and result.moves is None and result.optimal
    assert idastar(Line(10, steps=(2,)), zero).unsolvable  # a finite tree is exhausted too


def test_a_none_bound_marks_a_dead_start():
    result = astar(Line(10), lambda s: None)
    assert result.unsolvable and result.expanded == 0


def test_limits_stop_with_the_bound_reached():
    result = astar(Line(10_000), zero, Limits(max_nodes=50))
    assert result.moves is None and result.stopped is Stop.LIMIT and not result.optimal and result.lower_bound >= 1
    result = idastar(Line(10_000), zero, Limits(max_nodes=50))
    assert result.stopped is Stop.LIMIT


def test_ctrl_c_stops_with_the_bound_reached():
    calls = []

    def interrupting(state):
        calls.append(state)
        if len(calls) > 20:
            raise KeyboardInterrupt
        return 0

    for search in (astar, idastar):
        calls.clear()
        result = search(Line(1000), interrupting)
        assert result.stopped is Stop.INTERRUPTED and result.moves is None


def test_progress_is_reported():
    import time

    seen = []

    def slow(state):
        if state % 500 == 0:
            time.sleep(0.01)
        return 0

    result = astar(Line(60_000, steps=(1,)), slow, Limits(progress=seen.append))  # about 1.2 s
    assert result.length == 59_999
    assert seen and {"expanded", "bound", "seconds"} <= set(seen[0])


@pytest.mark.parametrize("n", [1, 2, 3])
def test_a_start_at_the_goal_takes_no_move(n):
    assert astar(Line(n, start=n - 1), zero).length == 0
