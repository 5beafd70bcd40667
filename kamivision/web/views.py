"""What the page is sent: sessions, edits, solves and answers as JSON.

Every function here only reads: the stores and the job queues keep the state
(:mod:`~kamivision.web.sessions`, :mod:`~kamivision.web.jobs`), and the wording of
notices and verdicts is :mod:`kamivision.report`'s.

Tested in tests/web/test_app.py.
"""

from __future__ import annotations

import json
import time
from typing import Any, Optional

import numpy as np

from ..board import Board, board_to_dict, hex_to_rgb
from ..graph import bits, region_cells
from ..overlay import ink_on
from ..report import (
    answer_notices,
    color_label,
    color_names,
    doubt_notices,
    doubt_summary,
    note_text,
    notice_to_json,
    reading_notices,
    stopped_sentence,
    verdict,
)
from .sessions import Result, Session


def describe(session: Session) -> dict:
    """Everything the page draws: the picture's size, the lattice's cell polygons on it,
    the palette (the phone's order, numbered 1..K as on the command line), the cells with
    their confidence, the warnings, the editing state and the solve."""
    board, geometry = session.board, session.geometry
    polygons = [np.round(geometry.polygon(board, cell), 1).ravel().tolist() for cell in range(board.size)]
    confidence = (
        [1.0] * board.size
        if session.model.confidence is None
        else np.round(session.model.confidence, 3).ravel().tolist()
    )
    recognition = session.recognition
    hidden = [] if recognition is None else [r * board.columns + c for r, c in recognition.hidden]
    height, width = session.size
    out = {
        "id": session.id,
        "name": session.name,
        "image": {"width": width, "height": height},
        "lattice": board.lattice,
        "rows": board.rows,
        "columns": board.columns,
        "par": board.par,
        "rules": board.rules,
        "palette": list(board.palette or ()),
        "labels": [color_label(board, k) for k in range(len(board.palette or ()))],
        # The ink for a number written on each color (a marker, a swatch): 4.5:1 or more.
        "ink": ["#%02x%02x%02x" % ink_on(hex_to_rgb(c)) for c in board.palette or ()],
        "names": color_names(board),
        "read": board_cells(session.read),
        "confidence": confidence,
        "threshold": session.model.threshold,
        "hidden": hidden,
        "polygons": polygons,
        "centres": [list(np.round(geometry.centre(board, cell), 1)) for cell in range(board.size)],
        "swatches": [] if recognition is None else [list(map(int, s)) for s in recognition.layout.swatches],
        "screenshot": recognition is not None,
        "save": None if session.save_to is None else {"name": session.save_to.name},
    }
    out.update(edit_state(session))
    return out


def board_cells(board: Board) -> list[Optional[int]]:
    return list(board.colors())


def edit_state(session: Session) -> dict:
    """The part of :func:`describe` that an edit changes."""
    board = session.board
    edited = set(session.edited_cells())
    result = answer(session)
    solved = result is not None and result.board == board
    if solved and result.doubt is not None:
        uncertain = list(result.doubt.matters)  # solved: only the doubt that would change the moves
    else:
        uncertain = [i for i in range(board.size) if session.model.uncertain(i) and i not in edited]
    return {
        "cells": board_cells(board),
        "edited": sorted(edited),
        "uncertain": uncertain,
        "can_undo": session.model.can_undo,
        "can_redo": session.model.can_redo,
        "dirty": session.model.dirty,
        "warnings": []
        if session.recognition is None
        else [notice_to_json(n, board.columns) for n in reading_notices(session.reading(), solved=solved)],
        "solved": solved,
    }


def job_state(session: Session, jobs, store) -> dict:
    """The solve as the page shows it: waiting (and where in the queue), running (bound and
    best so far), or finished with the answer.  ``session.job`` is as ``jobs`` last saw it
    (:meth:`~kamivision.web.jobs.JobQueue.current`).  The answer's description is made once
    per solve and kept with the session's files in ``store`` (counted in its limits): it
    grows with the moves times the cells, and the page asks for it at every poll."""
    job = session.job
    if job is None:
        return {"state": "idle"}
    out: dict[str, Any] = {"state": job.state, "job": job.id, "max_seconds": job.max_seconds, "version": job.version}
    if job.state == "queued":
        out["ahead"] = jobs.position(job)
    if job.progress:
        out["progress"] = dict(job.progress)
    if job.started_at is not None:
        out["seconds"] = round(max(0.0, (job.finished_at or time.time()) - job.started_at), 2)
    if job.error:
        out["error"] = job.error
    if job.finished:
        result = answer(session)
        if result is not None and result.job == job.id:
            described = store.cached(
                session, f"answer-{job.id}.json", lambda: json.dumps(describe_solution(result)).encode()
            )
            out["solution"] = json.loads(described)
            out["edit"] = edit_state(session)  # the reading's notices and marks, now that it is solved
    return out


def answer(session: Session) -> Optional[Result]:
    """The last answer: the one the store keeps, or, a moment before it has it, the one the
    finished job carries."""
    job, result = session.job, session.result
    if (
        job is not None
        and job.state == "done"
        and job.solution is not None
        and (result is None or result.job != job.id)
    ):
        return Result(board=job.board, solution=job.solution, check=job.check, doubt=job.doubt, job=job.id)
    return result


#: The step player's data (every step's board and region) is made for answers of at most
#: this many cells times steps: 100 x 100 with 40 moves took 1.1 s, 300 x 300 with 100
#: moves 51 s and a 4 s answer per poll (and its GIF, a frame per step, 100 s).  Past
#: it, the page shows the verdict and the moves, and offers the overlay and the board
#: file; no step player, no GIF.
MAX_STEP_CELLS = 1_000_000


def step_cells(result: Result) -> int:
    """The answer's cells times steps: what the step player and the GIF cost."""
    return result.board.size * (len(result.solution.moves) + 1)


def describe_solution(result: Result) -> dict:
    """The moves, the board before each and after the last (for the step player), the
    region each move taps, the verdict and the warnings with the cells they concern.
    ``steps`` is False (no boards, no regions) for an answer too large to step through
    (:data:`MAX_STEP_CELLS`)."""

    board, solution = result.board, result.solution
    steps = step_cells(result) <= MAX_STEP_CELLS
    boards, moves = [board_cells(board)] if steps else [], []
    current = board
    for move in solution.moves:
        cell = move.row * board.columns + move.column
        moves.append(
            {
                "row": move.row,
                "column": move.column,
                "cell": cell,
                "color": move.color,
                "label": color_label(board, move.color),
                "region": list(bits(region_cells(current, cell))) if steps else [],
            }
        )
        if steps:
            current = current.apply(move)
            boards.append(board_cells(current))
    notices = answer_notices(board, solution, result.check)
    if result.doubt is not None:
        notices += doubt_notices(board, result.doubt)
    warnings = [notice_to_json(n, board.columns) for n in notices]
    n, par = solution.length, board.par
    return {
        "length": n,
        "optimal": solution.optimal,
        "lower_bound": solution.lower_bound,
        "interrupted": solution.interrupted,
        "stopped": stopped_sentence(solution),
        "seconds": round(solution.seconds, 2),
        "expanded": solution.expanded,
        "regions": solution.regions,
        "verdict": verdict(solution, par, result.doubt, board.columns),
        "summary": None if result.doubt is None else doubt_summary(result.doubt),
        "notes": [note_text(note) for note in solution.notes],
        "moves": moves,
        "steps": steps,
        "boards": boards,
        "warnings": warnings,
        "board": board_to_dict(board),
    }
