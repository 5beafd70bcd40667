"""Results as JSON: of ``solve --json``, of ``export`` and of the page, with the same
sentences as the words (:mod:`.words`).

Tested in tests/test_report.py, tests/web/test_app.py.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ..board import board_to_dict
from .words import palette_text, search_text, sentence

if TYPE_CHECKING:
    from ..board import Board
    from ..solver import Solution
    from ..vision import Recognition


def moves_to_json(moves) -> list[dict]:
    return [{"row": m.row, "column": m.column, "color": m.color} for m in moves]


def solution_to_json(board_obj: dict, solution: Solution) -> dict:
    """The ``solve --json`` object."""
    return {
        "board": board_obj,
        "moves": moves_to_json(solution.moves),
        "length": solution.length,
        "optimal": solution.optimal,
        "lower_bound": solution.lower_bound,
        "par": solution.par,
        "seconds": round(solution.seconds, 4),
        "expanded": solution.expanded,
    }


def counter_check_to_json(check) -> dict:
    """``solve --json``'s ``counter_check``: the other readings that meet the counter."""
    return {
        "counter": check.counter,
        "read_optimum": check.read_optimum,
        "tried": check.tried,
        "complete": check.complete,
        "matching": [
            {
                "changes": [{"row": r, "column": c, "read": old, "proposed": new} for r, c, old, new in alt.changes],
                "cost": round(alt.cost, 4),
                "board": board_to_dict(alt.board),
                "moves": moves_to_json(alt.solution.moves),
                "length": alt.solution.length,
            }
            for alt in check.matching
        ],
    }


def doubt_to_json(doubt, columns: int) -> dict:
    """``solve --json``'s ``doubt``: the cells read with doubt, those that would change the
    moves (each with a reading that does), and whether the colors are in doubt."""
    return {
        "doubtful": [list(divmod(c, columns)) for c in doubt.doubtful],
        "matters": [
            {
                "row": c // columns,
                "column": c % columns,
                "breaking": [[cell // columns, cell % columns, value] for cell, value in reading],
            }
            for c, reading in zip(doubt.matters, doubt.breaking)
        ],
        "readings_replayed": doubt.readings,
        "search": None if doubt.search is None else search_text(doubt.search),
        "palette": None if doubt.palette is None else palette_text(doubt.palette),
    }


def notice_to_json(notice, columns: int) -> dict:
    """A :class:`Notice` for the page: its sentence, and cells as cell numbers."""
    out = {"text": sentence(notice.text), "cells": [r * columns + c for r, c in notice.cells]}
    if notice.changes:
        out["changes"] = [[r * columns + c, value] for r, c, value in notice.changes]
    return out


def recognition_source(recognition: "Recognition", image: str) -> dict:
    """The board file's ``source`` block: where everything was found and how sure."""
    layout = recognition.layout
    x, y, w, h = layout.board
    doubt = recognition.palette_doubt
    return {
        "image": image,
        "width": layout.width,
        "height": layout.height,
        "layout": layout.name,
        "cropped": layout.cropped,
        "board": [round(x, 1), round(y + recognition.offset, 1), round(w, 1), round(h, 1)],
        "footer": list(layout.footer),
        "swatches": [list(s) for s in layout.swatches],
        "par_confidence": round(recognition.par_confidence, 3),
        "confidence": [[round(float(v), 3) for v in row] for row in recognition.confidence],
        "uncertain": [list(cell) for cell in recognition.uncertain],
        "hidden": [list(cell) for cell in recognition.hidden],
        "palette_doubt": None if doubt is None else palette_text(doubt),
    }


def board_with_source(recognition: "Recognition", image: str) -> "Board":
    """The recognised board carrying its ``source`` block (written into board files)."""
    extra = dict(recognition.board.extra)
    extra["source"] = recognition_source(recognition, image)
    return dataclasses.replace(recognition.board, extra=extra)
