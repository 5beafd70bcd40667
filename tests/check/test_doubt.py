"""Doubt tied to the answer: the bitset replay against the board's own moves, the cells
shown (each one really changes the moves under a reading) and the cells not shown (none
of their readings, alone or with an adjacent doubtful cell, changes them), the moves
chosen to avoid the doubt, and the verdict's three wordings."""

from __future__ import annotations

import dataclasses
import random
from typing import Optional

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kamivision.board import BLANK, Board, Move, make_board, neighbor_table
from kamivision.check.doubt import Doubt, Replay, assess, plausible_readings
from kamivision.check.steady import other_optimal_answers, retap, steady_moves
from kamivision.graph import build_regions
from kamivision.pipeline import settle
from kamivision.report import doubt_summary, search_text, verdict
from kamivision.solver import solve
from kamivision.vision import Recognition

from ..boards import random_board
from ..conftest import examples


def naive_steps(board: Board, moves, changes: dict) -> Optional[int]:
    """The reference: apply the moves one by one with :meth:`Board.apply`; after how many
    the board is one color, None when a move taps a blank or it never is."""
    flat = board.colors()
    for cell, value in changes.items():
        flat[cell] = value
    colors = max([board.color_count] + [m.color + 1 for m in moves])  # the same palette, whatever is changed
    current = dataclasses.replace(
        board,
        cells=tuple(tuple(flat[i : i + board.columns]) for i in range(0, len(flat), board.columns)),
        palette=("#000000",) * colors,
    )
    if current.is_solved():
        return 0
    for k, move in enumerate(moves):
        if current.cells[move.row][move.column] is BLANK:
            return None
        current = current.apply(move)
        if current.is_solved():
            return k + 1
    return None


def recognition_of(board: Board, doubtful: dict, colors: int, blank: bool = False) -> Recognition:
    """A recognition of ``board`` whose uncertain cells are ``doubtful`` (cell -> the cost
    of every other reading; 1.0 for the others); blank possible when ``blank``."""
    rows, cols = board.rows, board.columns
    confidence = np.ones((rows, cols), np.float32)
    costs = np.ones((rows, cols, colors + 1), np.float32)
    if not blank:
        costs[..., colors] = np.inf
    for cell, value in enumerate(board.colors()):
        costs[cell // cols, cell % cols, colors if value is BLANK else value] = 0.0
    for cell, cost in doubtful.items():
        r, c = divmod(cell, cols)
        confidence[r, c] = 0.0
        for k in range(colors + (1 if blank else 0)):
            if costs[r, c, k] > 0:
                costs[r, c, k] = cost
    return Recognition(board, None, confidence, np.ones((rows, cols), np.float32), 1.0, 0.0, 0.0, costs=costs)


boards = st.builds(
    lambda seed, lattice, rows, cols, colors, blank: random_board(
        random.Random(seed), lattice, rows, cols, colors, blank
    ),
    st.integers(0, 10**6),
    st.sampled_from(["triangle", "square"]),
    st.integers(2, 7),
    st.integers(2, 6),
    st.integers(2, 4),
    st.sampled_from([0.0, 0.0, 0.15]),
)


@settings(max_examples=examples(150), deadline=None)
@given(boards, st.integers(0, 10**6))
def test_the_replay_agrees_with_applying_the_moves_one_by_one(board, seed):
    rng = random.Random(seed)
    solution = solve(board, max_nodes=20_000)
    replay = Replay(board, solution.moves)
    assert replay.steps == naive_steps(board, solution.moves, {}) == solution.length
    cells = [i for i in range(board.size)]
    for _ in range(12):
        chosen = rng.sample(cells, rng.choice([1, 1, 2, 3]))
        changes = {cell: rng.choice([BLANK, *range(board.color_count)]) for cell in chosen}
        assert replay.solved_after(changes) == naive_steps(board, solution.moves, changes), changes


@settings(max_examples=examples(120), deadline=None)
@given(boards, st.integers(0, 10**6))
# Found by CI: all five doubtful cells held together, a confusion's pass then blamed two,
# and the other three failed together unseen (the rest was not tried again).
@example(board=random_board(random.Random(4), "triangle", 2, 4, 2, 0.15), seed=171951)
def test_every_cell_shown_matters_and_every_cell_not_shown_does_not(board, seed):
    rng = random.Random(seed)
    solution = solve(board, max_nodes=20_000)
    colored = [i for i, v in enumerate(board.colors()) if v is not None]
    doubtful = {cell: rng.choice([0.1, 0.2, 0.4]) for cell in rng.sample(colored, min(len(colored), rng.randint(1, 6)))}
    recognition = recognition_of(board, doubtful, board.color_count, blank=rng.random() < 0.3)
    plausible = plausible_readings(recognition)
    assert set(plausible) == set(doubtful)
    # Limited by states, not time (a search over other answers can take seconds a board).
    moves, doubt = steady_moves(board, solution.moves, plausible, solution.optimal, None, 10, max_states=2_000)
    assert naive_steps(board, moves, {}) == solution.length  # still an answer of the board as read
    n = len(moves)
    for cell, reading in zip(doubt.matters, doubt.breaking):
        assert cell in dict(reading)
        assert all(value in plausible[c] for c, value in reading)
        assert naive_steps(board, moves, dict(reading)) != n
    quiet = {cell: plausible[cell][0] for cell in set(doubtful) - set(doubt.matters) if plausible[cell]}
    assert naive_steps(board, moves, quiet) == n  # together, at their likeliest other readings
    flat = board.colors()
    for read, other in {(flat[c], v) for c, v in quiet.items()}:  # and each confusion's cells on their own
        group = {c: v for c, v in quiet.items() if flat[c] == read and v == other}
        assert naive_steps(board, moves, group) == n, group
    table = neighbor_table(board.lattice, board.rows, board.columns)
    for cell in set(doubtful) - set(doubt.matters):
        for value in plausible[cell]:
            assert naive_steps(board, moves, {cell: value}) == n, (cell, value)
        for other in table[cell]:
            if other in plausible and other not in doubt.matters:
                for va in plausible[cell]:
                    for vb in plausible[other]:
                        assert naive_steps(board, moves, {cell: va, other: vb}) == n


def test_a_confident_reading_has_no_doubt_and_says_so():
    board = make_board([[0, 0, 1], [1, 1, 2], [2, 0, 0]], lattice="square", par=3)
    solution = solve(board)
    fixed, doubt = settle(recognition_of(board, {}, 3), solution)
    assert doubt.doubtful == () and doubt.matters == ()
    assert fixed.moves == solution.moves
    text = verdict(fixed, board.par, doubt, board.columns)
    assert text.startswith(f"{solution.length} moves, proven optimal; every cell read with confidence")
    assert "evidence" in text and "not proof" in text


def test_a_tap_on_a_doubtful_cell_is_moved_within_its_region():
    # Two stripes: tapping the left stripe anywhere solves it in one move.
    board = make_board([[0, 1], [0, 1], [0, 1], [0, 1]], lattice="square")
    moves = [Move(0, 0, 1)]
    doubtful = {0: 0.1}  # the tapped cell may be color 1: then the tap would do nothing
    plausible = plausible_readings(recognition_of(board, doubtful, 2))
    assert plausible == {0: (1,)}
    assert assess(board, moves, plausible).matters == (0,)
    moved = retap(board, moves, list(plausible))
    assert moved != moves and moved[0].column == 0 and moved[0].row >= 2
    assert assess(board, moved, plausible).matters == ()


def test_another_order_is_chosen_when_it_avoids_the_doubt():
    # 0 1 2: "right to 1, then left to 1" solves it in two.  If the left cell is really 1,
    # the first move already solves it (one move less: the answer changes); the other
    # order holds under both readings.
    board = make_board([[0, 1, 2]], lattice="square")
    moves = [Move(0, 2, 1), Move(0, 0, 1)]
    assert naive_steps(board, moves, {}) == 2
    plausible = plausible_readings(recognition_of(board, {0: 0.1}, 3))
    assert 1 in plausible[0]
    assert assess(board, moves, plausible).matters == (0,)
    chosen, doubt = steady_moves(board, moves, plausible, optimal=True, seconds=None)
    assert len(chosen) == 2 and naive_steps(board, chosen, {}) == 2
    for value in plausible[0]:
        assert naive_steps(board, chosen, {0: value}) == 2
    assert doubt.matters == () and doubt.search.held and doubt.search.length == 2
    assert "hold" in search_text(doubt.search)
    solution = dataclasses.replace(solve(board), moves=tuple(chosen))
    assert "these moves solve it whatever the 1 doubtful cell is" in verdict(solution, None, doubt, board.columns)


def test_a_doubtful_cell_that_would_lower_the_optimum_never_gets_an_unqualified_claim():
    """0 1 2 1 0 needs 2 moves (the middle to 1, then all to 0).  Were the middle cell
    really 1, one move would do, yet the same two moves still solve that board in two: the
    cell does not change the moves, but it changes the optimum.  The verdict must not call
    the answer optimal, or say it holds, beyond the board as read; and a counter showing
    the true board's 1 is not turned into "a cell is probably misread"."""
    board = make_board([[0, 1, 2, 1, 0]], lattice="square")
    solution = solve(board)
    assert solution.optimal and solution.length == 2
    plausible = plausible_readings(recognition_of(board, {2: 0.1}, 3))
    assert 1 in plausible[2]
    truth = make_board([[0, 1, 1, 1, 0]], lattice="square")
    assert solve(truth).length == 1
    doubt = assess(board, solution.moves, plausible)
    assert doubt.doubtful == (2,) and doubt.matters == ()
    text = verdict(solution, 1, doubt, board.columns)
    assert "proven optimal for the board as read; these moves solve it whatever the 1 doubtful cell is" in text
    assert "holds" not in text and "proven optimal;" not in text
    assert "the board as read needs 2: the board may be misread, or this is not the level's start" in text
    assert "probably" not in text and "1 moves" not in text


def test_cells_that_change_the_moves_are_named_in_the_verdict():
    board = make_board([[0, 1, 2, 3]], lattice="square")
    solution = solve(board)
    # Every cell doubtful, each possibly blank: a blank tap or a cut region breaks any answer.
    doubtful = {i: 0.1 for i in range(4)}
    recognition = recognition_of(board, doubtful, 4, blank=True)
    fixed, doubt = settle(recognition, solution)
    assert doubt.matters
    text = verdict(fixed, None, doubt, board.columns)
    assert "proven optimal for the board as read; check cell" in text and "the moves change" in text
    assert f"({doubt.matters[0] // 4},{doubt.matters[0] % 4})" in text


def test_the_summary_counts_the_harmless_cells():
    doubt = Doubt(doubtful=(1, 2, 3, 4), matters=(2,))
    assert doubt_summary(doubt) == "3 other doubtful cells do not change these moves"
    assert doubt_summary(Doubt(doubtful=(5,))) == "1 doubtful cell does not change these moves"
    assert doubt_summary(Doubt()) is None


def test_colors_in_doubt_are_never_called_proven_without_the_caveat():
    board = make_board([[0, 1]], lattice="square")
    solution = solve(board)
    from kamivision.vision.palette import Disagreement, PaletteDoubt

    text = verdict(solution, None, Doubt(palette=PaletteDoubt(Disagreement.SHARED)), 2)
    assert "for the board as read, but the colors themselves are in doubt" in text
    assert "(two swatches match one color of the board)" in text


def test_cells_misread_together_by_one_confusion_are_shown_when_they_change_the_moves():
    """Misreads come together from one cause (JPEG bringing one color near another): the
    cells read as one value whose likeliest other reading is one other value are replayed
    together, even where all the doubtful cells together happen to leave the moves as they
    are.  Seeds 225, 278 and 374 are boards where that happens (found by searching the
    first 400), checked with some others."""
    confused = 0
    for seed in [*range(40), 225, 278, 374]:
        rng = random.Random(seed)
        board = random_board(
            rng, rng.choice(["triangle", "square"]), rng.randint(3, 6), rng.randint(3, 6), rng.randint(2, 4), 0.0
        )
        solution = solve(board, max_nodes=rng.choice([1, 20_000]))
        doubtful = {c: 0.2 for c in rng.sample(range(board.size), rng.randint(3, 8))}
        plausible = plausible_readings(recognition_of(board, doubtful, board.color_count))
        doubt = assess(board, solution.moves, plausible)
        n, flat = solution.length, board.colors()
        every = {c: plausible[c][0] for c in doubtful if plausible[c]}
        quiet = {c: v for c, v in every.items() if c not in doubt.matters}
        for read, other in {(flat[c], v) for c, v in quiet.items()}:
            group = {c: v for c, v in quiet.items() if flat[c] == read and v == other}
            assert naive_steps(board, solution.moves, group) == n, (seed, group)
        for read, other in {(flat[c], v) for c, v in every.items()}:
            group = {c: v for c, v in every.items() if flat[c] == read and v == other}
            confused += naive_steps(board, solution.moves, every) == n != naive_steps(board, solution.moves, group)
    assert confused >= 3  # boards where only a confusion's own replay finds the cells


def _all_answers(board: Board, length: int) -> set[tuple[Move, ...]]:
    """Every sequence of ``length`` region-merging moves that leaves one region, by plain
    enumeration (no bound, no memory of states): what other_optimal_answers must yield."""
    from kamivision.solver.state import Island, apply_merge, contract, merging_moves

    graph = build_regions(board)
    start = contract(Island(bytes(graph.colors), graph.adjacency), bytes(graph.colors))
    out = set()

    def walk(state, path):
        if state.reps & (state.reps - 1) == 0:
            if len(path) == length:
                out.add(tuple(path))
            return
        if len(path) == length:
            return
        for rep, color, merged in merging_moves(state):
            cell = (graph.cells[rep] & -graph.cells[rep]).bit_length() - 1
            walk(
                apply_merge(state, rep, color, merged),
                [*path, Move(cell // board.columns, cell % board.columns, color)],
            )

    walk(start, [])
    return out


def test_other_optimal_answers_are_every_optimal_answer_once():
    """The search for other answers prunes by admissible bounds and skips states already
    searched in vain: on small boards it yields exactly the answers a plain enumeration
    finds, each once."""
    tried = 0
    for seed in range(60):
        rng = random.Random(seed)
        board = random_board(rng, rng.choice(["triangle", "square"]), rng.randint(2, 4), rng.randint(2, 4), 3, 0.0)
        solution = solve(board)
        if len(build_regions(board).islands()) != 1 or not 2 <= solution.length <= 4:
            continue
        found = [tuple(answer) for answer in other_optimal_answers(board, solution.length, max_states=10**6)]
        assert len(found) == len(set(found))
        assert set(found) == _all_answers(board, solution.length)
        tried += 1
    assert tried >= 20
