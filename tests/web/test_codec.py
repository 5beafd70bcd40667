"""What goes to Redis is data, never code: sessions, answers and job records round-trip
through :mod:`kamivision.web.codec`, and forged entries (a pickle, a name that is not
kamivision's, a field a class does not have) are refused without running anything."""

from __future__ import annotations

import base64
import dataclasses
import json
import pickle
from pathlib import Path

import numpy as np
import pytest

from kamivision.solver import solve
from kamivision.web import codec
from kamivision.web.sessions import Result, session_from_upload

ROOT = Path(__file__).resolve().parents[2]


class Touch:
    """Unpickled, it creates a file: what a forged pickle in Redis would do."""

    def __init__(self, path: Path):
        self.path = path

    def __reduce__(self):
        return (Path.touch, (self.path,))


def _session():
    return session_from_upload((ROOT / "samples" / "lantern.jpg").read_bytes(), "lantern.jpg")


def test_a_screenshot_session_and_its_answer_round_trip_as_json():
    session = _session()
    stored = dataclasses.replace(session, image=None, lock=None)
    data = codec.dumps(stored)
    json.loads(data)  # plain JSON
    back = codec.loads(data)
    assert back.read == session.read and back.model.board == session.model.board
    assert back.geometry == session.geometry and back.id == session.id
    assert np.array_equal(back.recognition.confidence, session.recognition.confidence)
    assert np.array_equal(back.recognition.costs, session.recognition.costs)  # with its infinities
    assert back.recognition.layout.block.buttons == session.recognition.layout.block.buttons
    answer = Result(board=session.board, solution=solve(session.board, max_nodes=200_000))
    again = codec.loads(codec.dumps(answer))
    assert again == answer and isinstance(again.solution.moves, tuple)


def test_an_answers_notes_and_doubt_round_trip_as_data():
    """What the report words later (how the answer was found, the doubt's search and the
    palette's doubt) is kept as the data it is."""
    from kamivision.check.doubt import Doubt, SteadySearch
    from kamivision.limits import Stop
    from kamivision.solver.notes import Stopped
    from kamivision.vision.palette import Disagreement, PaletteDoubt

    session = _session()
    stopped = solve(session.board, max_nodes=1)
    assert stopped.notes == (Stopped(Stop.LIMIT),) and stopped.stopped is Stop.LIMIT
    doubt = Doubt(
        (0, 1), (1,), (), 3, SteadySearch(4, 7, held=False, complete=True), PaletteDoubt(Disagreement.UNUSED, 2)
    )
    answer = Result(board=session.board, solution=stopped, doubt=doubt)
    again = codec.loads(codec.dumps(answer))
    assert again == answer and again.doubt.palette.kind is Disagreement.UNUSED


def test_loading_runs_none_of_a_class_code(monkeypatch):
    from kamivision.web.sessions import Session

    session = _session()
    data = codec.dumps(dataclasses.replace(session, image=None, lock=None))

    def boom(self):
        raise AssertionError("__post_init__ ran")

    monkeypatch.setattr(Session, "__post_init__", boom)
    assert codec.loads(data).name == session.name


def test_a_pickle_is_refused_and_not_run(tmp_path):
    target = tmp_path / "ran"
    with pytest.raises(codec.CodecError):
        codec.loads(pickle.dumps(Touch(target)))
    assert not target.exists()


@pytest.mark.parametrize(
    "forged",
    [
        {"!data": "os.system", "fields": {}},
        {"!data": "subprocess.Popen", "fields": {"args": "touch /tmp/x"}},
        {"!enum": "builtins.eval", "value": "1"},
        {"!data": "kamivision.board.Board", "fields": {"rows": 1, "spare": 2}},
        {"!data": "kamivision.board.Move", "fields": {}},
        {"!array": ["|O", [1], base64.b64encode(b"\0" * 8).decode()]},
        {"!tuple": [], "!set": []},
        {"!float": "1e999999"},
        {"!code": "print(1)"},
    ],
)
def test_forged_entries_are_refused(forged):
    with pytest.raises(codec.CodecError):
        codec.loads(json.dumps(forged))


def test_what_is_not_kamivision_data_is_not_stored():
    with pytest.raises(TypeError):
        codec.dumps(Touch(Path("x")))
    with pytest.raises(TypeError):
        codec.dumps(np.array([object()], dtype=object))
    with pytest.raises(TypeError):
        codec.dumps(print)


def test_python_shapes_survive():
    value = {"a": (1, 2.5, float("inf")), 3: {frozenset({1}), None}, "!x": b"\x00\xff", "p": Path("/tmp/x")}
    assert codec.loads(codec.dumps(value)) == value
    assert codec.loads(codec.dumps(float("nan"))) != codec.loads(codec.dumps(float("nan")))  # a NaN stays NaN
