"""The solve queue: one process per solve, first come first served, cancel and close."""

from __future__ import annotations

import random
import time

import pytest

from kamivision.board import make_board, read_board
from kamivision.web.jobs import Job, JobQueue, QueueFull

from .test_app import SAMPLES


def hard_board():
    rng = random.Random(11)
    return make_board([[rng.randrange(6) for _ in range(24)] for _ in range(24)], lattice="square")


def wait_state(job: Job, states: tuple[str, ...], timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while job.state not in states and time.monotonic() < end:
        time.sleep(0.05)
    assert job.state in states, job.state


def test_jobs_run_in_order_a_waiting_one_can_be_cancelled_and_a_running_one_stops_with_its_best():
    queue = JobQueue(workers=1, max_waiting=2)
    try:
        long = queue.submit(Job(session="a", board=hard_board(), max_seconds=120))
        wait_state(long, ("running",))
        short = queue.submit(Job(session="b", board=read_board(SAMPLES / "patchwork.json"), max_seconds=30))
        third = queue.submit(Job(session="c", board=read_board(SAMPLES / "patchwork.json"), max_seconds=30))
        assert (queue.position(short), queue.position(third)) == (0, 1)
        try:
            queue.submit(Job(session="d", board=read_board(SAMPLES / "patchwork.json"), max_seconds=30))
            raise AssertionError("a third waiting job was taken")
        except QueueFull as error:
            assert "waiting" in str(error)
        queue.cancel(third)
        assert third.state == "cancelled" and queue.waiting == 1
        time.sleep(1.0)
        assert short.state == "queued"  # one worker: it waits for the long one
        queue.cancel(long)
        assert queue.wait(long, 10)
        assert long.state in ("done", "cancelled")
        if long.state == "done":
            assert long.solution.interrupted and not long.solution.optimal
        assert queue.wait(short, 30) and short.state == "done" and short.solution.optimal
        assert long.finished_at <= short.started_at  # first come, first served
    finally:
        queue.close()


def test_closing_the_queue_kills_the_solving_processes():
    queue = JobQueue(workers=1)
    job = queue.submit(Job(session="a", board=hard_board(), max_seconds=300))
    wait_state(job, ("running",))
    time.sleep(0.5)
    queue.close()  # returns only once the solving process is gone (the job had 300 s)
    assert job.finished and queue.running == 0


def test_the_page_gets_the_moves_the_command_line_gives(tmp_path):
    """Issue 49, item 1: the page's solve ran its own copy of what follows a solve, without
    the screenshot's geometry, so its markers were not spread as the command line's are
    (24 of 30 random boards gave other taps).  Now both run one sequence."""
    import dataclasses

    import cv2
    import numpy as np

    from kamivision.pipeline import Checked, Solved, solve_screenshot
    from kamivision.synth.render import board_palette, render
    from kamivision.web.jobs import solve_for_page

    from ..boards import random_kami_board

    for seed in (1, 3):
        board = random_kami_board(random.Random(seed), 3, blank_outline=True, par=None)
        board = dataclasses.replace(board, palette=tuple(board_palette(board, 1)))
        image, _ = render(board, "iphone-8", seed=1)
        path = tmp_path / f"shot{seed}.png"
        cv2.imwrite(str(path), cv2.cvtColor(np.clip(image, 0, 255).astype(np.uint8), cv2.COLOR_RGB2BGR))
        shot = solve_screenshot(path, check_seconds=0, max_seconds=20)
        events = []
        solve_for_page(shot.recognition.board, 20, shot.recognition, 0, events.append)
        answers = [event for event in events if isinstance(event, (Solved, Checked))]
        assert len(answers) == 1 and isinstance(answers[0], Solved) and not answers[0].checking
        assert answers[0].solution.moves == shot.solution.moves
        assert answers[0].doubt == shot.doubt


@pytest.mark.slow  # three solving processes for two options: run in CI (-m 'slow or not slow')
def test_the_solves_memory_and_disk_caps_reach_the_solving_process():
    """``serve --max-memory-mb``: the queue's solving processes store their states within
    it (the A* hands over to the sweeps sooner, which go to disk: another count of states
    expanded), with the same proven answer; with ``--max-disk-mb 0`` as well, the sweeps
    may not go to disk and the search goes on depth-first: a third count."""
    from ..boards import random_kami_board

    # A board whose proof stores more than 1 MB of states (seed 0's stopped doing so when
    # the path-flood corridor went per color, 2026-11-30).
    board = random_kami_board(random.Random(1), colors=5, blank_outline=False)
    solutions = []
    for max_mb, max_disk_mb in ((None, None), (1, None), (1, 0)):
        queue = JobQueue(workers=1, max_mb=max_mb, max_disk_mb=max_disk_mb)
        try:
            job = queue.submit(Job(session="a", board=board, max_seconds=60))
            assert queue.wait(job, 60) and job.state == "done", job.state
            solutions.append(job.solution)
        finally:
            queue.close()
    plain, capped, no_disk = solutions
    assert plain.optimal and capped.optimal and no_disk.optimal
    assert capped.length == plain.length == no_disk.length
    assert len({plain.expanded, capped.expanded, no_disk.expanded}) == 3


def test_the_sweeps_region_count_reaches_the_page(monkeypatch):
    """The last threshold's sweep reports the region count it is at and the one it started
    from (the page's line says "down to 71 of 78 regions"): both go through the solving
    process's filter of what the page is sent, as numbers."""
    import kamivision.solver as solver
    from kamivision.pipeline import Progressed
    from kamivision.web.jobs import solve_for_page

    real = solver.solve

    def sweeping(board, *args, progress=None, **kwargs):
        progress({"expanded": 4096, "bound": 16, "seconds": 20.0, "found": 17, "regions": 71, "regions_from": 78})
        return real(board, *args, progress=progress, **kwargs)

    monkeypatch.setattr(solver, "solve", sweeping)
    sent: list = []
    solve_for_page(make_board([[0, 1], [1, 0]]), 10, None, 1, sent.append)
    reports = [event.info for event in sent if isinstance(event, Progressed)]
    assert reports and reports[0]["regions"] == 71 and reports[0]["regions_from"] == 78
