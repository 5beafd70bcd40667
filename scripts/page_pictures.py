"""The README's pictures of the page: ``docs/page-desktop.jpg`` (fixing cells of an inked
screenshot of a tall phone) and ``docs/page-phone.jpg`` (the step player at 390 x 844).

    python scripts/page_pictures.py

Needs Debian's chromium and chromium-driver, and selenium (the test extra)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from tests.web.test_browser import browser  # noqa: E402


def open_shot(driver, url: str, shot: Path) -> WebDriverWait:
    wait = WebDriverWait(driver, 60)
    driver.get(url)
    picker = driver.find_element(By.ID, "file")
    driver.execute_script("arguments[0].style.display = 'block'", picker)
    picker.send_keys(str(shot))
    driver.execute_script("arguments[0].style.display = ''", picker)
    wait.until(EC.visibility_of_element_located((By.ID, "work")))
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#cells polygon"))
    time.sleep(0.5)
    return wait


def save_jpeg(driver, path: Path) -> None:
    image = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    ratio = driver.execute_script("return window.devicePixelRatio")
    if ratio > 1:  # a phone's picture at two pixels per point is sharp enough and a third of the size
        image = image.resize((round(image.width * 2 / ratio), round(image.height * 2 / ratio)), Image.LANCZOS)
    image.save(path, quality=85)
    print(f"wrote {path.relative_to(ROOT)} ({image.width}x{image.height})")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        shot = tmp / "harbour-tall.jpg"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "kamivision",
                "render",
                str(ROOT / "samples/harbour.json"),
                "-o",
                str(shot),
                "--device",
                "android-tall",
                "--ink",
                "14",
                "--seed",
                "1",
            ],
            check=True,
            capture_output=True,
        )
        server = subprocess.Popen(
            [sys.executable, "-m", "kamivision", "serve", "--port", "0"], stdout=subprocess.PIPE, text=True
        )
        try:
            url = re.search(r"(http://\S+/)", server.stdout.readline()).group(1)
            driver = browser(tmp / "d", 1280, 860, phone=False)
            try:
                open_shot(driver, url, shot)
                driver.find_element(By.ID, "notices-line").click()  # the notices, opened
                assert driver.find_elements(By.CSS_SELECTOR, "#warnings .warning")
                cell = int(driver.execute_script("return S.session.uncertain.find(c => !S.session.hidden.includes(c))"))
                polygon = driver.find_element(By.CSS_SELECTOR, f'#cells polygon[data-cell="{cell}"]')
                ActionChains(driver).move_to_element(polygon).perform()
                time.sleep(0.3)
                save_jpeg(driver, ROOT / "docs/page-desktop.jpg")
            finally:
                driver.quit()
            driver = browser(tmp / "p", 390, 844, phone=True)
            try:
                wait = open_shot(driver, url, ROOT / "samples/lantern.jpg")
                driver.find_element(By.ID, "solve").click()
                wait.until(EC.visibility_of_element_located((By.ID, "player")))
                driver.find_element(By.ID, "next").click()
                time.sleep(0.3)
                save_jpeg(driver, ROOT / "docs/page-phone.jpg")
            finally:
                driver.quit()
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
