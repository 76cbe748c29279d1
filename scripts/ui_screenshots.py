"""Screenshots of the memory inspector's main pages, written to docs/ui/*.png.

Builds the demo memory (`credo.ui.demo`: real sentences through `Memory.remember`, with
the bundled local embedding model) in a temporary SQLite file, serves it with the real
`credo ui` command, and photographs each page in headless Chromium (Debian's chromium
and chromium-driver; nothing is downloaded).

    .venv/bin/python scripts/ui_screenshots.py [--out docs/ui] [--embedder local:minilm]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WIDTH = 1200


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def build_demo(db: Path, embedder: str) -> None:
    from credo.embed import get_embedder
    from credo.memory import Memory
    from credo.store import open_store
    from credo.ui.demo import fill

    store = open_store(str(db), get_embedder(embedder))
    try:
        fill(Memory(store, scope="arttu"))
    finally:
        store.close()


def wait_up(url: str, process: subprocess.Popen[bytes], timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"credo ui exited with status {process.returncode}")
        try:
            urllib.request.urlopen(url + "/login", timeout=2).read()
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("credo ui did not start in time")


def shoot(driver: webdriver.Chrome, path: Path) -> None:
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(WIDTH, min(max(int(height) + 140, 500), 2600))
    driver.save_screenshot(str(path))
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "ui")
    parser.add_argument("--embedder", default="local:minilm")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "demo.db"
        build_demo(db, args.embedder)
        token = "screenshot-token-" + "s" * 24
        token_file = Path(tmp) / "token"
        token_file.write_text(token + "\n")
        token_file.chmod(0o600)
        port = free_port()
        command = [
            sys.executable,
            "-m",
            "credo.cli",
            "--db",
            str(db),
            "--scope",
            "arttu",
            "--embedder",
            args.embedder,
            "ui",
            "--port",
            str(port),
            "--token-file",
            str(token_file),
        ]
        process = subprocess.Popen(command, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        base = f"http://127.0.0.1:{port}"
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            f"--window-size={WIDTH},900",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ):
            options.add_argument(flag)
        driver = None
        try:
            wait_up(base, process)
            driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
            driver.get(f"{base}/login?token={token}")
            pages = [
                ("subjects", "/"),
                ("subject-timeline", "/subject?name=user"),
                ("search", "/search?q=where+does+the+user+live&k=5"),
                ("conflicts", "/conflicts"),
                ("rejections", "/rejections"),
                ("forget-confirmation", "/forget?subject=maria"),
            ]
            for name, path in pages:
                driver.set_window_size(WIDTH, 900)
                driver.get(base + path)
                shoot(driver, args.out / f"{name}.png")
            driver.set_window_size(WIDTH, 900)
            driver.get(base + "/subject?name=user")
            driver.find_element(By.LINK_TEXT, "Lisbon").click()
            shoot(driver, args.out / "fact.png")
        finally:
            if driver is not None:
                driver.quit()
            process.terminate()
            process.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
