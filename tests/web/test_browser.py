"""The page in a real browser: Debian's Chromium driven by Selenium through chromedriver,
against ``kamivision serve`` on a free loopback port, at a desktop size and at a phone's
390 x 844.  Upload a rendered sample, repaint a cell by clicking, solve, step through the
moves, download the board file and compare it; a screenshot of the page is kept.  The same
tests run against the in-memory server and against the Redis-backed one (``serve --redis``
with a worker), unchanged.

Set KAMIVISION_PAGE_SHOTS to a folder to keep the page screenshots there (the README's
pictures are made that way)."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from kamivision.board import read_board  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no browser: install Debian's chromium and chromium-driver (.ci/run does) for the real-browser test",
)


@pytest.fixture(scope="module")
def server(request):
    """The server the page talks to: in memory, or on Redis with a worker (the test's
    ``server`` parameter)."""
    return request.getfixturevalue("server" if request.param == "memory" else "redis_web")


def setups(plain: tuple[str, str] | None):
    """Each test runs on both stores at both sizes; the ``plain`` pairing stands for the
    four in the plain run (None: none does), the others are ``slow`` (the full run, which
    CI makes, has them all)."""
    return pytest.mark.parametrize(
        "server, size",
        [
            pytest.param(store, size, marks=() if (store, size) == plain else pytest.mark.slow)
            for store in ("memory", "redis")
            for size in ("desktop", "phone")
        ],
        indirect=["server"],
    )


def browser(downloads: Path, width: int, height: int, phone: bool):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={downloads.parent / ('profile-phone' if phone else 'profile-desktop')}",
        f"--window-size={width},{height}",
    ):
        options.add_argument(flag)
    if phone:  # a phone's viewport, pixel ratio and touch input
        options.add_experimental_option(
            "mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 3.0, "touch": True}}
        )
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.add_experimental_option(
        "prefs", {"download.default_directory": str(downloads), "download.prompt_for_download": False}
    )
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER), options=options)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    return driver


def waiting(driver) -> WebDriverWait:
    """A wait of up to a minute that looks every 50 ms (Selenium's default, 500 ms, adds
    seconds to each test in waits for things already done)."""
    return WebDriverWait(driver, 60, poll_frequency=0.05)


def click_cell(driver, cell: int) -> None:
    """Click cell ``cell`` in its middle (a triangle's bounding box centre lies inside it)."""
    polygon = driver.find_element(By.CSS_SELECTOR, f'#cells polygon[data-cell="{cell}"]')
    polygon.click()


def page_at(server, tmp_path: Path, size: str):
    """Chromium at a phone's or a desktop's size, on the server's page: (driver, its
    width, whether it is a phone, the downloads folder)."""
    phone = size == "phone"
    width, height = (390, 844) if phone else (1280, 900)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    driver = browser(downloads, width, height, phone)
    try:
        driver.get(server[0])
    except Exception:
        driver.quit()
        raise
    return driver, width, phone, downloads


@setups(plain=("memory", "phone"))
def test_from_a_screenshot_to_the_moves_in_a_real_browser(server, tmp_path, size):
    driver, width, phone, downloads = page_at(server, tmp_path, size)
    try:
        wait = waiting(driver)
        # The file picker is a styled label; Selenium types the path into the input itself.
        picker = driver.find_element(By.ID, "file")
        driver.execute_script("arguments[0].style.display = 'block'", picker)
        picker.send_keys(str(SAMPLES / "delta.jpg"))
        driver.execute_script("arguments[0].style.display = ''", picker)
        wait.until(EC.visibility_of_element_located((By.ID, "work")))
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#cells polygon")) == 290)
        truth = read_board(SAMPLES / "delta.json")
        assert driver.find_element(By.ID, "error").get_attribute("hidden") is not None, driver.find_element(
            By.ID, "error-text"
        ).text

        # Repaint one cell: pick another color on the palette bar, click the cell.
        cell = 4 * truth.columns + 5
        old = truth.colors()[cell]
        new = (old + 1) % len(truth.palette)
        driver.find_element(By.CSS_SELECTOR, f'#palette .swatch[data-color="{new}"]').click()
        before = driver.find_element(By.CSS_SELECTOR, f'#cells polygon[data-cell="{cell}"]').value_of_css_property(
            "fill"
        )
        click_cell(driver, cell)
        wait.until(
            lambda d: (
                d.find_element(By.CSS_SELECTOR, f'#cells polygon[data-cell="{cell}"]').value_of_css_property("fill")
                != before
            )
        )
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#marks polygon.edited")) == 1)
        assert "row 4, column 5" in driver.find_element(By.ID, "info").text
        # Undo and redo through the page.
        driver.find_element(By.ID, "undo").click()
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#marks polygon.edited")) == 0)
        driver.find_element(By.ID, "redo").click()
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#marks polygon.edited")) == 1)

        if not phone:  # a drag paints every cell it crosses, as one undo step
            from selenium.webdriver.common.action_chains import ActionChains

            row = [8 * truth.columns + c for c in (2, 3, 4, 5)]
            cells = driver.find_elements(By.CSS_SELECTOR, "#cells polygon")
            chain = ActionChains(driver).click_and_hold(cells[row[0]])
            for crossed in row[1:]:
                chain = chain.move_to_element(cells[crossed]).pause(0.05)
            chain.release().perform()
            wait.until(
                lambda d: (
                    len(d.find_elements(By.CSS_SELECTOR, "#marks polygon.edited"))
                    >= 1 + sum(truth.colors()[c] != new for c in row)
                )
            )
            painted = driver.execute_script("return S.session.cells")
            assert all(painted[c] == new for c in row)
            driver.find_element(By.ID, "undo").click()
            wait.until(lambda d: d.execute_script("return S.session.cells")[row[0]] == truth.colors()[row[0]])
            assert driver.execute_script("return S.session.cells")[cell] == new  # the earlier tap stays

        if phone:  # touch: a long press shows the cell and changes nothing; a pinch zooms
            from selenium.webdriver.common.actions import interaction
            from selenium.webdriver.common.actions.action_builder import ActionBuilder
            from selenium.webdriver.common.actions.pointer_input import PointerInput

            target = 10 * truth.columns + 4
            polygon = driver.find_element(By.CSS_SELECTOR, f'#cells polygon[data-cell="{target}"]')
            before_cells = driver.execute_script("return S.session.cells.slice()")
            press = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
            press.pointer_action.move_to(polygon).pointer_down().pause(0.9).pointer_up()
            press.perform()
            wait.until(lambda d: "row 10, column 4" in d.find_element(By.ID, "info").text)
            time.sleep(0.3)
            assert driver.execute_script("return S.session.cells") == before_cells
            box = driver.find_element(By.ID, "board").rect
            cx, cy = int(box["x"] + box["width"] / 2), int(box["y"] + box["height"] / 2)
            width_before = driver.execute_script("return S.view.w")
            pinch = ActionBuilder(driver)
            one = pinch.add_pointer_input(interaction.POINTER_TOUCH, "one")
            two = pinch.add_pointer_input(interaction.POINTER_TOUCH, "two")
            one.create_pointer_move(x=cx - 20, y=cy, origin="viewport")
            two.create_pointer_move(x=cx + 20, y=cy, origin="viewport")
            one.create_pointer_down()
            two.create_pointer_down()
            one.create_pointer_move(x=cx - 90, y=cy, origin="viewport", duration=300)
            two.create_pointer_move(x=cx + 90, y=cy, origin="viewport", duration=300)
            one.create_pointer_up(0)
            two.create_pointer_up(0)
            pinch.perform()
            assert driver.execute_script("return S.view.w") < width_before * 0.6  # zoomed in
            assert driver.execute_script("return S.session.cells") == before_cells  # and painted nothing
            driver.find_element(By.ID, "zoom-fit").click()

        # Solve, then step through the moves to the final board.
        driver.find_element(By.ID, "solve").click()
        wait.until(EC.visibility_of_element_located((By.ID, "player")))
        verdict = driver.find_element(By.ID, "verdict").text
        assert "proven optimal" in verdict, verdict
        count = driver.find_element(By.ID, "step-count").text
        moves = int(count.split("/")[1])
        assert moves >= 1
        text = driver.find_element(By.ID, "step-text").text
        assert text.startswith(f"Move 1 of {moves}: pick "), text  # KAMI's order: the color, then the region
        assert "then tap the outlined region" in text
        assert driver.find_elements(By.CSS_SELECTOR, "#marks path.region")
        assert not driver.find_element(By.ID, "cancel").is_displayed()
        assert len(driver.find_elements(By.CSS_SELECTOR, "#step-palette .swatch.pick")) == 1
        keep = os.environ.get("KAMIVISION_PAGE_SHOTS")
        shot = tmp_path / f"page-{size}.png"
        driver.save_screenshot(str(shot))
        for _ in range(moves):
            driver.find_element(By.ID, "next").click()
        wait.until(lambda d: d.find_element(By.ID, "step-text").text.startswith("Done"))
        colors = set(  # in one call: 290 calls of value_of_css_property take seconds
            driver.execute_script(
                "return [...document.querySelectorAll('#cells polygon:not(.blank)')].map(p => getComputedStyle(p).fill)"
            )
        )
        assert len(colors) == 1, colors  # the final board is one color
        driver.find_element(By.ID, "prev").click()
        assert driver.find_element(By.ID, "step-text").text.startswith(f"Move {moves} of {moves}")
        # The overlay picture, shown in the page.
        summary = driver.find_element(By.CSS_SELECTOR, "#overlay-box summary")
        driver.execute_script("arguments[0].scrollIntoView()", summary)
        summary.click()
        wait.until(lambda d: d.execute_script("return document.getElementById('overlay-picture').naturalWidth") > 0)
        driver.find_element(By.ID, "back-to-edit").click()

        # Download the board file: the repainted cell is in it, the rest as read.
        link = driver.find_element(By.ID, "dl-board")
        driver.execute_script("arguments[0].scrollIntoView()", link)
        link.click()
        cells = [v for row in _downloaded_json(downloads)["cells"] for v in row]
        expected = list(truth.colors())
        expected[cell] = new
        assert cells == expected
        problems = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not problems, problems  # no script error, no blocked resource
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, Path(keep) / shot.name)
        assert shot.stat().st_size > 10_000
    finally:
        driver.quit()


def rendered_shot(path: Path, seed: int, device: str, ink: int, par: int) -> None:
    """A screenshot drawn by the renderer (a tall phone's, written on in ink, like the
    shots players send), saved as PNG."""
    import random

    from PIL import Image

    from kamivision.synth.render import render
    from tests.boards import random_kami_board

    board = random_kami_board(random.Random(seed), 4, blank_outline=False, par=par)
    image, _ = render(board, device, seed=seed, ink=ink)
    Image.fromarray(image).save(path)


def open_in_page(driver, wait, path: Path) -> None:
    picker = driver.find_element(By.ID, "file")
    driver.execute_script("arguments[0].style.display = 'block'", picker)
    picker.send_keys(str(path))
    driver.execute_script("arguments[0].style.display = ''", picker)
    wait.until(lambda d: d.execute_script("return S.session && S.session.name") == path.stem)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#cells polygon")) == 290)


def in_view(driver, element_id: str) -> bool:
    """The element lies wholly inside the window, as it stands (no scrolling)."""
    return driver.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;",
        element_id,
    )


@setups(plain=None)  # every pairing slow: the first test stands for the page in the plain run
def test_a_tall_inked_shot_a_second_shot_and_the_keyboard(server, tmp_path, size):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    tall, second = tmp_path / "tall-inked.png", tmp_path / "second.png"
    rendered_shot(tall, 11, "android-tall", 16, par=5)
    rendered_shot(second, 12, "iphone-8", 0, par=4)
    driver, width, phone, _ = page_at(server, tmp_path, size)
    try:
        wait = waiting(driver)
        # "Open screenshot" is the first Tab stop.
        ActionChains(driver).send_keys(Keys.TAB).perform()
        assert driver.execute_script("return document.activeElement.id") == "file"

        open_in_page(driver, wait, tall)
        assert driver.execute_script("return window.scrollY") == 0
        assert in_view(driver, "solve"), "Solve is below the fold"
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width  # nothing widens the page
        driver.find_element(By.ID, "solve").click()
        wait.until(EC.visibility_of_element_located((By.ID, "player")))
        for element in ("step-text", "prev", "next"):
            assert in_view(driver, element), f"{element} is out of view after Solve"
        assert driver.execute_script("return document.activeElement.id") == "next"  # focus kept after Solve
        text = driver.find_element(By.ID, "step-text").text
        assert text.startswith("Move 1 of ") and ": pick " in text and "then tap the outlined region" in text
        assert not driver.find_elements(By.CSS_SELECTOR, "#step-palette button")  # no Tab stops that do nothing

        # The flat step board: the last board's cells are one color in their pixels.
        moves = driver.execute_script("return S.solution.moves.length")
        for _ in range(moves):
            driver.find_element(By.ID, "next").click()
        wait.until(lambda d: d.find_element(By.ID, "step-text").text.startswith("Done"))
        driver.find_element(By.ID, "zoom-fit").click()
        box = driver.execute_script(
            "const rs = [...document.querySelectorAll('#cells polygon')].filter((p, i) => {"
            "  const r = Math.floor(i / 10), c = i % 10; return r >= 3 && r <= 25 && c >= 2 && c <= 7; })"
            "  .map((p) => p.getBoundingClientRect());"
            "const b = document.getElementById('board').getBoundingClientRect();"
            "return [Math.max(...rs.map((r) => r.left)) - b.left, Math.max(...rs.map((r) => r.top)) - b.top,"
            "        Math.min(...rs.map((r) => r.right)) - b.left, Math.min(...rs.map((r) => r.bottom)) - b.top,"
            "        window.devicePixelRatio];"
        )
        # The middle of the board: inside every cell's box of the block above (no marker
        # is drawn after the last move).
        import io

        from PIL import Image

        picture = Image.open(io.BytesIO(driver.find_element(By.ID, "board").screenshot_as_png)).convert("RGB")
        x0, y0, x1, y1, ratio = box
        x0, y0, x1, y1 = (round(v * ratio) for v in (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
        patch = picture.crop((x0 + 2, y0 + 2, x1 - 2, y1 - 2))
        import numpy as np

        pixels = np.asarray(patch, dtype=float).reshape(-1, 3)
        off = np.abs(pixels - np.median(pixels, axis=0)).max()  # antialiased seams differ by a few units
        assert patch.size[0] > 20 and patch.size[1] > 20 and off <= 8, (patch.size, off)

        # A second screenshot: nothing of the first stays.
        driver.find_element(By.ID, "back-to-edit").click()
        open_in_page(driver, wait, second)
        for element in ("info", "verdict", "step-text", "progress"):
            assert driver.find_element(By.ID, element).text == "", element
        assert not driver.find_element(By.ID, "player").is_displayed()
        assert driver.execute_script("return S.session.par") == 4

        # Fix a cell by keyboard alone: Tab to the board, arrows to row 3, column 2, a number key.
        for _ in range(40):
            ActionChains(driver).send_keys(Keys.TAB).perform()
            if driver.execute_script("return document.activeElement.id") == "board":
                break
        assert driver.execute_script("return document.activeElement.id") == "board"
        assert driver.find_elements(By.CSS_SELECTOR, "#marks polygon.cursor")  # a visible focus ring
        cell = 3 * 10 + 2
        old = driver.execute_script("return S.session.cells")[cell]
        new = (old + 1) % driver.execute_script("return S.session.palette.length")
        ActionChains(driver).send_keys(
            Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_DOWN
        ).perform()
        assert "row 3, column 2" in driver.find_element(By.ID, "info").text
        ActionChains(driver).send_keys(str(new + 1)).perform()
        wait.until(lambda d: d.execute_script("return S.session.cells")[cell] == new)
        assert cell in driver.execute_script("return S.session.edited")
        ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        wait.until(lambda d: d.execute_script("return S.session.cells")[cell] == old)
        assert driver.find_element(By.ID, "info").text == ""  # no bubble outlives its tap
        ActionChains(driver).send_keys(str(new + 1)).perform()
        wait.until(lambda d: d.execute_script("return S.session.cells")[cell] == new)
        pressed = driver.find_elements(By.CSS_SELECTOR, '#palette .swatch[aria-pressed="true"]')
        assert len(pressed) == 1 and pressed[0].get_attribute("data-color") == str(new)
        assert driver.find_element(By.CSS_SELECTOR, '#palette .swatch[data-color="0"]').accessible_name.startswith(
            "color 1"
        )
        # A long file name in an error wraps; it does not widen the page.
        driver.execute_script(
            "showError('a-screenshot-with-a-very-long-name-' + 'x'.repeat(300) + '.png: not an image')"
        )
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        problems = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not problems, problems
    finally:
        driver.quit()


def step_shown(driver) -> str:
    return driver.find_element(By.ID, "step-count").text


@setups(plain=("memory", "phone"))
def test_two_tabs_a_reload_and_back_and_forward_keep_the_players_place(server, tmp_path, size):
    """Issue 48: a second tab opening another screenshot leaves the first tab's session
    alone; the address holds the session and the move, so a reload comes back at move 3,
    and Back and Forward step between moves and then between screenshots."""
    first, second = tmp_path / "first.png", tmp_path / "second.png"
    rendered_shot(first, 21, "iphone-8", 0, par=5)
    rendered_shot(second, 22, "iphone-8", 0, par=4)
    driver, _, _, _ = page_at(server, tmp_path, size)
    try:
        wait = waiting(driver)
        open_in_page(driver, wait, first)
        one = driver.execute_script("return S.session.id")
        assert f"s={one}" in driver.current_url
        driver.find_element(By.ID, "solve").click()
        wait.until(EC.visibility_of_element_located((By.ID, "player")))
        moves = driver.execute_script("return S.solution.moves.length")
        assert moves >= 3
        for _ in range(2):
            driver.find_element(By.ID, "next").click()
        assert step_shown(driver) == f"3 / {moves}" and driver.current_url.endswith(f"#s={one}&step=3")

        # The same address in a second tab, and another screenshot opened there.
        tab_one = driver.current_window_handle
        driver.switch_to.new_window("tab")
        driver.get(server[0])
        open_in_page(driver, wait, second)
        two = driver.execute_script("return S.session.id")
        assert two != one
        driver.switch_to.window(tab_one)
        status = "return fetch('/api/sessions/' + S.session.id, {headers: {'X-Kamivision': '1'}}).then((r) => r.status)"
        assert driver.execute_script(status) == 200  # the first tab's session lives on

        # A reload at move 3 comes back at move 3.
        driver.refresh()
        wait.until(
            lambda d: d.execute_script("return typeof S !== 'undefined' && S.session && S.solution && S.step") == 2
        )
        assert step_shown(driver) == f"3 / {moves}"
        assert driver.find_element(By.ID, "error").get_attribute("hidden") is not None

        # Back and Forward move between the moves.
        driver.back()
        wait.until(lambda d: step_shown(d) == f"2 / {moves}")
        driver.back()
        wait.until(lambda d: step_shown(d) == f"1 / {moves}")
        driver.forward()
        wait.until(lambda d: step_shown(d) == f"2 / {moves}")

        # Another screenshot in this tab; Back returns to the first one, at its move.
        open_in_page(driver, wait, second)
        assert driver.execute_script("return S.session.id") not in (one, two)
        driver.back()
        wait.until(lambda d: d.execute_script("return S.session && S.session.id") == one)
        wait.until(lambda d: step_shown(d) == f"2 / {moves}")
        driver.switch_to.window(driver.window_handles[-1])  # the second tab still has its own
        driver.refresh()  # (until the page's script has run, there is no S)
        wait.until(lambda d: d.execute_script("return typeof S !== 'undefined' && S.session && S.session.id") == two)
        problems = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not problems, problems
    finally:
        driver.quit()


VIEW_CHECK = """
const s = S.session, hidden = new Set(s.hidden), cells = [...document.querySelectorAll('#cells polygon')];
const shown = cells.filter((p, i) => !hidden.has(i));
const rows = shown.map((p) => Math.floor(Number(p.dataset.cell) / s.columns));
const first = Math.min(...rows), last = Math.max(...rows);
const edge = shown.filter((p) => [first, last].includes(Math.floor(Number(p.dataset.cell) / s.columns)))
  .map((p) => p.getBoundingClientRect());
const box = (id) => { const r = document.getElementById(id).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const marker = document.querySelector('#marks .marker');
return {
  rows: [Math.min(...edge.map((r) => r.left)), Math.min(...edge.map((r) => r.top)),
         Math.max(...edge.map((r) => r.right)), Math.max(...edge.map((r) => r.bottom))],
  view: [window.innerWidth, window.innerHeight], scroll: [window.scrollY, document.documentElement.scrollHeight],
  text: box('step-text'), next: box('next'), prev: box('prev'),
  pick: box(document.querySelector('#step-palette .swatch.pick') ? 'step-palette' : 'step-text'),
  clipped: (() => { const t = document.getElementById('step-text'); return t.scrollHeight > t.clientHeight + 1; })(),
  picture: getComputedStyle(document.getElementById('picture')).visibility,
  ink: marker && getComputedStyle(marker.querySelector('text')).fill,
  paper: marker && marker.querySelector('circle:not(.halo)').getAttribute('fill'),
};
"""


def _rgb(css: str) -> str:
    """'rgb(1, 2, 3)' or '#010203' as '#010203'."""
    if css.startswith("#"):
        return css.lower()
    r, g, b = (int(v) for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


@pytest.mark.slow
@pytest.mark.parametrize("server", ["memory"], indirect=True)
def test_the_step_view_fits_the_board_on_every_phone(server, tmp_path):
    """Issue 48: at 320 x 568, 360 x 740, 390 x 844 and 844 x 390, on a tall shot and a
    16:9 one, the board's first and last visible rows, the step line and Previous and Next
    are inside the viewport without scrolling; the marker's number reaches 4.5:1 on its
    color; Next does not move when the step line changes; after the last move the keyboard
    is on "Open screenshot"."""
    from tests.web.test_contrast import contrast

    tall, wide = tmp_path / "tall.png", tmp_path / "wide.png"
    rendered_shot(tall, 31, "android-tall", 0, par=6)
    rendered_shot(wide, 32, "iphone-8", 0, par=6)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    for width, height in ((320, 568), (360, 740), (390, 844), (844, 390)):
        driver = browser(downloads, width, height, phone=True)
        try:
            wait = waiting(driver)
            for shot in (tall, wide):
                driver.get(server[0])
                open_in_page(driver, wait, shot)
                driver.find_element(By.ID, "solve").click()
                wait.until(EC.visibility_of_element_located((By.ID, "player")))
                time.sleep(0.2)
                where = f"{shot.stem} at {width} x {height}"
                got = driver.execute_script(VIEW_CHECK)
                vw, vh = got["view"]
                assert (vw, vh) == (width, height), where
                left, top, right, bottom = got["rows"]
                assert left >= -1 and top >= -1 and right <= vw + 1 and bottom <= vh + 1, (where, got["rows"])
                for name in ("text", "next", "prev", "pick"):
                    x0, y0, x1, y1 = got[name]
                    assert x0 >= 0 and y0 >= 0 and x1 <= vw and y1 <= vh, (where, name, got[name])
                assert got["scroll"][0] == 0 and got["scroll"][1] <= vh + 1, (where, got["scroll"])
                assert not got["clipped"], where  # the step line's fixed height holds its text
                assert got["picture"] == "hidden", where  # no game footer through the zigzag edge
                assert contrast(_rgb(got["ink"]), _rgb(got["paper"])) >= 4.5, (where, got["ink"], got["paper"])
                moves = driver.execute_script("return S.solution.moves.length")
                for _ in range(moves):
                    before = driver.find_element(By.ID, "next").rect["y"]
                    driver.find_element(By.ID, "next").click()
                    assert driver.find_element(By.ID, "next").rect["y"] == before, where
                    assert driver.execute_script(
                        "const t = document.getElementById('step-text'); return t.scrollHeight <= t.clientHeight + 1"
                    ), where
                assert driver.execute_script("return document.activeElement.id") == "file", where
                # A cell listed in the notices, tapped, is shown inside the screen.
                driver.execute_script("document.getElementById('notices').open = true")
                listed = [
                    b for b in driver.find_elements(By.CSS_SELECTOR, "#warnings .row button") if b.text.startswith("(")
                ]
                if listed:
                    row, column = map(int, listed[0].text.strip("()").split(","))
                    driver.execute_script("arguments[0].scrollIntoView()", listed[0])
                    listed[0].click()
                    box = driver.execute_script(
                        "const r = document.querySelector(`#cells polygon[data-cell='${arguments[0]}']`)"
                        ".getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];",
                        row * 10 + column,
                    )
                    assert box[0] >= 0 and box[1] >= 0 and box[2] <= vw and box[3] <= vh, (where, box)
        finally:
            driver.quit()


@pytest.mark.slow
@pytest.mark.parametrize("server", ["memory"], indirect=True)
def test_chromium_reads_the_manifest_and_a_shared_picture_opens_in_the_page(server, tmp_path):
    """Issue 48: the manifest parses in Chromium without errors, with the share target;
    a picture POSTed to the share target (as the share sheet does: a form, no page header)
    opens in the page."""
    shot = tmp_path / "shared.png"
    rendered_shot(shot, 41, "iphone-8", 0, par=4)
    driver, _, _, _ = page_at(server, tmp_path, "phone")
    try:
        wait = waiting(driver)
        wait.until(lambda d: d.execute_script("return S.config !== null"))
        manifest = driver.execute_cdp_cmd("Page.getAppManifest", {})
        assert manifest["url"].endswith("/manifest.webmanifest") and not manifest["errors"], manifest["errors"]
        parsed = json.loads(manifest["data"])
        assert parsed["share_target"]["action"] == "/share" and parsed["display"] == "standalone"
        # The share sheet's POST: a multipart form with the picture in "image".
        driver.execute_script(
            "const f = document.createElement('form'); f.method = 'POST'; f.action = '/share';"
            "f.enctype = 'multipart/form-data'; f.id = 'share-form';"
            "const i = document.createElement('input'); i.type = 'file'; i.name = 'image'; i.id = 'share-file';"
            "f.appendChild(i); document.body.appendChild(f);"
        )
        driver.find_element(By.ID, "share-file").send_keys(str(shot))
        driver.execute_script("document.getElementById('share-form').submit()")
        wait.until(
            lambda d: d.execute_script("return typeof S !== 'undefined' && S.session && S.session.name") == "shared"
        )
        assert "#s=" in driver.current_url
        assert len(driver.find_elements(By.CSS_SELECTOR, "#cells polygon")) == 290
        problems = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not problems, problems
    finally:
        driver.quit()


def _downloaded_json(folder, seconds: float = 20.0) -> dict:
    """The one JSON file the browser downloads into ``folder``, once it is whole: Chromium
    can show the file under its final name before its bytes are in (a CI run read it
    empty)."""
    end = time.monotonic() + seconds
    while True:
        found = list(folder.glob("*.json"))
        if len(found) == 1:
            try:
                return json.loads(found[0].read_text())
            except json.JSONDecodeError:
                if time.monotonic() > end:
                    raise
        elif time.monotonic() > end:
            raise AssertionError(f"{len(found)} JSON files downloaded in {seconds} s: {found}")
        time.sleep(0.2)
