"""A source's answer (:mod:`kamivision.answers`) whole: its text for the terminal and its
JSON for ``solve --json``, from the words (:mod:`.words`) and the JSON (:mod:`.data`).

Tested in tests/test_report.py, tests/test_cli.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..board import board_to_dict
from .data import counter_check_to_json, doubt_to_json, recognition_source, solution_to_json
from .words import format_alternative, format_solution

if TYPE_CHECKING:
    from ..answers import BoardAnswer, ShotAnswer


def to_text(answer: "BoardAnswer | ShotAnswer", ansi: bool = False) -> str:
    """What ``kamivision solve`` prints for one source: the board and the numbered moves
    with the verdict (a screenshot's with its doubt, and the reading that meets the counter
    when the counter check found one).  A puzzle's words are still its own
    (:func:`kamivision.puzzles.report`)."""
    from ..answers import BoardAnswer

    if isinstance(answer, BoardAnswer):
        return format_solution(answer.board, answer.solution, ansi=ansi)
    shot = answer.shot
    text = format_solution(answer.board, answer.solution, ansi=ansi, doubt=shot.doubt)
    if shot.check is not None and shot.check.best is not None:
        text += "\n\n" + format_alternative(answer.board, shot.check.best)
    return text


def to_json(answer: "BoardAnswer | ShotAnswer", source: str) -> dict:
    """``solve --json``'s object for one source: the board and the moves with what is
    proven; for a screenshot also where the board was found (``source``), the verdict,
    the doubt and the counter check.  A puzzle's JSON is its own
    (:func:`kamivision.report.puzzles.puzzle_to_json`)."""
    from ..answers import BoardAnswer

    board, solution = answer.board, answer.solution
    obj = solution_to_json(board_to_dict(board), solution)
    if isinstance(answer, BoardAnswer):
        return obj
    shot = answer.shot
    obj["source"] = recognition_source(shot.recognition, source)
    obj["verdict"] = shot.verdict()
    obj["doubt"] = doubt_to_json(shot.doubt, board.columns)
    if shot.check is not None:
        obj["counter_check"] = counter_check_to_json(shot.check)
    return obj
