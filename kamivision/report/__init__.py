"""Every result in words, once: numbered moves with color names, the board in the
terminal, the verdict, the notices of what to check (:mod:`.words`), how an answer was
found and why its reading is in doubt (:mod:`.notes`), the JSON of ``--json``, of
``export`` and of the page (:mod:`.data`), a source's answer whole (:mod:`.answers`), and
the sliding puzzles' answers (:mod:`.puzzles`, imported on its own), so that all of them
say the same thing.  The stages return data; only this package words it."""

from .answers import to_json, to_text
from .data import (
    board_with_source,
    counter_check_to_json,
    doubt_to_json,
    moves_to_json,
    notice_to_json,
    solution_to_json,
)
from .notes import note_text, palette_text, search_text, stopped_sentence
from .words import (
    Notice,
    answer_notices,
    cell_list,
    color_label,
    color_name,
    color_names,
    color_symbol,
    counter_missed,
    counter_sentence,
    describe_changes,
    doubt_notices,
    doubt_summary,
    draw_board,
    format_alternative,
    format_solution,
    picture_warning,
    plural,
    progress_line,
    reading_notices,
    safe_text,
    sentence,
    verdict,
)

__all__ = [
    "board_with_source",
    "Notice",
    "answer_notices",
    "cell_list",
    "color_label",
    "color_name",
    "color_names",
    "color_symbol",
    "counter_check_to_json",
    "counter_missed",
    "counter_sentence",
    "describe_changes",
    "doubt_notices",
    "doubt_summary",
    "doubt_to_json",
    "draw_board",
    "format_alternative",
    "format_solution",
    "moves_to_json",
    "notice_to_json",
    "picture_warning",
    "plural",
    "note_text",
    "palette_text",
    "progress_line",
    "reading_notices",
    "safe_text",
    "search_text",
    "sentence",
    "stopped_sentence",
    "solution_to_json",
    "to_json",
    "to_text",
    "verdict",
]
