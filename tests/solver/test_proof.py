"""The proof's sweeps and the race of the path-flood bound (:mod:`kamivision.solver.proof`);
the handover itself is tested in test_core.py."""

import time
import types

import pytest

from kamivision.solver import core, limits, proof, solve

from ..boards import kami_island, replay
from ..conftest import machine


@pytest.fixture
def sweeps(monkeypatch):
    """Every sweep the proof makes, as (within, paths, flood, max_seconds, status,
    seconds, near_root), flood True when it takes the path-flood bound at every state (a race's way
    without takes it near the root only: SHALLOW_DEPTH), with ``slow[flood]`` seconds
    added to the sweeps made that way (so the race's winner is known), and races from
    any time on (RACE_FROM 0); near_root: it takes the bound at depth SHALLOW_DEPTH at most."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    calls, slow = [], {True: 0.0, False: 0.0}
    real = proof.sweep
    # The proof's clock runs only in the sweeps, by what each took here: its times are
    # these (a loaded machine's pauses between the calls count nowhere).
    clock = [0.0]
    monkeypatch.setattr(proof, "time", types.SimpleNamespace(perf_counter=lambda: clock[0]))

    def sweep(g, **kwargs):
        started = time.perf_counter()
        answer = real(g, **kwargs)
        flood = kwargs["path_flood"] and kwargs["flood_depth"] is None
        time.sleep(slow[flood])
        took = time.perf_counter() - started
        clock[0] += took
        near_root = kwargs["path_flood"] and kwargs["flood_depth"] == proof.SHALLOW_DEPTH
        calls.append((kwargs["within"], kwargs["paths"], flood, kwargs["max_seconds"], answer.status, took, near_root))
        return answer

    monkeypatch.setattr(proof, "sweep", sweep)
    monkeypatch.setattr(proof, "RACE_FROM", 0.0)
    return calls, slow


def _prove(island, optimum, path_flood):
    """The proof that ``optimum`` is optimal on ``island``, handed over to the sweeps at
    once (20 kB): they refute every threshold from the A*'s bound up to one move less."""
    budget = limits.Budget(settings=machine(handover_bytes=20_000, threads=1, path_flood=path_flood))
    return proof.prove(island, budget, upper=(len(optimum), optimum))


@pytest.mark.parametrize("slower", [True, False])
def test_the_race_sweeps_a_threshold_again_the_other_way_and_the_faster_takes_the_next(sweeps, slower):
    calls, slow = sweeps
    slow[slower] = 0.2  # that way loses every race, by far
    _, island, optimum = kami_island(1)
    path = _prove(island, optimum, None)
    assert len(path) == len(optimum)  # the same answer: the bound is admissible either way
    first = [call for call in calls if not call[1]]  # the passes without moves
    raced = [i for i in range(1, len(first)) if first[i][0] == first[i - 1][0]]
    assert raced, calls  # a threshold swept twice: the race ran
    for i in raced:
        before, again = first[i - 1], first[i]
        assert before[4] == core.Status.NONE and again[2] != before[2]  # the other way
        assert again[3] == pytest.approx(2 * before[5])  # at most twice as long
        later = [call for call in first[i + 1 :] if call[0] > before[0]]
        assert later and later[0][2] is not slower  # the faster way sweeps the next threshold
    # The way without takes the bound near the root, and only there.
    assert all(call[6] != call[2] for call in calls), calls
    last = max(call[0] for call in first)
    assert [call[0] for call in first].count(last) == 1  # the last threshold is not raced
    assert last == len(optimum) - 1
    # Every sweep refutes its threshold, but a race's second, whose limit is twice a first
    # of a few milliseconds: on a loaded machine its own limit may stop it first.
    assert all(
        call[4] == core.Status.NONE or (i in raced and call[4] == core.Status.LIMIT) for i, call in enumerate(first)
    )


def test_without_the_race_every_sweep_is_made_one_way(sweeps):
    calls, _ = sweeps
    _, island, optimum = kami_island(1)
    for flood in (False, True):
        calls.clear()
        assert len(_prove(island, optimum, flood)) == len(optimum)
        withins = [call[0] for call in calls if not call[1]]
        assert calls and {call[2] for call in calls} == {flood} and len(withins) == len(set(withins))
        assert not any(call[6] for call in calls)  # asked for none, it takes none


def test_ctrl_c_in_the_races_second_sweep_stops_the_proof(sweeps, monkeypatch):
    calls, _ = sweeps
    real = proof.sweep

    def interrupted(g, **kwargs):
        answer = real(g, **kwargs)
        if len(calls) == 2:  # the race's second sweep
            return core.Answer(core.Status.INTERRUPTED, None, answer.expanded, answer.bound)
        return answer

    monkeypatch.setattr(proof, "sweep", interrupted)
    _, island, optimum = kami_island(1)
    budget = limits.Budget(settings=machine(handover_bytes=20_000, threads=1, path_flood=None))
    with pytest.raises(limits.SearchStopped) as stop:
        proof.prove(island, budget, upper=(len(optimum), optimum))
    assert budget.interrupted and calls[0][0] == calls[1][0] and stop.value.bound == calls[0][0] + 1


def test_a_race_not_won_by_the_margin_keeps_the_way_it_had(sweeps, monkeypatch):
    """The other way takes the next threshold only when it was RACE_MARGIN times as fast
    (a near tie says nothing of the next threshold): with a margin no race can win, every
    threshold is swept first with the bound everywhere (the way a race starts from),
    however much faster it is near the root only."""
    calls, slow = sweeps
    slow[True] = 0.2
    monkeypatch.setattr(proof, "RACE_MARGIN", 1e6)
    _, island, optimum = kami_island(1)
    assert len(_prove(island, optimum, None)) == len(optimum)
    first = [call for call in calls if not call[1]]
    raced = [i for i in range(1, len(first)) if first[i][0] == first[i - 1][0]]
    assert raced and not any(first[i][2] for i in raced)  # the races ran, near the root second
    assert all(first[i][2] for i in range(len(first)) if i not in raced)


@pytest.mark.parametrize("where", ["astar", "sweep"])
def test_ctrl_c_as_a_core_call_returns_stops_the_proof_with_an_answer(monkeypatch, where):
    """Ctrl-C that lands as a core call ends (after its last look at the signals) is raised
    by Python on the call's return: the whole solve ended without an answer ("kamivision:
    interrupted", seen once in six runs of benchmarks/first_answer.py on Threegrid4).  Now
    the proof stops there as at a limit, with the bound proven before the call."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    board, island, optimum = kami_island(1)
    real = getattr(proof, where)
    calls = []

    def tail(*args, **kwargs):
        answer = real(*args, **kwargs)
        calls.append(kwargs.get("within"))
        if len(calls) == 2 or where == "astar":  # the A*, or the sweep after the first one
            raise KeyboardInterrupt  # as the signal pending when the core returned
        return answer

    monkeypatch.setattr(proof, where, tail)
    budget = limits.Budget(settings=machine(handover_bytes=20_000, threads=1))
    with pytest.raises(limits.SearchStopped) as stop:
        proof.prove(island, budget, upper=(len(optimum), optimum))
    assert budget.interrupted and stop.value.path is None  # nothing shorter was found
    colors = len(set(island.colors)) - 1
    assert stop.value.bound == (colors if where == "astar" else calls[0] + 1)  # the first sweep refuted its T
    calls.clear()
    solution = solve(board, settings=machine(handover_bytes=20_000, threads=1))  # the same, through solve
    assert solution.interrupted and not solution.optimal and replay(board, solution.moves).is_solved()


def test_ctrl_c_before_the_first_search_stops_with_the_colors_bound(monkeypatch):
    """Ctrl-C in the Python before the core's first search (here as the winding bound's
    orientation, a call of some milliseconds, returns): a stop with the colors present
    less one as the bound, not a KeyboardInterrupt out of the solve."""
    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    _, island, optimum = kami_island(1)

    def interrupted(packed):
        raise KeyboardInterrupt

    monkeypatch.setattr(proof, "choose_orientation", interrupted)
    budget = limits.Budget(settings=machine(threads=1))
    with pytest.raises(limits.SearchStopped) as stop:
        proof.prove(island, budget, upper=(len(optimum), optimum))
    assert budget.interrupted and stop.value.path is None
    assert stop.value.bound == len(set(island.colors)) - 1
