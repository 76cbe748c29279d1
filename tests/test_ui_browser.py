"""`credo ui` in a real browser: the real command serving a real SQLite file (the demo
memory, filled through `Memory.remember`), driven by Debian's headless Chromium through
its own chromedriver with Selenium (the driver path is given, so Selenium Manager never
looks for a browser to download). scripts/test.sh installs both when they are missing."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("starlette")
selenium = pytest.importorskip("selenium")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import (  # noqa: E402
    NoSuchElementException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from credo.testing import memory_for_tests  # noqa: E402
from credo.ui.demo import fill  # noqa: E402

#: each test drives a real browser: seconds, not milliseconds
pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
TOKEN = "browser-test-token-" + "b" * 24
#: the installed `credo` command (python -m credo.cli runs cli.py twice over, as __main__
#: and as credo.cli, and then exit statuses differ)
_SCRIPT = Path(sys.executable).parent / "credo"
CREDO = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "credo.cli"]

if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
    pytest.skip(
        "!!! no chromium/chromedriver: the browser tests of credo ui SKIP (scripts/test.sh "
        "installs Debian's chromium and chromium-driver with apt-get)",
        allow_module_level=True,
    )


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path
    db: Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(tmp: Path, db: Path, *args: str, env: dict[str, str] | None = None) -> Server:
    port = _free_port()
    log = tmp / f"ui-{port}.log"
    command = [
        *CREDO,
        "--db",
        str(db),
        "--scope",
        "arttu",
        "--embedder",
        "hash",
        "ui",
        "--port",
        str(port),
        *args,
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, **(env or {}), "PYTHONUNBUFFERED": "1"},
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"credo ui exited: {log.read_text()}")
        try:
            urllib.request.urlopen(url + "/login", timeout=2).read()
            return Server(url, process, log, db)
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise AssertionError(f"credo ui did not start: {log.read_text()}")


def _stop(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.process.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("ui")
    db = tmp / "demo.db"
    memory = memory_for_tests(db, scope="arttu")
    fill(memory)
    memory.store.close()
    token_file = tmp / "token"
    token_file.write_text(TOKEN + "\n")
    token_file.chmod(0o600)
    started = _start(tmp, db, "--token-file", str(token_file))
    try:
        yield started
    finally:
        _stop(started)


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1200,900",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def signed_in(browser: WebDriver, server: Server) -> WebDriver:
    browser.get(server.url + "/login")
    field = browser.find_element(By.ID, "token")
    field.clear()
    _click(browser, field, TOKEN)  # waits for the login page to go (else: a stale h1)
    WebDriverWait(browser, 30, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: _h1(d) == "Subjects"
    )
    return browser


def _click(browser: WebDriver, element: WebElement, typed: str | None = None) -> None:
    """Follow a link or submit a form (by clicking, or by typing `typed` and Enter into a
    field), and wait for the next page: reading right after it can catch the page that
    is being left (a stale element).

    The page being left is marked in its own `window`; the next page has a fresh one.
    While the browser is between the two, the driver may answer any probe with an error
    (a stale element, or "Node with given id does not belong to the document"), so the
    wait treats a driver error as "not yet" rather than as the answer."""
    browser.execute_script("window.__credoLeaving = true;")
    if typed is None:
        element.click()
    else:
        element.send_keys(typed + Keys.ENTER)

    def arrived(d: WebDriver) -> bool:
        return bool(
            d.execute_script(
                "return window.__credoLeaving === undefined && document.readyState === 'complete';"
            )
        )

    WebDriverWait(browser, 30, ignored_exceptions=(WebDriverException,)).until(arrived)


def _h1(browser: WebDriver) -> str:
    return str(browser.find_element(By.TAG_NAME, "h1").text)


def _body(browser: WebDriver) -> str:
    return str(browser.find_element(By.TAG_NAME, "body").text)


def test_browse_subjects_timeline_and_a_fact(signed_in: WebDriver) -> None:
    b = signed_in
    _click(b, b.find_element(By.LINK_TEXT, "user"))
    assert _h1(b) == "user"
    timeline = b.find_element(By.CSS_SELECTOR, "[aria-labelledby=timeline-h]").text
    assert timeline.index("Berlin") < timeline.index("Lisbon")
    assert "2019-03-01 – 2023-06-01" in timeline and "superseded" in timeline
    _click(b, b.find_element(By.LINK_TEXT, "Lisbon"))
    assert _h1(b) == "Fact"
    assert "The user lives in Lisbon now" in _body(b)
    lineage = b.find_element(By.CSS_SELECTOR, "[aria-labelledby=lineage-h]").text
    assert "The user lives in Berlin" in lineage


def test_search_with_the_keyboard(signed_in: WebDriver) -> None:
    b = signed_in
    _click(b, b.find_element(By.LINK_TEXT, "Search"))
    box = b.find_element(By.ID, "q")
    assert b.find_element(By.CSS_SELECTOR, "label[for=q]").text == "Question or words"
    _click(b, box, "where does arttu deploy")
    results = b.find_element(By.CSS_SELECTOR, "[aria-labelledby=results-h]").text
    assert "Arttu deploys arttuan.com on Vercel" in results
    b.find_element(By.ID, "k").clear()
    b.find_element(By.ID, "k").send_keys("99" + Keys.ENTER)

    def refused(d: WebDriver) -> bool:  # the browser's own check (max=50) or the server's
        return "between 1 and 50" in _body(d) or bool(
            d.find_element(By.ID, "k").get_attribute("validationMessage")
        )

    # waited for: the server's answer may still be on its way (never a wrong answer)
    stale = (StaleElementReferenceException, NoSuchElementException)
    assert WebDriverWait(b, 30, ignored_exceptions=stale).until(refused)


def test_resolve_a_conflict(signed_in: WebDriver, server: Server) -> None:
    b = signed_in
    _click(b, b.find_element(By.LINK_TEXT, "Conflicts"))
    conflict = b.find_element(By.CSS_SELECTOR, "section.conflict")
    assert "Maria works at Futurice" in conflict.text and "Maria works at Nitor" in conflict.text
    conflict.find_element(By.CSS_SELECTOR, "input[name=decided_by]").send_keys("Arttu")
    _click(b, conflict.find_element(By.CSS_SELECTOR, "button[value=keep_a]"))
    assert _h1(b) == "Conflict settled"
    assert "ui:Arttu" in _body(b)
    _click(b, b.find_element(By.LINK_TEXT, "Back to the conflicts"))
    assert "No open conflicts" in _body(b)
    memory = memory_for_tests(server.db, scope="arttu")
    try:
        (settled,) = memory.conflicts(include_resolved=True)
        assert settled.decided_by == "ui:Arttu" and settled.a.status.value == "active"
    finally:
        memory.store.close()


def test_forget_with_confirmation(signed_in: WebDriver, server: Server) -> None:
    b = signed_in
    _click(b, b.find_element(By.LINK_TEXT, "staging database"))
    _click(b, b.find_element(By.PARTIAL_LINK_TEXT, "Forget staging database"))
    assert "Forget subject" in _h1(b)
    assert "The staging database runs on PostgreSQL 16" in _body(b)
    _click(b, b.find_element(By.LINK_TEXT, "Cancel"))  # looking deletes nothing
    assert "staging database" in _body(b)
    b.get(server.url + "/forget?subject=staging+database")
    _click(b, b.find_element(By.CSS_SELECTOR, "form.confirm button"))
    assert _h1(b) == "Forgotten" and "Removed 1 fact(s)" in _body(b)
    _click(b, b.find_element(By.LINK_TEXT, "Back to the subjects"))
    assert "staging database" not in _body(b)


def test_review_a_rejection_and_remember_it(signed_in: WebDriver) -> None:
    b = signed_in
    _click(b, b.find_element(By.LINK_TEXT, "Rejections"))
    item = next(
        a
        for a in b.find_elements(By.CSS_SELECTOR, "ol.rejections article")
        if "Arttu might switch to Emacs" in a.text
    )
    assert "hedged" in item.text
    _click(b, item.find_element(By.CSS_SELECTOR, "button"))  # as it was: refused again
    assert _h1(b) == "Not stored" and "hedged" in _body(b)
    _click(b, b.find_element(By.LINK_TEXT, "Back to the rejections"))
    item = next(
        a
        for a in b.find_elements(By.CSS_SELECTOR, "ol.rejections article")
        if "Arttu might switch to Emacs" in a.text
    )
    field = item.find_element(By.CSS_SELECTOR, "input[name=text]")
    field.clear()
    _click(b, field, "Arttu uses Emacs")  # edited: a plain statement
    assert _h1(b) == "Remembered"
    _click(b, b.find_element(By.PARTIAL_LINK_TEXT, "Emacs"))
    assert _h1(b) == "Fact" and "Arttu uses Emacs" in _body(b)


def test_add_a_fact_then_correct_it(signed_in: WebDriver) -> None:
    b = signed_in
    _click(b, b.find_element(By.ID, "add-text"), "Arttu plays the banjo")
    assert _h1(b) == "Remembered"
    _click(b, b.find_element(By.PARTIAL_LINK_TEXT, "banjo"))
    assert _h1(b) == "Fact" and "Arttu plays the banjo" in _body(b)
    b.find_element(By.ID, "correct-by").send_keys("Arttu")
    field = b.find_element(By.ID, "correct-text")
    field.clear()
    _click(b, field, "Arttu plays the ukulele")
    assert _h1(b) == "Remembered" and "Retracted as wrong" in _body(b)
    _click(b, b.find_element(By.LINK_TEXT, "Back to the fact"))
    assert "retracted" in _body(b) and "ui:Arttu" in _body(b)


def test_pages_read_and_move_by_keyboard_without_javascript(
    signed_in: WebDriver, server: Server
) -> None:
    b = signed_in
    b.get(server.url + "/")
    assert b.find_elements(By.TAG_NAME, "script") == []  # no script at all: reads with JS off
    assert b.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    assert b.find_element(By.CSS_SELECTOR, "nav[aria-label=Main]")
    assert b.find_element(By.TAG_NAME, "main")
    b.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    focused = b.switch_to.active_element
    assert focused.text == "Skip to content"
    outline = focused.value_of_css_property("outline-style")
    assert outline not in ("none", ""), "the focused link shows no focus ring"


def test_a_server_bound_elsewhere_needs_the_token(
    tmp_path: Path, browser: WebDriver, server: Server
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CREDO_MCP_TOKEN"}
    refused = subprocess.run(
        [
            *CREDO,
            "--db",
            str(tmp_path / "x.db"),
            "--embedder",
            "hash",
            "ui",
            "--host",
            "0.0.0.0",
            "--port",
            str(_free_port()),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert refused.returncode == 2 and "refusing to serve on 0.0.0.0" in refused.stderr
    open_server = _start(tmp_path, server.db, "--host", "0.0.0.0", env={"CREDO_MCP_TOKEN": TOKEN})
    try:
        browser.delete_all_cookies()
        browser.get(open_server.url + "/")
        assert _h1(browser) == "Sign in"  # the page itself is refused (401)
        with pytest.raises(urllib.error.HTTPError) as no_token:
            urllib.request.urlopen(open_server.url + "/export", timeout=5)
        assert no_token.value.code == 401
        field = browser.find_element(By.ID, "token")
        _click(browser, field, "a-wrong-token-of-some-length")
        assert "not this server's" in _body(browser)
        _click(browser, browser.find_element(By.ID, "token"), TOKEN)
        assert _h1(browser) == "Subjects"
        assert TOKEN not in open_server.log.read_text()  # a token given is never printed
    finally:
        _stop(open_server)
        browser.delete_all_cookies()


def test_loopback_without_a_token_prints_a_one_off_sign_in_link(
    tmp_path: Path, browser: WebDriver, server: Server
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CREDO_MCP_TOKEN"}
    env["CREDO_MCP_TOKEN"] = ""
    one_off = _start(tmp_path, server.db, env=env)
    try:
        log = one_off.log.read_text()
        link = next(w for w in log.split() if "/login?token=" in w)
        token = link.rsplit("=", 1)[1]
        assert link.startswith(one_off.url) and len(token) >= 32 and token != TOKEN
        browser.delete_all_cookies()
        browser.get(one_off.url + "/")
        assert _h1(browser) == "Sign in"
        browser.get(link)
        assert _h1(browser) == "Subjects"
    finally:
        _stop(one_off)
        browser.delete_all_cookies()
