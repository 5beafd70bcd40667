"""``kamivision solve`` on Safe Zone and tile-sliding files and collections: the moves,
the verdict, the checks of the file's optimum, the exit statuses, one line per error."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kamivision.cli import app

runner = CliRunner()


def write(tmp_path, obj, name="p.json"):
    path = tmp_path / name
    path.write_text(json.dumps(obj))
    return path


def zone(**extra):
    return {
        "format": "kamivision.safezone/1",
        "rows": 3,
        "columns": 3,
        "cells": [[2, 1, 1], [1, 4, 1], [2, 1, 0]],
        **extra,
    }


def tiles(**extra):
    return {
        "format": "kamivision.slide/1",
        "rows": 3,
        "columns": 3,
        "cells": [[0, 2, 3], [1, 8, 6], [4, 5, 7]],
        **extra,
    }


def test_a_safe_zone_file_gives_numbered_moves_the_board_and_the_verdict(tmp_path):
    result = runner.invoke(app, ["solve", str(write(tmp_path, zone(par=4, optimal=4)))])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Safe Zone, 3 rows x 3 columns, 2 blocks, 1 safe zone" in out
    assert "  1. block at (2, 0) slides up to (1, 0)" in out and "  4. block at (1, 0) slides right to (1, 1)" in out
    assert "4 moves, proven optimal; par is 4" in out and "| # . . |" in out and "| . @ # |" in out


def test_a_tile_file_gives_json_in_the_specs_move_form(tmp_path):
    result = runner.invoke(app, ["solve", str(write(tmp_path, tiles(optimal=12))), "--json"])
    assert result.exit_code == 0
    obj = json.loads(result.stdout)
    assert obj["length"] == 12 and obj["optimal"] and obj["solvable"]
    assert obj["moves"][0] == {"tile": 1, "from": [1, 0], "dir": "U"}
    assert obj["board"]["goal"] == [[1, 2, 3], [4, 5, 6], [7, 8, 0]]


def test_no_solution_exits_3_and_a_wrong_stored_optimum_exits_1(tmp_path):
    unsolvable = zone(cells=[[1, 1, 1], [1, 4, 1], [2, 1, 0]])
    result = runner.invoke(app, ["solve", str(write(tmp_path, unsolvable))])
    assert result.exit_code == 3 and "no solution" in result.output
    odd = {"format": "kamivision.slide/1", "rows": 2, "columns": 3, "cells": [[2, 1, 3], [4, 5, 0]]}
    result = runner.invoke(app, ["solve", str(write(tmp_path, odd, "odd.json"))])
    assert result.exit_code == 3 and "parity" in result.output
    result = runner.invoke(app, ["solve", str(write(tmp_path, tiles(optimal=11), "wrong.json"))])
    assert result.exit_code == 1
    assert result.stderr.strip().endswith(
        "wrong.json: the file says an optimum of 11, but the proven optimum is 12 moves"
    )
    result = runner.invoke(app, ["solve", str(write(tmp_path, zone(par=6), "par.json"))])
    assert result.exit_code == 0 and "beats par 6" in result.output


def test_bad_puzzle_files_get_one_line(tmp_path):
    result = runner.invoke(app, ["solve", str(write(tmp_path, zone(cells=[[2, 1], [1, 4, 1], [2, 1, 0]])))])
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and "row 0 has 2 cells, expected 3" in result.stderr
    result = runner.invoke(app, ["solve", str(write(tmp_path, tiles(goal=[[1, 2, 3]]), "g.json"))])
    assert result.exit_code == 1 and "goal has 1 rows, expected 3" in result.stderr
    result = runner.invoke(app, ["solve", str(write(tmp_path, zone(), "z.json")), "-o", str(tmp_path / "x.png")])
    assert result.exit_code == 1 and "screenshots only" in result.stderr


def test_a_collection_gives_a_table_and_totals(tmp_path):
    path = tmp_path / "eights.txt"
    path.write_text("# id optimum nodes tiles\n1 1 0 1 0 2 3 4 5 6 7 8\n2 3 0 1 2 5 3 4 0 6 7 8\n")
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 0, result.output
    assert "2 boards: 4 moves in all (the file: 4); 2 proven optimal" in result.output
    path.write_text("1 1 0 1 0 2 3 4 5 6 7 8\n")  # one board: the totals count, not "True"
    result = runner.invoke(app, ["solve", str(path)])
    assert "1 board: 1 move in all (the file: 1); 1 proven optimal" in result.output, result.output
    path.write_text("1 2 0 1 0 2 3 4 5 6 7 8\n")
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 1 and "board 1: the proven optimum differs" in result.stderr


def test_generate_writes_a_level_with_its_proven_optimum_and_refuses_to_overwrite(tmp_path):
    out = tmp_path / "level.json"
    result = runner.invoke(
        app,
        [
            "generate",
            "-o",
            str(out),
            "--rows",
            "5",
            "--columns",
            "5",
            "--zones",
            "2",
            "--seed",
            "1",
            "--min-moves",
            "3",
        ],
    )
    assert result.exit_code == 0, result.output
    obj = json.loads(out.read_text())
    assert obj["format"] == "kamivision.safezone/1" and obj["optimal"] >= 3 and len(obj["solution"]) == obj["optimal"]
    solved = runner.invoke(app, ["solve", str(out), "--json"])
    assert solved.exit_code == 0 and json.loads(solved.stdout)["length"] == obj["optimal"]
    again = runner.invoke(app, ["generate", "-o", str(out)])
    assert again.exit_code == 1 and "exists" in again.stderr and json.loads(out.read_text()) == obj
