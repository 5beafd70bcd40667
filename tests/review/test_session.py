from pathlib import Path

from kamivision.board import read_board
from kamivision.review import open_review

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def test_a_board_file_is_reviewed_over_its_screenshot(tmp_path):
    session = open_review(SAMPLES / "delta.json", image=SAMPLES / "delta.jpg")
    assert session.output == SAMPLES / "delta.json"
    assert session.model.board.cells == read_board(SAMPLES / "delta.json").cells
    assert len(session.swatches) == 5
