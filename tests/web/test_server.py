"""``kamivision serve`` and ``kamivision review`` as commands: the socket, the token, the
URL printed, saving from the page and ending the review from it."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from kamivision.board import read_board
from kamivision.errors import KamiError
from kamivision.web.server import bind, is_loopback

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def call(url: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    headers = {"X-Kamivision": "1", "Content-Type": "application/json"}
    if token:
        headers["X-Kamivision-Token"] = token
    data = None if body is None else json.dumps(body).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_loopback_names():
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5") and not is_loopback("example.org")


def test_a_port_in_use_is_one_clear_error():
    taken = bind("127.0.0.1", 0)
    try:
        with pytest.raises(KamiError, match=r"cannot listen on 127\.0\.0\.1:\d+: Address already in use"):
            bind("127.0.0.1", taken.getsockname()[1])
    finally:
        taken.close()


def test_serving_on_the_network_prints_a_warning_and_a_link_with_a_token():
    process = subprocess.Popen(
        [sys.executable, "-m", "kamivision", "serve", "--host", "0.0.0.0", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        warning = process.stdout.readline()
        link = process.stdout.readline()
        assert warning.startswith("WARNING") and "open to the network" in warning
        match = re.search(r"http://[^:/]+:(\d+)/\?token=([\w-]{20,})", link)
        assert match, link
        port, token = match.groups()
        status, body = call(f"http://127.0.0.1:{port}/api/config")
        assert status == 403 and "token" in body["error"]
        status, body = call(f"http://127.0.0.1:{port}/api/config?token={token}")
        assert status == 200
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_review_serves_the_screenshot_saves_from_the_page_and_ends_from_it(tmp_path):
    output = tmp_path / "delta.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "kamivision", "review", str(SAMPLES / "delta.jpg"), "-o", str(output), "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = [process.stdout.readline() for _ in range(2)]
        match = re.search(r"(http://127\.0\.0\.1:\d+/)\?token=([\w-]+)", "".join(lines))
        assert match, lines
        base, token = match.groups()
        status, refused = call(base + "api/config")
        assert status == 403 and "'kamivision review' printed it" in refused["error"]  # a review is private too
        status, config = call(base + "api/config", token=token)
        sid = config["review"]
        assert status == 200 and sid
        status, session = call(f"{base}api/sessions/{sid}", token=token)
        assert session["save"] == {"name": "delta.json"}
        call(f"{base}api/sessions/{sid}/edit", {"op": "paint", "cells": [0], "color": None}, token)
        status, saved = call(f"{base}api/sessions/{sid}/save", {}, token)
        assert status == 200 and read_board(output).cells[0][0] is None
        assert saved == {"saved": "delta.json"}  # its name, not where it lives on the server
        assert call(base + "api/quit", {}, token)[0] == 200
        assert process.wait(timeout=15) == 0
    finally:
        if process.poll() is None:
            process.kill()


def test_review_refuses_a_bad_screenshot_with_one_line(tmp_path):
    bad = tmp_path / "shot.png"
    bad.write_text("not a picture")
    done = subprocess.run(
        [sys.executable, "-m", "kamivision", "review", str(bad), "--no-browser"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "shot.png" in done.stderr
    assert not (tmp_path / "shot.json").exists()


def test_the_socket_is_listening_when_the_url_is_printed():
    sock = bind("127.0.0.1", 0)
    try:
        client = socket.create_connection(sock.getsockname(), timeout=5)  # accepted into the backlog
        client.close()
    finally:
        sock.close()


def test_https_with_a_certificate_and_one_line_for_a_bad_one(tmp_path):
    import shutil
    import ssl

    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: no certificate to test HTTPS with")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-subj",
            "/CN=localhost",
            "-days",
            "1",
        ],
        check=True,
        capture_output=True,
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kamivision",
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
            "--cert",
            str(cert),
            "--key",
            str(key),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        warning, link = process.stdout.readline(), process.stdout.readline()
        assert "unencrypted" not in warning
        port, token = re.search(r"https://[^:/]+:(\d+)/\?token=([\w-]+)", link).groups()
        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False
        with urllib.request.urlopen(
            f"https://127.0.0.1:{port}/api/config?token={token}", context=context, timeout=30
        ) as r:
            assert r.status == 200 and json.loads(r.read())["max_upload"] > 0
    finally:
        process.terminate()
        process.wait(timeout=10)
    key.write_text("not a key")
    done = subprocess.run(
        [sys.executable, "-m", "kamivision", "serve", "--cert", str(cert), "--key", str(key)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        done.returncode == 1 and done.stderr.count("\n") == 1 and "not a certificate and its key in PEM" in done.stderr
    )
    done = subprocess.run(
        [sys.executable, "-m", "kamivision", "serve", "--cert", str(cert)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and "needs both --cert and --key" in done.stderr


def test_quit_ends_only_a_review_never_a_server(server):
    url, process = server
    status, answer = call(url + "api/quit", {})
    assert status == 404 and "review" in answer["error"]
    assert process.poll() is None  # still serving
    assert call(url + "api/config")[0] == 200


@pytest.fixture()
def lone_server():
    """A server of its own (the flood below must not disturb the module's)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "kamivision", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", process.stdout.readline())
    assert match, process.stderr.read()
    yield int(match.group(1)), process
    process.kill()
    process.wait()


@pytest.mark.slow
def test_a_flood_of_idle_connections_leaves_real_clients_served(lone_server):
    import resource

    port, process = lone_server
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1300:
        pytest.skip(f"this machine allows only {hard} open files a process; the flood needs 1,300")
    resource.setrlimit(
        resource.RLIMIT_NOFILE,
        (max(soft, 1300) if hard == resource.RLIM_INFINITY else max(soft, min(hard, 4096)), hard),
    )
    idle = []
    try:
        for _ in range(1100):  # sending nothing, no token
            idle.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        slow = socket.create_connection(("127.0.0.1", port), timeout=10)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # headers never finished
        idle.append(slow)
        for _ in range(3):
            status, answer = call(f"http://127.0.0.1:{port}/api/config")
            assert status == 200 and "max_upload" in answer
        # The idle sockets that made room were closed by the server (read gives end of file).
        idle[0].settimeout(10)
        assert idle[0].recv(1) == b""
        assert process.poll() is None
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        for s in idle:
            s.close()


def test_a_malformed_request_is_answered_with_the_security_headers(server):
    url, _ = server
    port = int(url.rsplit(":", 1)[1].strip("/"))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        answer = b""
        while chunk := s.recv(4096):
            answer += chunk
    head = answer.split(b"\r\n\r\n")[0].lower()
    assert head.startswith(b"http/1.1 400") and b"x-frame-options: deny" in head and b"content-security-policy" in head


def test_an_upload_cut_off_midway_is_one_line_in_the_log(lone_server):
    port, process = lone_server
    for _ in range(2):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(
                b"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Kamivision: 1\r\nX-Filename: shot.png\r\n"
                b"Content-Length: 1000000\r\n\r\n" + b"\x89PNG" + b"\0" * 50_000
            )
    assert call(f"http://127.0.0.1:{port}/api/config")[0] == 200  # the server goes on
    process.terminate()
    _, log = process.communicate(timeout=20)
    assert "Traceback" not in log
    lines = [line for line in log.splitlines() if "went away" in line]
    assert len(lines) == 2, log
