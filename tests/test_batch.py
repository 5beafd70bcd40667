"""The one batch runner: order, the run's clock, a stream read as it goes, Ctrl-C's row."""

import itertools

from kamivision import batch


def square(item, seconds):
    return item * item, seconds


def test_one_process_yields_in_order_with_each_boards_limit():
    rows = list(batch.run(range(5), square, max_seconds=7.0))
    assert rows == [(i * i, 7.0) for i in range(5)]


def test_a_pool_yields_the_same_rows_in_order():
    rows = list(batch.run(range(40), square, jobs=2, max_seconds=3.0, chunksize=4))
    assert rows == [(i * i, 3.0) for i in range(40)]
    unordered = list(batch.run(range(40), square, jobs=2, ordered=False))
    assert sorted(unordered) == [(i * i, None) for i in range(40)]


def test_a_spent_run_starts_no_board_and_limits_are_cut_to_what_is_left():
    assert list(batch.run(range(5), square, total_seconds=0.0)) == []
    (row,) = batch.run([3], square, max_seconds=1e9, total_seconds=60.0)
    assert 0 < row[1] <= 60.0


def test_an_interrupted_row_is_yielded_and_ends_the_run():
    rows = list(batch.run(range(10), square, interrupted=lambda row: row[0] == 9))
    assert [r[0] for r in rows] == [0, 1, 4, 9]


def test_a_stream_is_read_as_the_run_goes_never_whole():
    taken = itertools.count()

    def stream():
        for i in range(10_000):
            next(taken)
            yield i

    rows = batch.run(stream(), square, jobs=2)
    assert next(rows) == (0, None)
    assert next(taken) <= batch.LOOK_AHEAD * 2 + 1
    rows.close()
