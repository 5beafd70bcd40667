"""The page on a phone's home screen and in its share sheet: the manifest, its icons, and
the share target's POST opening a session (kamivision.web.install)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web app's packages (starlette, uvicorn) are not installed")

from starlette.testclient import TestClient  # noqa: E402

from kamivision.board import read_board  # noqa: E402
from kamivision.web import Settings, create_app  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def client(**settings) -> TestClient:
    settings.setdefault("allowed_hosts", ("testserver",))
    return TestClient(create_app(Settings(**settings)), follow_redirects=False)


def share(c: TestClient, path: Path, field: str = "image", headers=None, query: str = ""):
    files = {field: (path.name, path.read_bytes(), "image/jpeg")}
    return c.post("/share" + query, files=files, data={"title": "KAMI"}, headers=headers or {})


def fragment(location: str) -> dict:
    return {k: v[0] for k, v in parse_qs(urlsplit(location).fragment).items()}


def test_the_manifest_makes_the_page_an_installable_app_with_a_share_target():
    with client() as c:
        r = c.get("/manifest.webmanifest")
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/manifest+json")
        m = r.json()
        assert m["display"] == "standalone" and m["start_url"] == "/" and m["name"] and m["short_name"]
        sizes = {icon["sizes"] for icon in m["icons"]}
        assert {"192x192", "512x512"} <= sizes
        for icon in m["icons"]:  # each icon is a PNG of the size it claims
            import cv2

            got = c.get(icon["src"])
            assert got.status_code == 200 and got.headers["content-type"] == "image/png"
            picture = cv2.imdecode(np.frombuffer(got.content, np.uint8), cv2.IMREAD_COLOR)
            side = int(icon["sizes"].split("x")[0])
            assert picture.shape == (side, side, 3) and picture.std() > 20  # not one flat color
        target = m["share_target"]
        assert target["method"] == "POST" and target["enctype"] == "multipart/form-data"
        assert target["action"] == "/share" and target["params"]["files"][0]["name"] == "image"
        assert c.get("/static/icon-100.png").status_code == 404


def test_a_shared_screenshot_opens_a_session_and_the_page_follows():
    truth = read_board(SAMPLES / "delta.json")
    with client() as c:
        r = share(c, SAMPLES / "delta.jpg")  # no X-Kamivision header: the share sheet cannot send one
        assert r.status_code == 303, r.text
        place = fragment(r.headers["location"])
        assert urlsplit(r.headers["location"]).path == "/" and "s" in place
        session = c.get(f"/api/sessions/{place['s']}").json()
        assert session["name"] == "delta" and session["cells"] == list(truth.colors())


def test_a_share_from_another_sites_page_is_refused_and_a_bad_one_is_shown_on_the_page(tmp_path):
    with client() as c:
        r = share(c, SAMPLES / "delta.jpg", headers={"Sec-Fetch-Site": "cross-site"})
        assert r.status_code == 403 and "X-Kamivision" in r.json()["error"]
        assert share(c, SAMPLES / "delta.jpg", headers={"Sec-Fetch-Site": "same-origin"}).status_code == 303
        # No picture in the form, or not a picture: the page opens with the error.
        r = share(c, SAMPLES / "delta.jpg", field="text")
        assert r.status_code == 303 and "no picture" in fragment(r.headers["location"])["error"]
        junk = tmp_path / "notes.png"
        junk.write_text("not a picture")
        r = share(c, junk)
        assert r.status_code == 303 and fragment(r.headers["location"])["error"].startswith("notes.png: not an image")
        r = c.post("/share", content=b"plain", headers={"Content-Type": "text/plain"})
        assert r.status_code == 303 and "multipart/form-data" in fragment(r.headers["location"])["error"]


def test_with_a_token_the_manifest_and_the_share_carry_it():
    with client(token="s3cret") as c:
        assert c.get("/manifest.webmanifest").status_code == 403
        m = c.get("/manifest.webmanifest?token=s3cret").json()
        assert m["start_url"] == "/?token=s3cret" and m["share_target"]["action"] == "/share?token=s3cret"
        assert c.get("/static/icon-192.png").status_code == 200  # icons are static: no token
        assert share(c, SAMPLES / "delta.jpg").status_code == 403
        r = share(c, SAMPLES / "delta.jpg", query="?token=s3cret")
        assert r.status_code == 303 and r.headers["location"].startswith("/?token=s3cret#s=")
