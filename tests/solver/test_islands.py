"""``solve`` under the free rules, island by island (:mod:`kamivision.solver.islands`): final colours, limits, Ctrl-C, the Journey levels."""

import dataclasses
import random
import time

import pytest

from kamivision.board import Move, make_board, parse_board, read_board
from kamivision.errors import KamiError
from kamivision.graph import build_regions
from kamivision.limits import Stop
from kamivision.report import note_text
from kamivision.solver import astar, limits, proof, solve, state
from kamivision.solver.islands import local_island
from kamivision.solver.notes import Stopped

from ..boards import first_island, kami_island, random_board, random_kami_board, replay
from ..conftest import machine, shared_path


def test_islands_share_a_final_color():
    # Two islands: 'ab' can end in a or b with one move; 'c' alone must be recolored.
    board = parse_board("ab.c", lattice="square")
    solution = solve(board)
    assert solution.length == 2 and solution.optimal
    assert replay(board, solution.moves).is_solved()


def test_single_color_board_needs_no_move():
    solution = solve(parse_board("aa\naa", lattice="square"))
    assert solution.length == 0 and solution.optimal


def test_limits_give_an_unproven_best_solution():
    board = read_board(shared_path("data", "kami2-journey", "19-3-Bud3.json"))
    solution = solve(board, max_nodes=50)
    assert not solution.optimal
    assert solution.lower_bound <= 17 <= solution.length
    assert replay(board, solution.moves).is_solved()


# Journey levels with their par (the game's target) that the suite proves quickly.
QUICK_LEVELS = ["06-5-Tritarg5", "11-6-Corners6", "13-1-Nuc1", "09-4-Islands4", "16-3-SJoin3"]


@pytest.mark.parametrize("name", QUICK_LEVELS)
def test_journey_levels_are_solved_at_par(name):
    board = read_board(shared_path("data", "kami2-journey", f"{name}.json"))
    solution = solve(board, max_seconds=60)
    assert solution.optimal
    assert solution.length == board.par
    assert replay(board, solution.moves).is_solved()
    assert all(isinstance(m, Move) for m in solution.moves)


def test_color_numbers_past_seven_and_fifteen_solve_the_same():
    """The compiled core stores a color in 3 bits when all are below 8, in 4 when below 16
    and in a byte otherwise: all three give the same optimum and the same expansions, and
    the same optimum as the Python search."""
    rng = random.Random(16)
    compared = 0
    for _ in range(40):
        board = random_board(rng, rng.choice(["triangle", "square"]), 4, 4, rng.randint(2, 4), 0.0)
        graph = build_regions(board)
        for mask in graph.islands():
            island, _ = local_island(graph, mask)
            if len(island) < 2:
                continue
            budgets = [limits.Budget() for _ in range(3)]
            paths = []
            for shift, budget in zip((0, 8, 16), budgets):
                shifted = state.Island(bytes(c + shift for c in island.colors), island.adjacency)
                paths.append(astar.astar(shifted, budget))
            slow = astar.astar(shifted, limits.Budget(settings=machine(core=False)))
            assert len(paths[0]) == len(paths[1]) == len(paths[2]) == len(slow)
            assert budgets[0].expanded == budgets[1].expanded == budgets[2].expanded
            key = shifted.colors
            for rep, color in paths[2]:  # the core's path, replayed: colors as given, one region left
                assert color >= 16
                key = state.key_after(key, state.contract(shifted, key).members[rep], color)
            reps = state.contract(shifted, key).reps
            assert reps & (reps - 1) == 0
            compared += 1
    assert compared >= 30


def _interrupt_at_first_report(calls: list):
    """A progress callback that raises KeyboardInterrupt, as Ctrl-C can inside it."""

    def progress(info: dict) -> None:
        calls.append(info)
        raise KeyboardInterrupt

    return progress


def test_ctrl_c_stops_like_a_limit_with_the_best_found(both):
    # Boards the search reports on before it ends: the compiled core first reports after
    # 4,096 states (this 5-color board takes > 20,000), the Python search after 1,024, which
    # it reaches in 9 s on that board and in 1 s on the 4-color one.
    if both.core:
        board = random_kami_board(random.Random(1), colors=5, blank_outline=False)
    else:
        board = random_kami_board(random.Random(2), colors=4, blank_outline=False)
    calls: list = []
    solution = solve(board, progress=_interrupt_at_first_report(calls), settings=both)
    assert len(calls) == 1  # stopped at once, no improving pass after it
    assert solution.interrupted and not solution.optimal
    assert solution.lower_bound < solution.length
    assert replay(board, solution.moves).is_solved()
    assert solution.notes == (Stopped(Stop.INTERRUPTED),)
    assert note_text(solution.notes[0]) == "Ctrl-C stopped the search: the moves are the best found, not proven optimal"


def test_ctrl_c_in_an_islands_first_flood_still_answers(monkeypatch):
    """Ctrl-C that reaches the flood an island starts with (it raises KeyboardInterrupt
    now, where it was lost before): the search stops at once and the greedy flood
    answers, said to be interrupted, not proven."""
    from kamivision.solver import islands

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(islands, "flood_from_centre", interrupted)
    board = random_kami_board(random.Random(1), colors=5, blank_outline=False)
    solution = solve(board, settings=machine())
    assert solution.interrupted and not solution.optimal
    assert replay(board, solution.moves).is_solved()
    assert solution.notes == (Stopped(Stop.INTERRUPTED),)


def test_the_paths_to_the_common_final_color_are_the_ones_found_for_it(monkeypatch):
    """An island whose optimum can also end in the islands' common final color takes the
    path the search for that color found (``_final_colors`` keeps it): no island is
    searched again when the moves are made.  Such a search ran without the solve's limits,
    and Ctrl-C in it escaped the solve as SearchStopped."""
    from kamivision.solver import islands

    board = random_board(random.Random(0), "triangle", 6, 6, 4, 0.3)  # 4 islands
    real_astar, real_replay = islands.astar, islands._replay
    making, taken = [], []

    def astar(*args, **kwargs):
        assert not making, "an island searched again while the moves are made"
        return real_astar(*args, **kwargs)

    def replay_moves(board, graph, solved, finals, target):
        making.append(1)
        moves = real_replay(board, graph, solved, finals, target)
        for (_, island, path, _, _), final in zip(solved, finals):
            if path and path[-1][1] != target and target in final:
                taken.append(final[target])
        return moves

    monkeypatch.setattr(islands, "astar", astar)
    monkeypatch.setattr(islands, "_replay", replay_moves)
    solution = solve(board, settings=machine())
    assert taken and all(path[-1][1] == taken[0][-1][1] for path in taken)  # they end in the target
    assert solution.optimal and solution.length == solution.lower_bound
    assert replay(board, solution.moves).is_solved()


def test_ctrl_c_stops_the_pivot_search_too(both):
    rng = random.Random(11)
    grid = [[rng.randrange(8) for _ in range(16)] for _ in range(16)]
    board = make_board(grid, lattice="square", rules="pivot")
    calls: list = []
    solution = solve(board, progress=_interrupt_at_first_report(calls), settings=both)
    assert len(calls) == 1
    assert solution.interrupted and not solution.optimal
    assert replay(board, solution.moves).is_solved()


def test_the_first_look_without_a_limit_keeps_every_answer_optimal(monkeypatch):
    """Issue 50, item 4: without a limit the proof first runs briefly, then pauses for
    flood beams to improve the answer, and goes on.  Forced here on every board (no time
    for the first proof), the answers are the optima a solve without the first look
    proves (a node limit turns it off)."""
    from kamivision.solver import islands

    monkeypatch.setattr(islands, "FIRST_PROOF_SECONDS", 0.0)
    monkeypatch.setattr(islands, "FIRST_IMPROVE_SECONDS", 0.05)
    beams = []
    improve = islands._improve
    monkeypatch.setattr(islands, "_improve", lambda *args: beams.append(args[4:]) or improve(*args))
    tried = 0
    for seed in range(8):
        if tried == 5:  # enough boards compared: the rest would only repeat them
            break
        board = random_kami_board(random.Random(seed), colors=5, blank_outline=seed % 2 == 0)
        before = len(beams)
        plain = solve(board, max_nodes=150_000)  # the boards a short proof settles (the rest are skipped)
        assert (0.05,) not in beams[before:]  # a node limit turns the first look off
        del beams[before:]  # (beams after a stop may have run)
        if not plain.optimal or plain.expanded >= 150_000:  # settled by the proof alone, not by a beam after it
            continue
        tried += 1
        answer = solve(board)
        assert answer.optimal and answer.length == plain.length
        assert replay(board, answer.moves).is_solved()
    assert tried >= 5
    assert beams.count((0.05,)) >= tried // 2  # the first proof stopped and the beams ran


def test_the_first_look_pauses_the_proof_which_goes_on_where_it_was_or_ends(monkeypatch):
    """The proof is not started again after the first look's beams.  When they cannot
    shorten the flood's answer, it expands the same states as a solve without the first
    look; when they bring an optimal answer, as short as the bound the proof has reached,
    the proof ends there, with fewer states."""
    from kamivision.solver import islands

    monkeypatch.setattr(islands, "FIRST_PROOF_SECONDS", 0.0)
    beams: dict = {}  # an island's colors: what the look's beams return for it
    looks = []
    monkeypatch.setattr(
        islands, "_improve", lambda island, best, *rest: looks.append(1) or beams.get(island.colors, best)
    )
    proven: dict = {}
    search = islands.astar
    monkeypatch.setattr(
        islands, "astar", lambda island, *a, **k: proven.setdefault(island.colors, search(island, *a, **k))
    )
    settings = machine(threads=1, handover_bytes=1 << 30)  # the A* alone: no handover, no look at it
    compared = ended = 0
    for seed in range(12):
        if compared >= 2 and ended >= 1:  # enough boards compared: the rest would only repeat them
            break
        board = random_kami_board(random.Random(100 + seed), colors=5, blank_outline=False)
        plain = solve(board, max_nodes=110_000, settings=settings)  # a node limit: no first look
        if not plain.optimal or plain.expanded < 10_000 or plain.islands != 1:
            continue  # (the look waits for the core's first progress call, after 4,096 states)
        proven.clear()
        before = len(looks)
        looked = solve(board, settings=dataclasses.replace(settings, first_look=True))
        assert len(looks) == before + 1  # it paused once
        assert looked.optimal and looked.length == plain.length
        assert looked.expanded == plain.expanded
        beams.update(proven)  # now the beams bring the optimum
        ending = solve(board, settings=dataclasses.replace(settings, first_look=True))
        assert ending.optimal and ending.length == plain.length
        assert replay(board, ending.moves).is_solved()
        compared += 1
        ended += ending.expanded < plain.expanded
    assert compared >= 2 and ended >= 1


def test_the_progress_reports_time_never_goes_back_after_the_first_look(monkeypatch):
    """The first look runs inside the core's progress call, and the report made after it
    carried the time the core had taken before the look: the progress line went from
    "1.8 s" (the look's beams) back to "1.0 s".  A look that takes a while and reports
    from inside (as the beams do) is followed by no earlier time."""
    from kamivision.solver import islands

    monkeypatch.setattr(islands, "FIRST_PROOF_SECONDS", 0.0)

    def slow_look(island, best, bound, budget, seconds=None):
        time.sleep(0.3)
        islands._beam_report(budget, bound)(len(best))  # as a beam reports what it found
        return best

    monkeypatch.setattr(islands, "_improve", slow_look)
    board = random_kami_board(random.Random(100), colors=5, blank_outline=False)  # 70,848 states to prove
    seen: list = []
    answer = solve(board, progress=seen.append, settings=dataclasses.replace(machine(threads=1), first_look=True))
    assert answer.optimal and any("best" in info for info in seen)  # the look reported
    times = [info["seconds"] for info in seen]
    assert times == sorted(times)


def test_a_cap_on_the_moves_finds_the_optimum_within_it_or_proves_there_is_none(both):
    """``solve(max_moves=k)``: an optimum within k is found and proven as without the cap;
    otherwise the bound says k + 1 (or the answer is optimal, when the first found is k + 1
    moves long), and ruling the short ones out costs fewer states than the whole proof."""
    capped_states = full_states = 0
    for seed in range(40 if both.core else 12):
        colors = 4 if both.core else 3  # (the Python search is a hundred times slower)
        board = random_kami_board(random.Random(seed), colors=colors, blank_outline=seed % 2 == 0)
        full = solve(board, max_nodes=100_000, settings=both)
        assert full.optimal
        for cap in range(max(0, full.length - 2), full.length + 1):
            answer = solve(board, max_nodes=100_000, max_moves=cap, settings=both)
            assert replay(board, answer.moves).is_solved()
            if answer.optimal:
                assert answer.length == full.length
            else:
                assert cap < full.length and answer.lower_bound == cap + 1
                assert answer.stopped is None and not any(
                    isinstance(note, Stopped) for note in answer.notes
                )  # an answer
            if cap == full.length - 2:
                capped_states, full_states = capped_states + answer.expanded, full_states + full.expanded
        assert solve(board, max_nodes=100_000, max_moves=full.length, settings=both).optimal
    assert capped_states < full_states / 2


def test_a_cap_on_the_moves_is_refused_for_a_fixed_pivot():
    board = make_board([[0, 1], [1, 0]], rules="pivot")
    with pytest.raises(KamiError, match="rules 'free' only"):
        solve(board, max_moves=3)


def test_the_progress_reports_say_when_the_memory_is_full():
    """Once the stored states fill the memory the proof goes on depth-first, slower: the
    progress reports say so from then on (and the command line's line shows it)."""
    from kamivision.report import progress_line
    from kamivision.solver import SearchSettings

    # A board whose proof stores more than 1 MB of states (seed 0's stopped doing so when
    # the path-flood corridor went per color, 2026-11-30).
    board = random_kami_board(random.Random(1), colors=5, blank_outline=False)
    reports: dict[int, list] = {}
    for max_bytes in (4 << 30, 1_000_000):
        reports[max_bytes] = []
        settings = SearchSettings(max_bytes=max_bytes, threads=1, first_look=False)
        assert solve(board, progress=reports[max_bytes].append, settings=settings).optimal
    assert reports[4 << 30] and not any(info.get("memory_full") for info in reports[4 << 30])
    full = [info for info in reports[1_000_000] if info.get("memory_full")]
    assert full, "the board's proof no longer fills 1 MB: the test needs a harder board"
    assert "memory full" in progress_line(full[-1])
    assert "memory full" not in progress_line(reports[4 << 30][-1])


def test_the_handovers_look_ends_at_the_first_solution_one_move_shorter(monkeypatch):
    """At the handover the A*'s bound is below the known length less one; the look's beam
    ends at the first solution one move shorter than the known one (its floor), not at
    the bound: the thresholds below are swept all the same, and looking on for more cost
    Bud4 0.6 s of its 3.2 s.  The answer is the optimum."""
    from kamivision.solver import islands
    from kamivision.solver.state import contract
    from kamivision.solver.upper import flood_from_centre

    board, island = first_island(5)  # optimum 8, the flood 9
    known = len(flood_from_centre(contract(island, island.colors), slack=2))
    real, floors = islands.flood_beam, []

    def beam(*args, **kwargs):
        floors.append(kwargs["floor"])
        return real(*args, **kwargs)

    monkeypatch.setattr(islands, "flood_beam", beam)
    solution = solve(board, settings=machine(handover_bytes=20_000, threads=1))  # handed over at a bound of 5
    assert floors == [known - 1]
    assert solution.optimal and solution.length == solution.lower_bound


def test_the_first_look_runs_in_the_sweeps_when_the_a_star_hands_over_before_it(monkeypatch):
    """A known solution lets the A* hand the thresholds left to the sweeps once it holds
    ``handover_bytes``, often before the first look's time.  The handover's own look (a
    width-4 beam for up to 30 s, during which nothing else moves) is then skipped: the
    first look runs in the sweeps' progress calls, once, and an optimal answer it brings
    ends the sweeps with fewer states (without it, the last sweep finds the optimum itself,
    at the end of its threshold)."""
    from kamivision.solver import core, islands

    if not core.AVAILABLE:
        pytest.skip("the compiled core kamivision.solver._core is not built (no C compiler?)")
    monkeypatch.setattr(islands, "FIRST_PROOF_SECONDS", 0.0)
    # The flood's answer takes 8 moves, the optimum 7 (about 140,000 states).
    board = random_kami_board(random.Random(2), colors=5, blank_outline=False)
    settings = machine(threads=1, handover_bytes=20_000)
    plain = solve(board, settings=settings)
    beams: list = []
    monkeypatch.setattr(islands, "flood_beam", lambda *a, **k: beams.append(1))  # the handover's look
    brought: list = [None]  # what the first look's beams return (None: nothing better)
    looks: list = []
    monkeypatch.setattr(
        islands, "_improve", lambda island, best, bound, *rest: looks.append(bound) or brought[0] or best
    )
    swept: list = []
    real = proof._sweep

    def spy(*args):
        swept.append(args[4].pause is not None)  # the budget: the look is pending
        return real(*args)

    monkeypatch.setattr(proof, "_sweep", spy)
    looked = solve(board, settings=dataclasses.replace(settings, first_look=True))
    assert swept == [True] and len(looks) == 1 and beams == []
    assert looked.optimal and looked.length == plain.length
    swept.clear()
    brought[0] = kami_island(2)[2]  # an optimal answer, for the same island
    ending = solve(board, settings=dataclasses.replace(settings, first_look=True))
    assert swept == [True] and ending.optimal and ending.length == plain.length
    assert ending.expanded < looked.expanded
