from kamivision.board import parse_board
from kamivision.report import color_label, color_name, draw_board, format_solution
from kamivision.solver import solve


def test_color_names_are_the_everyday_ones():
    assert color_name("#63a183") == "mint"
    assert color_name("#e3662c") == "orange"
    assert color_name("#2f291f") == "charcoal"
    assert color_name("#1e4c54") == "dark teal"


def test_solution_text_numbers_the_moves_and_says_how_sure():
    board = parse_board("aab\nbba\nabb", lattice="square", par=3, palette=["#e3662c", "#1e4c54"])
    solution = solve(board)
    text = format_solution(board, solution)
    lines = text.splitlines()
    assert sum(line.strip().startswith(f"{i}. tap row") for i in range(1, 4) for line in lines) == solution.length
    assert "proven optimal" in text and ("orange" in text or "dark teal" in text)
    assert "par is 3" in text or "beats par 3" in text


def test_board_drawing_shows_blanks_and_color_numbers_without_ansi():
    board = parse_board("ab.\n.ba", lattice="square")
    drawn = draw_board(board, ansi=False)
    assert drawn.splitlines() == ["1 2 .", ". 2 1"] and "\x1b" not in drawn


def test_one_numbering_for_people_with_unique_names():
    board = parse_board("abc\ncba", lattice="square", palette=["#1e4c54", "#e3662c", "#1f4d55"])
    assert color_label(board, 0) == "color 1 (dark teal #1e4c54)"
    assert color_label(board, 1) == "color 2 (orange)"
    assert color_label(board, 2) == "color 3 (dark teal #1f4d55)"
    text = format_solution(board, solve(board))
    assert "2 rows x 3 columns" in text.splitlines()[0]
    assert "-> color " in text and "-> color 0" not in text
    many = parse_board("abcdefghijk", lattice="square")
    assert color_label(many, 10) == "color 11 (k)" and draw_board(many).split()[-1] == "k"
