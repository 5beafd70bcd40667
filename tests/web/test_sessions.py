"""The sessions the page works on (:mod:`kamivision.web.sessions`): opening one from an
upload or a review, and the in-memory store that bounds them and keeps their answers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from kamivision.board import make_board, read_board
from kamivision.errors import KamiError
from kamivision.geometry import Geometry
from kamivision.review import ReviewModel
from kamivision.solver import solve
from kamivision.web.jobs import Job
from kamivision.web.sessions import (
    MemoryStore,
    NoSession,
    RateLimited,
    Session,
    StoreFull,
    session_from_review,
    session_from_upload,
)

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
BOARD = make_board([[0, 1, 0], [1, 1, 0]], lattice="square", palette=("#ffffff", "#000000"))


def session(pixels: int = 100, touched: float | None = None) -> Session:
    """A small session over a grey picture of ``pixels`` pixels (3 bytes each)."""
    made = Session(
        name="s",
        image=np.zeros((1, pixels, 3), np.uint8),
        geometry=Geometry((0, 0, 30, 20), (0, 20)),
        model=ReviewModel(board=BOARD),
        read=BOARD,
    )
    if touched is not None:
        made.touched = touched
    return made


def test_the_store_drops_the_least_recently_used_idle_session_and_keeps_busy_and_pinned_ones():
    store = MemoryStore(max_sessions=3)
    pinned, busy, old, new = session(touched=1.0), session(touched=2.0), session(touched=3.0), session(touched=4.0)
    store.add(pinned, pinned=True)
    store.add(busy)
    busy.job = Job(session=busy.id, board=BOARD, max_seconds=1)  # queued: not finished
    store.add(old)
    store.add(new)  # full: the idle one touched longest ago goes, whatever else is older
    assert {pinned.id, busy.id, new.id} == {s for s in store._sessions}
    with pytest.raises(NoSession):
        store.get(old.id)
    new.job = Job(session=new.id, board=BOARD, max_seconds=1)
    with pytest.raises(StoreFull):
        store.add(session())  # every session left is busy or pinned


def test_the_store_makes_room_by_bytes_and_lets_idle_sessions_expire(monkeypatch):
    store = MemoryStore(max_sessions=10, max_bytes=1000, idle_seconds=60)
    first, second = session(pixels=200, touched=100.0), session(pixels=200, touched=150.0)  # 600 bytes each
    monkeypatch.setattr("time.time", lambda: 150.0)
    store.add(first)
    store.add(second)  # 1,200 bytes would not fit: the first goes
    assert set(store._sessions) == {second.id}
    with pytest.raises(StoreFull):
        store.add(session(pixels=400))  # 1,200 bytes alone: more than the store may hold
    monkeypatch.setattr("time.time", lambda: 150.0 + 61)
    store.add(session(pixels=10))  # the second has been idle past its time
    assert second.id not in store._sessions and len(store) == 1


def test_requests_are_counted_per_kind_address_and_minute(monkeypatch):
    store = MemoryStore()
    monkeypatch.setattr("time.time", lambda: 600.0)
    for _ in range(3):
        store.count("uploads", "10.0.0.1", 3)
    with pytest.raises(RateLimited) as refused:
        store.count("uploads", "10.0.0.1", 3)
    assert "3 uploads a minute" in str(refused.value) and 0 < refused.value.retry_after <= 60
    store.count("uploads", "10.0.0.2", 3)  # another address
    store.count("solves", "10.0.0.1", 3)  # another kind
    monkeypatch.setattr("time.time", lambda: 660.0)
    store.count("uploads", "10.0.0.1", 3)  # a new minute


def test_a_finished_job_puts_its_answer_in_its_session_and_a_replaced_one_does_not():
    store = MemoryStore()
    kept = store.add(session())
    stale = Job(session=kept.id, board=BOARD, max_seconds=1, state="done", solution=solve(BOARD))
    current = Job(session=kept.id, board=BOARD, max_seconds=1, state="done", solution=solve(BOARD))
    kept.job = current
    store.finish(stale)  # the page asked again meanwhile: the old answer is not this board's
    assert kept.result is None
    store.finish(current)
    assert kept.result is not None and kept.result.job == current.id and kept.result.solution.optimal
    store.finish(Job(session="gone", board=BOARD, max_seconds=1, state="done", solution=solve(BOARD)))  # no error


def test_an_uploaded_board_file_opens_and_bad_uploads_are_refused_naming_the_file():
    data = (SAMPLES / "patchwork.json").read_bytes()
    opened = session_from_upload(data, "patchwork.json")
    assert opened.board == read_board(SAMPLES / "patchwork.json") and opened.recognition is None
    assert opened.image is not None and opened.image.shape[0] > opened.image.shape[1]  # drawn as a phone shows it
    safe_zone = json.dumps({"format": "kamivision.safezone/1", "rows": 2, "columns": 2}).encode()
    for data, expected in (
        (safe_zone, "solved with 'kamivision solve FILE'"),
        (b'{"format": "kamivision.board/1"', "level.json"),
        (b"{\xff\xfe}", "not UTF-8"),
        (b"not a picture", "level.json"),
    ):
        with pytest.raises(KamiError) as refused:
            session_from_upload(data, "level.json")
        assert "level.json" in str(refused.value) and expected in str(refused.value)


def test_a_review_session_saves_to_the_file_named_on_the_command_line(tmp_path):
    from kamivision.review import open_review

    target = tmp_path / "delta-fixed.json"
    review = open_review(SAMPLES / "delta.jpg", output=target)
    opened = session_from_review(review, "delta")
    assert opened.save_to == target and opened.board == review.model.board
    assert opened.recognition is review.recognition and opened.image is review.image
    assert opened.edited_cells() == []
