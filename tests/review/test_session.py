from pathlib import Path

from kamivision.board import read_board
from kamivision.review import open_review

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def test_a_board_file_is_reviewed_over_its_screenshot(tmp_path):
    session = open_review(SAMPLES / "delta.json", image=SAMPLES / "delta.jpg")
    assert session.output == SAMPLES / "delta.json"
    assert session.model.board.cells == read_board(SAMPLES / "delta.json").cells
    assert len(session.swatches) == 5


def test_where_a_review_saves_is_checked_before_the_screenshot_is_read(tmp_path, monkeypatch):
    import pytest

    import kamivision.review.session as session_module
    from kamivision.errors import KamiError

    monkeypatch.setattr(session_module, "recognize", lambda *a, **k: pytest.fail("read before the output was checked"))
    shot = SAMPLES / "delta.jpg"
    for output, message in (
        (tmp_path / "absent" / "b.json", "does not exist"),
        (tmp_path, "is a folder"),
        (shot, "input itself"),
    ):
        with pytest.raises(KamiError, match=message):
            open_review(shot, output=output)
