import json

from typer.testing import CliRunner

from kamivision.board import parse_board, write_board
from kamivision.cli import app

runner = CliRunner()


def write(tmp_path, text="aab\nbba\nabb", lattice="square", name="b.json", **kw):
    return write_board(parse_board(text, lattice=lattice, **kw), tmp_path / name)


def test_solve_prints_numbered_moves(tmp_path):
    path = write(tmp_path, par=3)
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 0, result.output
    assert "1. tap row" in result.output
    assert "proven optimal" in result.output


def test_solve_json_is_one_object(tmp_path):
    path = write(tmp_path, par=2)
    result = runner.invoke(app, ["solve", str(path), "--json"])
    assert result.exit_code == 0
    obj = json.loads(result.stdout)
    assert set(obj) == {"board", "moves", "length", "optimal", "lower_bound", "par", "seconds", "expanded"}
    assert obj["length"] == len(obj["moves"]) and obj["optimal"] is True
    assert obj["par"] == 2
    assert obj["board"]["cells"][0] == [0, 0, 1]
    assert set(obj["moves"][0]) == {"row", "column", "color"}


def test_bad_input_is_one_line_and_exit_1(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "other"}')
    result = runner.invoke(app, ["solve", str(bad)])
    assert result.exit_code == 1
    assert result.stderr.strip().count("\n") == 0
    assert "bad.json: format is 'other'" in result.stderr
    assert "Traceback" not in result.output


def test_missing_file_is_exit_1(tmp_path):
    result = runner.invoke(app, ["solve", str(tmp_path / "none.json")])
    assert result.exit_code == 1
    assert "none.json: no such file" in result.stderr


def test_usage_error_is_exit_2():
    result = runner.invoke(app, ["solve", "--no-such-option"])
    assert result.exit_code == 2


def test_limits_say_not_proven(tmp_path):
    path = write(tmp_path, text="abcab\nbcabc\ncabca\nabcab\nbcabc", lattice="square")
    result = runner.invoke(app, ["solve", str(path), "--max-nodes", "1", "--json"])
    assert result.exit_code == 0
    obj = json.loads(result.stdout)
    assert obj["optimal"] is False
    assert obj["lower_bound"] <= obj["length"]
