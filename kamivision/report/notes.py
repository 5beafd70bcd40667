"""How an answer was found and why its reading is in doubt, in words: the searches' notes
(:mod:`kamivision.solver.notes`), the look for moves that avoid the doubt
(:class:`~kamivision.check.doubt.SteadySearch`) and the palette's doubt
(:class:`~kamivision.vision.palette.PaletteDoubt`).

Tested in tests/solver/test_islands.py, tests/solver/test_pivot.py, tests/check/test_doubt.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..limits import Stop

if TYPE_CHECKING:
    from ..check.doubt import SteadySearch
    from ..vision.palette import PaletteDoubt


def note_text(note) -> str:
    """How an answer was found, in words (:mod:`kamivision.solver.notes`)."""
    from ..solver.notes import BeamAnswer, GreedyPart, Stopped

    if isinstance(note, Stopped):
        if note.during_check:
            return "interrupted during the counter check"
        what = "Ctrl-C stopped the search" if note.reason is Stop.INTERRUPTED else "a limit stopped the search"
        return f"{what}: the moves are the best found, not proven optimal"
    if isinstance(note, GreedyPart):
        return (
            f"{note.regions:,} regions in one part of the board, too many for the proving search: "
            f"a greedy flood's moves, not proven optimal (at least {note.bound} are needed)"
        )
    if isinstance(note, BeamAnswer):
        if note.cut is not None:
            why = "Ctrl-C stopped" if note.cut is Stop.INTERRUPTED else "the time limit ended"
            return f"{why} the beam search of width {note.width}: the greedy answer, not proven optimal"
        return f"beam search of width {note.width}: a good solution, not proven optimal"
    raise TypeError(f"not a note: {note!r}")


def stopped_sentence(solution) -> Optional[str]:
    """The page's word on why a search stopped before a proof, or None when it did not
    stop (proven, or answered without the proving search: its notes say why)."""
    from ..solver.notes import Stopped

    if solution.interrupted:
        return "You stopped the search"
    if any(isinstance(note, Stopped) for note in solution.notes):
        return "The time limit stopped the search"  # the page sets no other limit
    return None


def search_text(search: "SteadySearch") -> str:
    """What the look for moves that avoid the doubt found (:mod:`kamivision.check.steady`)."""
    if search.held:
        return f"moves chosen to hold whatever the doubtful cells are ({search.tried} other answer(s) tried)"
    scope = f"{search.tried} other answer(s) of {search.length} moves tried" + (
        "" if search.complete else ", cut short"
    )
    return f"no answer of {search.length} moves found that holds whatever these cells are ({scope})"


def palette_text(doubt: "PaletteDoubt") -> str:
    """Why the colors read are in doubt (:mod:`kamivision.vision.palette`)."""
    from ..vision.palette import Disagreement

    return {
        Disagreement.STRAY: f"{doubt.number} cells of the board have a color that no swatch shows",
        Disagreement.SHARED: "two swatches match one color of the board",
        Disagreement.NO_MAP: "the swatches' colors do not match the board's, even allowing for a bar, dimming or a tint over them",
        Disagreement.CLOSE: "two of the colors read from the board alone are close, and may be one",
        Disagreement.UNUSED: f"swatch {doubt.number} matches no cell of the board",
    }[doubt.kind]
