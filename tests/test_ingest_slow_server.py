"""The issue's scenario end to end: `credo ingest` of a LoCoMo-layout conversation
against a deliberately slow OpenAI-compatible server on 127.0.0.1, run as a user runs it
(a subprocess, progress on a pseudo-terminal), interrupted with Ctrl-C half-way, resumed,
and compared with an uninterrupted run: nothing lost, nothing stored twice. Piped, the
same command prints no progress line."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

SESSIONS = 6
SAID = {
    "porter": "{s} works as a porter in ward {n}.",
    "cello": "{s} plays the cello in orchestra number {n}.",
    "bees": "{s}'s sister Anna keeps {n} beehives.",
    "tired": "{s} is so tired today.",  # the gate refuses it (a passing state)
}
LINE = re.compile(r"^\[(\d+)\] user (\w+) \([^)]*\): (.*)$")


def locomo(path: Path) -> Path:
    """A conversation in LoCoMo's layout, written here (real data stays out of the repo)."""
    conv: dict[str, Any] = {"speaker_a": "Ada", "speaker_b": "Bo"}
    texts = [
        "I work as a porter in ward {n}.",
        "I'm so tired today.",
        "I play the cello in orchestra number {n}.",
        "My sister Anna keeps {n} beehives (bees!).",
    ]
    for s in range(1, SESSIONS + 1):
        conv[f"session_{s}_date_time"] = f"10:37 am on {s} March, 2021"
        conv[f"session_{s}"] = [
            {
                "speaker": "Ada" if j % 2 == 0 else "Bo",
                "dia_id": f"D{s}:{j + 1}",
                "text": t.format(n=s),
            }
            for j, t in enumerate(texts)
        ]
    path.write_text(json.dumps([{"sample_id": "conv-slow", "conversation": conv}]), "utf-8")
    return path


class SlowModel:
    """An OpenAI-compatible /chat/completions that takes `delay` seconds per reply and
    states what the prompt's turns say (with token counts, as llama.cpp reports them)."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.requests = 0
        #: requests after this many are held until it is set back to None (at most 20 s):
        #: a Ctrl-C then lands while an episode is in flight, however slow the machine
        self.hold_after: int | None = None
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                owner.requests += 1
                number = owner.requests
                time.sleep(owner.delay)
                held = time.monotonic() + 20
                while (
                    owner.hold_after is not None
                    and number > owner.hold_after
                    and time.monotonic() < held
                ):
                    time.sleep(0.02)
                facts = []
                for line in body["messages"][-1]["content"].splitlines():
                    m = LINE.match(line)
                    if not m:
                        continue
                    for word, text in SAID.items():
                        if word in m.group(3):
                            facts.append(
                                {
                                    "text": text.format(
                                        s=m.group(2), n=re.findall(r"\d+", m.group(3) + " 0")[0]
                                    ),
                                    "subject": m.group(2),
                                    "turns": [int(m.group(1))],
                                }
                            )
                reply = {
                    "choices": [
                        {
                            "message": {
                                "role": "assistant",
                                "content": json.dumps({"facts": facts}),
                            },
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 900, "completion_tokens": 40 * len(facts)},
                }
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        class Quiet(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # the interrupted client hangs up mid-reply

        self.httpd = Quiet(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        ).start()


@pytest.fixture
def slow() -> Iterator[SlowModel]:
    model = SlowModel(delay=0.4)
    yield model
    model.httpd.shutdown()
    model.httpd.server_close()


def _env(db: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CREDO_", "OPENAI_"))}
    env.update(CREDO_DB=str(db), CREDO_EMBEDDER="hash", CREDO_LLM_TIMEOUT="30")
    return env


def _argv(conv: Path, url: str, *extra: str) -> list[str]:
    code = "import sys; from credo.cli import main; sys.exit(main())"
    return [sys.executable, "-c", code, "ingest", str(conv), "--llm", "llamacpp:slow",
            "--llm-url", url, "--episode-size", "4", *extra]  # fmt: skip


def _as_from_a_shell() -> None:
    """In the child before it runs: Ctrl-C as a terminal delivers it. A child inherits an
    ignored or blocked SIGINT from its parent (the test process, after other tests), and
    then a Ctrl-C would never reach it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def _counts(db: Path) -> tuple[int, int]:
    from credo.embed import HashEmbedder
    from credo.store.sqlite import SQLiteStore

    store = SQLiteStore(db, HashEmbedder())
    try:
        return store.count(scope="default"), len(store.rejections(scope="default", limit=10_000))
    finally:
        store.close()


@pytest.mark.slow
def test_a_slow_endpoint_ingest_shows_progress_survives_ctrl_c_and_resumes(
    tmp_path: Path, slow: SlowModel
) -> None:
    conv = locomo(tmp_path / "conv.json")
    # the reference: one uninterrupted run, piped
    clean = tmp_path / "clean.db"
    done = subprocess.run(
        _argv(conv, slow.url, "--json"), env=_env(clean), capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["episodes"] == SESSIONS and report["accepted"] == 3 * SESSIONS
    assert report["tokens"]["prompt_tokens"] == 900 * SESSIONS
    assert "ingest 1/" not in done.stderr  # piped: no progress lines
    reference = _counts(clean)
    assert reference == (3 * SESSIONS, SESSIONS)  # one fact row per statement

    # on a terminal: a progress line per episode, then Ctrl-C half-way
    db = tmp_path / "live.db"
    slow.hold_after = slow.requests + 3  # the fourth episode waits for the Ctrl-C
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        _argv(conv, slow.url), env=_env(db), stdin=subprocess.DEVNULL, stdout=follower,
        stderr=follower, preexec_fn=_as_from_a_shell,
    )  # fmt: skip
    os.close(follower)
    seen = b""
    deadline = time.monotonic() + 60
    while b"ingest 3/6" not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.5)
        if ready:
            try:
                seen += os.read(leader, 4096)
            except OSError:
                break
    proc.send_signal(signal.SIGINT)
    slow.hold_after = None
    try:
        while True:
            ready, _, _ = select.select([leader], [], [], 0.5)
            if ready:
                chunk = os.read(leader, 4096)
                if not chunk:
                    break
                seen += chunk
            elif proc.poll() is not None:
                break
    except OSError:
        pass
    proc.wait(timeout=30)
    os.close(leader)
    text = seen.decode("utf-8", "replace")
    assert proc.returncode == 130, text
    lines = [ln for ln in text.splitlines() if ln.startswith("ingest ")]
    assert lines[0].startswith("ingest 1/6 | done: kept 3 of 4, tokens 900 in / 160 out")
    assert "each" in lines[0] and "ETA" in lines[0]
    assert "interrupted after" in text and "run the same command again" in text
    stopped = _counts(db)
    assert 3 * 3 <= stopped[0] < reference[0]  # three or four episodes were done

    # resumed, piped: the done episodes are skipped, the rest finished, nothing twice
    requests = slow.requests
    again = subprocess.run(
        _argv(conv, slow.url, "--json"), env=_env(db), capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    resumed = json.loads(again.stdout)
    assert resumed["episodes_skipped"] == stopped[0] // 3
    assert slow.requests - requests == SESSIONS - resumed["episodes_skipped"]
    assert _counts(db) == reference
    # and once more: everything is done, no request is sent
    requests = slow.requests
    last = subprocess.run(
        _argv(conv, slow.url, "--json"), env=_env(db), capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert json.loads(last.stdout)["episodes_skipped"] == SESSIONS
    assert slow.requests == requests and _counts(db) == reference


@pytest.mark.slow
def test_a_timeout_too_short_says_which_option_to_raise(tmp_path: Path) -> None:
    model = SlowModel(delay=1.5)
    try:
        conv = locomo(tmp_path / "conv.json")
        env = _env(tmp_path / "t.db")
        env["CREDO_LLM_TIMEOUT"] = "0.3"
        run = subprocess.run(
            _argv(conv, model.url, "--episode-size", "1", "--json"), env=env,
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    finally:
        model.httpd.shutdown()
        model.httpd.server_close()
    assert run.returncode == 1
    assert "--llm-timeout" in run.stderr
    assert "stopped after 3 episodes in a row failed; run the same command again" in run.stderr
    report = json.loads(run.stdout)
    assert len(report["episodes_failed"]) == 3
