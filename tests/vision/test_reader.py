import io
import json
import random
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from kamivision.board import differing_cells, make_board, read_board
from kamivision.errors import ImageError
from kamivision.synth.covers import BANNER_KINDS, Banner, NavBar, Window
from kamivision.synth.render import encode, render
from kamivision.synth.screens import DEVICES
from kamivision.vision import recognize, recognize_file

from ..boards import random_kami_board
from ..conftest import device_params, shared_path

# (JPEG quality, scale) as screenshots arrive after sharing: untouched, recompressed, shrunk.
VARIANTS = [(None, None), (70, 0.75)]


def as_received(image, quality, scale):
    data = encode(image, ".png", jpeg_quality=quality, scale=scale)
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


#: Three devices stand for the rest in the plain run: a 16:9 phone, a tall phone whose board
#: is cropped at the sides, and a tablet (the full matrix is ``slow``).
REPRESENTATIVE = {("iphone-8-plus", None), ("android-tall", None), ("tablet-4x3", 70)}


@pytest.mark.parametrize(
    "device, quality, scale",
    [
        pytest.param(d, q, s, marks=() if (d, q) in REPRESENTATIVE else pytest.mark.slow)
        for q, s in VARIANTS
        for d in sorted(DEVICES)
    ],
)
def test_renders_are_read_exactly_on_every_device(device, quality, scale):
    """Every cell the screen shows is read right; on a board cropped at the sides (tall
    Android phones) the cells it hides are listed as hidden and uncertain, and only they
    may be wrong."""
    rng = random.Random(f"{device}{quality}")
    cropped = DEVICES[device].board_width > 1
    for trial, colors in enumerate((2, 5)):
        board = random_kami_board(rng, colors, blank_outline=trial == 1, par=rng.randint(1, 17))
        image, _ = render(board, device, seed=trial + 11, selected=rng.randrange(colors))
        found = recognize(as_received(image, quality, scale), device)
        assert set(differing_cells(found.board, board)) <= set(found.hidden), f"\n{board}\n\n{found.board}"
        assert set(found.hidden) <= set(found.uncertain)
        if cropped:  # about half of columns 0 and 9 (all of them on the tallest phones)
            assert {c for _, c in found.hidden} == {0, 9} and 30 <= len(found.hidden) <= 58
        else:
            assert found.hidden == []
        assert len(found.board.palette) == colors
        assert found.board.par == board.par
        assert found.confidence.shape == (29, 10)


@pytest.mark.parametrize("kind", [pytest.param(k, marks=() if k == "pale" else pytest.mark.slow) for k in BANNER_KINDS])
def test_a_notification_over_the_boards_top_hides_its_rows_and_never_misleads(kind):
    """A screenshot taken while a notification shows keeps it over the board's top rows.
    Its straight lower edge is nothing the lattice makes: the rows above it are hidden
    and flagged, the rest read right.  Before, a pale banner's cells passed for blank ones,
    and the short height left under a banner made a full-width board look letterboxed:
    every cell shifted, 4,470 silent errors on 96 renders (``benchmarks/renders.py
    --variants banner``)."""
    rng = random.Random(kind)
    for trial, device in enumerate(("iphone-8", "iphone-x", "android-tall")):
        # Pale paper under a pale banner, and blank cells beside it, are the hard cases.
        board = random_kami_board(rng, 4, blank_outline=trial != 1, par=6)
        banner = Banner(kind, rng.uniform(0.01, 0.06), rng.uniform(0.18, 0.26))
        image, layout = render(
            board, device, seed=trial, palette=["#f0e6d2", "#2f5f8a", "#d9534f", "#5cb85c"], banner=banner
        )
        found = recognize(image, device)
        assert found.layout.board[2] >= 0.99 * found.layout.width  # not taken for a letterbox
        assert found.layout.visible[0] >= (banner.top + banner.height) * found.layout.width - 3
        wrong = set(differing_cells(found.board, board))
        assert wrong <= set(found.uncertain), f"{kind} on {device}: {sorted(wrong - set(found.uncertain))}"
        assert len(found.hidden) >= 20 and set(found.hidden) <= set(found.uncertain)


@pytest.mark.parametrize("device", device_params(["iphone-x", "tablet-4x3"], plain={"iphone-x"}))
def test_a_window_floating_over_the_board_hides_the_cells_under_it(device):
    """A picture-in-picture video over the board: its top and bottom edges are straight
    lines the lattice never makes, spanning the same columns; the cells under it are
    hidden and flagged, never read as the video's colors (333 silent errors on 40 such
    screens before, 0 after)."""
    rng = random.Random(device)
    spec = DEVICES[device]
    for trial in range(3):
        board = random_kami_board(rng, rng.choice([3, 4, 5]), blank_outline=trial == 1, par=5)
        size = (rng.uniform(0.35, 0.6), rng.uniform(0.2, 0.35))
        window = Window(rng.uniform(0, 1 - size[0]), rng.uniform(0.3, spec.height / spec.width - 0.5 - size[1]), *size)
        image, _ = render(board, device, seed=trial, window=window)
        found = recognize(image, device)
        w = found.layout.width
        x, y, ww, wh = (round(v * w) for v in (window.x, window.y, window.width, window.height))
        assert any(
            cx <= x + 2 and cy <= y + 2 and cx + cw >= x + ww - 2 and cy + ch >= y + wh - 2
            for cx, cy, cw, ch in found.layout.covers
        ), found.layout.covers
        wrong = set(differing_cells(found.board, board))
        assert wrong <= set(found.uncertain) and len(found.hidden) >= 4


def test_a_windows_edges_of_unequal_length_still_make_one_window():
    """A window with a heavy drop shadow on a tablet: its bottom edge was found 460 pixels
    long against its top's 576 (the shadowed board beside it nearly the window's color),
    too unequal to pair.  Each was then taken for a window reaching past the board, and
    the board above and below was hidden instead of the window, whose gray was read as 28
    blank cells with confidence.  Below a notification's reach, two edges over the same
    columns are one window."""
    from kamivision.vision.overlays import find_overlays

    w, h = 1536, 2048
    steps = np.zeros((h, w), bool)
    steps[745, 898:1474] = True  # the top edge
    steps[1228, 900:1360] = True  # the bottom edge, shortened
    edges = steps.mean(axis=1)
    top, windows = find_overlays(steps, edges, (191.0, 0.0, 1152.0, 1862.0), 0, 1856, w)
    assert top == 0
    assert len(windows) == 1, windows
    x, y, ww, wh = windows[0]
    assert x <= 898 and x + ww >= 1474 and y <= 745 and y + wh >= 1228 and y > 600 and y + wh < 1400


def test_a_lone_edge_high_on_the_board_with_a_smooth_picture_below_hides_both_sides():
    """A dark window whose shadow hid its bottom edge shows only its top edge, in the
    board's upper half, where a lone edge is taken for a window reaching past the top
    (`benchmarks/renders.py --variants shadow`: 23 cells under it read as blank with
    confidence).  With the lattice's steps above the edge and none below it, the columns
    are hidden on both sides."""
    from kamivision.vision.overlays import find_overlays

    w, h = 1536, 2048
    steps = np.zeros((h, w), bool)
    steps[:575, ::20] = True  # the lattice's slanted sides, above the edge
    steps[903:1856, ::20] = True  # and below the window, past its lost bottom edge
    steps[575, 600:1200] = True  # the window's top edge
    top, windows = find_overlays(steps, steps.mean(axis=1), (191.0, 0.0, 1152.0, 1862.0), 0, 1856, w)
    assert top == 0 and len(windows) == 1, windows
    x, y, ww, wh = windows[0]
    assert x <= 600 and x + ww >= 1200 and y == 0 and y + wh == 1856


@pytest.mark.parametrize("device", device_params(["iphone-8", "android-2400", "tablet-4x3"], plain={"iphone-8"}))
def test_a_window_docked_over_the_footer_hides_the_columns_below_its_top_edge(device):
    """A picture-in-picture video in its usual corner reaches over the footer: only its
    top edge shows on the board, and the columns it spans are hidden from there down (94
    silent errors on 12 such screens read before, 0 after; those whose palette it hides
    are refused in one line)."""
    rng = random.Random(f"docked on {device}")
    spec = DEVICES[device]
    read = 0
    for trial in range(3):
        board = random_kami_board(rng, rng.choice([3, 4, 5]), blank_outline=trial == 1, par=5)
        size = (rng.uniform(0.35, 0.5), rng.uniform(0.2, 0.3))
        y = spec.height / spec.width - rng.uniform(0.15, 0.3) - size[1] + rng.uniform(0.1, 0.25)
        image, _ = render(board, device, seed=trial, window=Window(1 - size[0] - 0.03, y, *size))
        try:
            found = recognize(image, device)
        except ImageError as error:
            assert "\n" not in str(error) and str(error).startswith(device)
            continue
        read += 1
        assert found.layout.covers
        assert set(differing_cells(found.board, board)) <= set(found.uncertain)
    assert read >= 1


@pytest.mark.parametrize("device", device_params(["iphone-8", "tablet-4x3"], plain={"iphone-8"}))
def test_a_window_over_the_footers_buttons_is_refused_or_read_without_silent_errors(device):
    """A video docked at the lower left hides the buttons and cuts the footer with its own
    edges: its bottom edge was taken for the footer's top (every cell a row off: 65 silent
    errors), or the screen for a board alone (60 to 112).  Now such a screen is read with
    every wrong cell flagged, or refused in one line saying why."""
    rng = random.Random(f"over the buttons on {device}")
    spec = DEVICES[device]
    refused = 0
    for trial in range(4):
        board = random_kami_board(rng, rng.choice([3, 4, 5]), blank_outline=trial % 2 == 1, par=5)
        size = (rng.uniform(0.35, 0.5), rng.uniform(0.2, 0.3))
        y = spec.height / spec.width - rng.uniform(0.0, 0.35) - size[1] + rng.uniform(0.0, 0.25)
        image, _ = render(board, device, seed=trial, window=Window(0.03, y, *size, seed=trial))
        try:
            found = recognize(image, device)
        except ImageError as error:
            assert "\n" not in str(error) and str(error).startswith(device)
            refused += 1
            continue
        assert set(differing_cells(found.board, board)) <= set(found.uncertain), (device, trial)
    assert refused >= 1


@pytest.mark.parametrize(
    "device", device_params(["iphone-8", "android-tall", "tablet-4x3"], plain={"iphone-8", "android-tall"})
)
def test_a_chat_head_over_the_board_hides_the_cells_under_it(device):
    """Something round over the board (a chat head, at the side or anywhere): its edge is a
    circle, which no side of the lattice makes; the cells under it are hidden and flagged
    (8 silent errors on 96 renders before, 0 after)."""
    rng = random.Random(device)
    spec = DEVICES[device]
    for trial in range(3):
        board = random_kami_board(rng, rng.choice([3, 4, 5]), blank_outline=trial == 1, par=5)
        size = rng.uniform(0.1, 0.2)
        x = (0.0, 1 - size, rng.uniform(0, 1 - size))[trial]
        head = Window(x, rng.uniform(0.3, spec.height / spec.width - 0.5 - size), size, size, seed=trial, round=True)
        image, _ = render(board, device, seed=trial, window=head)
        found = recognize(image, device)
        w = found.layout.width
        cx, cy, r = (round(v * w) for v in (head.x + size / 2, head.y + size / 2, size / 2))
        assert any(
            x0 <= cx - r + 3 and y0 <= cy - r + 3 and x0 + cw >= min(w, cx + r) - 3 and y0 + ch >= cy + r - 3
            for x0, y0, cw, ch in found.layout.covers
        ), (found.layout.covers, (cx, cy, r))
        assert set(differing_cells(found.board, board)) <= set(found.uncertain)


@pytest.mark.parametrize("darkness", [pytest.param(0.3, marks=pytest.mark.slow), 0.45])
def test_a_bar_over_exactly_the_footer_is_told_by_the_palettes_map(darkness):
    """A translucent bar with Android's buttons, its top on the footer's: the game's picture
    does not go on across that edge, so the bar is not found; the swatches are the board's
    colors darkened by one map, and with that map undone the counter is read (unsure
    before: the dimmed separators were not found)."""
    board = random_kami_board(random.Random(10), 4, False)
    _, drawn = render(board, "iphone-x", seed=0, moves=12)
    footer = (DEVICES["iphone-x"].height - drawn.footer[1]) / DEVICES["iphone-x"].width
    image, _ = render(board, "iphone-x", seed=0, moves=12, nav_bar=NavBar("buttons", footer, darkness))
    rec = recognize(image, "bar over the footer")
    assert not differing_cells(rec.board, board)
    assert rec.board.par == 12


def test_no_circle_is_seen_on_a_plain_board():
    """The lattice's hexagons and checkerboards of triangles are not taken for something
    round: a render with nothing over it has nothing hidden."""
    checkers = make_board([[(r + c) % 2 for c in range(10)] for r in range(29)], lattice="triangle", par=5)
    patches = random_kami_board(random.Random(3), 2, blank_outline=False, par=5)
    for board, device in ((checkers, "iphone-x"), (checkers, "tablet-4x3"), (patches, "android-tall")):
        image, _ = render(board, device, seed=1)
        assert recognize(image, device).layout.covers == ()


def test_a_notification_that_hides_too_much_is_refused_in_one_line():
    board = random_kami_board(random.Random(0), 3, blank_outline=False, par=5)
    image, _ = render(board, "tablet-4x3", seed=1, banner=Banner("dark", 0.06, 0.29))
    with pytest.raises(ImageError, match=r"^tablet: the board's top \d+ rows are hidden \(under a notification\?\)"):
        recognize(image, "tablet")


def test_confidence_is_low_where_a_cell_was_tampered_with():
    rng = random.Random(3)
    board = random_kami_board(rng, 3, blank_outline=False, par=4)
    image, layout = render(board, "iphone-8", seed=2)
    # Paint the middle of cell (10, 4) half-way between two palette colors.
    x0, y0, bw, bh = layout.board
    x, y = int(4.5 * bw / 10), int(10 * bh / 28)
    a, b = image[int(bh * 0.05), 5].astype(int), image[int(bh * 0.95), int(bw) - 5].astype(int)
    image = image.copy()
    image[y - 12 : y + 12, x - 10 : x + 10] = ((a + b) // 2).astype(np.uint8)
    found = recognize(image)
    assert found.confidence[10, 4] < found.confidence.mean()


def write_bytes(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_bad_inputs_fail_with_one_line_naming_the_file(tmp_path):
    png = io.BytesIO()
    Image.new("RGB", (750, 1334), (255, 255, 255)).save(png, format="PNG")
    noise = io.BytesIO()
    Image.fromarray(np.random.default_rng(1).integers(0, 255, (1334, 750, 3), dtype=np.uint8)).save(noise, "PNG")
    tiny = io.BytesIO()
    Image.new("RGB", (40, 60)).save(tiny, format="PNG")
    cases = {
        "notes.png": (b"these are not pixels", "not an image"),
        "cut.png": (png.getvalue()[:200], ""),
        "white.png": (png.getvalue(), "no KAMI footer"),
        "noise.png": (noise.getvalue(), "no KAMI footer"),
        "tiny.png": (tiny.getvalue(), "too small"),
    }
    for name, (data, words) in cases.items():
        path = write_bytes(tmp_path, name, data)
        with pytest.raises(ImageError) as info:
            recognize_file(path)
        message = str(info.value)
        assert message.startswith(str(path)) and "\n" not in message and words in message
    with pytest.raises(ImageError, match="no such file"):
        recognize_file(tmp_path / "absent.png")


@pytest.mark.parametrize("share", range(3))
def test_real_screenshots_are_never_silently_wrong(share):
    """All real screenshots (a third in each run, so that they are read on every core at
    once): par and palette size right.  With a truth board, every wrong cell is in the
    uncertain list (no silent errors), a board the screen shows whole is read exactly, and
    the boards cropped at the sides (tall Android phones) are recognised as such: their
    hidden cells are listed, and uncertain."""
    folder = shared_path("data", "screenshots")
    entries = json.loads((folder / "truth.json").read_text())["screenshots"][share::3]
    silent, wrong_whole, cropped = {}, {}, 0
    for entry in entries:
        found = recognize_file(folder / entry["file"])
        assert found.board.par == entry["par"], entry["file"]
        assert set(found.hidden) <= set(found.uncertain), entry["file"]
        cropped += bool(found.hidden)
        if not entry.get("board"):
            continue
        truth = read_board(folder / entry["board"])
        used = len({v for row in truth.cells for v in row if v is not None})
        assert len(found.board.palette) == used, entry["file"]
        cells = differing_cells(found.board, truth)
        if set(cells) - set(found.uncertain):
            silent[entry["file"]] = sorted(set(cells) - set(found.uncertain))
        if cells and not found.hidden:
            wrong_whole[entry["file"]] = cells
    assert not silent
    assert not wrong_whole
    tall = sum("tall Android" in entry.get("layout_note", "") for entry in entries)
    assert cropped == tall


@pytest.mark.parametrize(
    "turn, words",
    [(90, "turned a quarter counter-clockwise"), (180, "upside down"), (-90, "turned a quarter clockwise")],
)
def test_a_turned_screenshot_is_refused_with_how_it_is_turned(turn, words):
    from kamivision.vision import recognize

    board = read_board(Path(__file__).resolve().parents[2] / "samples" / "harbour.json")
    image, _ = render(board, "iphone-8", seed=1)
    turned = np.asarray(Image.fromarray(image).rotate(turn, expand=True))  # Pillow turns counter-clockwise
    with pytest.raises(ImageError, match=f"shot.png: this looks like a KAMI screenshot {words}; turn it upright"):
        recognize(turned, "shot.png")
