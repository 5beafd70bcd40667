from pathlib import Path

from kamivision.board import parse_board, write_board
from kamivision.sources import BoardAnswer, Kind, Run, kind_of, run_of, solve_row, solve_source, sources_in


def test_sources_in_takes_a_folders_sources_sorted_and_files_as_given(tmp_path):
    for name in ["b.json", "a.png", "c.txt", "d.JPG"]:
        (tmp_path / name).write_text("x")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "e.json").write_text("x")
    other = tmp_path / "sub" / "e.json"
    assert [p.name for p in sources_in([tmp_path, other])] == ["a.png", "b.json", "d.JPG", "e.json"]


def test_the_kind_is_picked_from_the_file_and_a_bad_one_is_a_row_not_an_exception(tmp_path):
    board = write_board(parse_board("aab\nbba", lattice="square", par=2), tmp_path / "b.json")
    answered = solve_source(board)
    assert isinstance(answered, BoardAnswer) and answered.solution.optimal
    pivot = solve_source(board, rules="pivot")
    assert pivot.board.rules == "pivot" and pivot.solution.length >= answered.solution.length
    (tmp_path / "bad.json").write_text("{")
    row = solve_row(tmp_path / "bad.json")
    assert row.kind is None and row.moves is None and "bad.json" in row.error
    good = solve_row(board)
    assert (good.kind, good.moves, good.optimal, good.par, good.error) == (
        "board",
        answered.solution.length,
        True,
        2,
        None,
    )


def test_a_screenshot_refuses_other_rules_than_kamis_naming_it(tmp_path):
    import pytest

    from kamivision.errors import KamiError

    shot = Path(__file__).resolve().parents[1] / "samples" / "ribbons.png"
    with pytest.raises(KamiError) as refused:
        solve_source(shot, rules="pivot")
    assert "ribbons.png" in str(refused.value) and "free rules" in str(refused.value)
    row = solve_row(shot, rules="pivot")
    assert row.moves is None and "--rules pivot" in row.error


def test_what_a_source_is_and_what_a_command_runs_are_decided_in_one_place(tmp_path):
    board = write_board(parse_board("ab\nba", lattice="square"), tmp_path / "b.json")
    puzzle = tmp_path / "p.json"
    puzzle.write_text('{"format": "kamivision.slide/1"}')
    assert (kind_of(board), kind_of(puzzle), kind_of(tmp_path / "shot.png")) == (
        Kind.BOARD,
        Kind.PUZZLE,
        Kind.SCREENSHOT,
    )
    lines = tmp_path / "c.txt"
    lines.write_text("1 2\n")
    assert run_of([board], None) is Run.ONE and run_of([board, puzzle], None) is Run.MANY
    assert run_of([tmp_path], None) is Run.MANY and run_of([tmp_path], "pivot") is Run.FLOODIT
    assert run_of([lines], "pivot") is Run.FLOODIT and run_of([lines], None) is Run.TILES
