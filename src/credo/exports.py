"""Readers for the histories people already have: a ChatGPT data export, a Claude data
export, and a folder of Markdown or plain-text notes. Each gives `Turn`s for `ingest()`.

- **ChatGPT** (`conversations.json`, or the export's .zip): a list of conversations, each a
  `mapping` of node id -> {message, parent, children} with a `current_node`. Only the path
  from `current_node` back to the root is read, so a branch edited away (a regenerated
  answer, an edited question) is not ingested. System and tool messages, messages hidden
  from the conversation, an assistant's calls to its tools and parts that are not text
  (images, code runs, reasoning) are skipped.
- **Claude** (`conversations.json` from claude.ai's export, or the .zip): a list of
  conversations with `uuid`, `name`, `created_at` and `chat_messages` ({uuid, sender,
  text, content, created_at}); only the `text` blocks of `content` are read (else `text`).
  Where messages name their parent (`parent_message_uuid`), only the path to the last one
  is read, as for ChatGPT.
- **Notes** (a folder): each .md / .markdown / .txt file is one episode of user turns (a
  paragraph each), dated by a date in its name (2024-03-01, 20240301) or else its
  modification time. Front matter and fenced code are left out.

Each conversation (each note) is one session: episodes never straddle two, turn ids are
the export's own message ids (`chatgpt:<id>`, `claude:<uuid>`, `notes:<path>#<n>`), and
conversations are read oldest first, so the same export read again, or a later export
holding more, gives the same turns. Every turn is dated by its own message's time (a
message without one takes the previous message's, then the conversation's). A message
longer than `MAX_TURN_CHARS` is cut into several turns (the user's) or shortened (the
assistant's: it is context only). Anything the structure does not allow is an
`IngestError` naming the conversation and the field, raised before anything is written.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .config import MAX_INPUT_BYTES, MAX_TURN_CHARS
from .errors import IngestError
from .extract.base import Turn
from .timeparse import parse_timestamp

__all__ = [
    "EXPORT_FORMATS",
    "NOTE_SUFFIXES",
    "detect_export",
    "load_export",
    "read_chatgpt",
    "read_claude",
    "read_notes",
]

EXPORT_FORMATS = ("chatgpt", "claude", "notes")
NOTE_SUFFIXES = (".md", ".markdown", ".txt")
#: control characters other than tab and line breaks, and lone surrogates: replaced
_NOT_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
_DATE_IN_NAME = re.compile(r"(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?!\d)")


# -- the file as downloaded ---------------------------------------------------------------
def _conversations_member(archive: zipfile.ZipFile, path: Path) -> zipfile.ZipInfo:
    found = [i for i in archive.infolist() if Path(i.filename).name == "conversations.json"]
    if not found:
        names = ", ".join(i.filename for i in archive.infolist()[:10]) or "nothing"
        raise IngestError(f"{path}: no conversations.json in this zip (it holds {names})")
    return min(found, key=lambda i: len(i.filename))


def _read_bytes(path: Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The conversations.json itself, or the one inside an export .zip."""
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                member = _conversations_member(archive, path)
                if member.file_size > MAX_INPUT_BYTES:
                    raise IngestError(
                        f"{path}: its conversations.json is {member.file_size} bytes; credo "
                        f"ingests at most {MAX_INPUT_BYTES} bytes a file"
                    )
                with archive.open(member) as fh:
                    return fh.read(limit + 1)
        size = path.stat().st_size
        if size > MAX_INPUT_BYTES:
            raise IngestError(
                f"{path} is {size} bytes; credo ingests at most {MAX_INPUT_BYTES} bytes a file"
            )
        with path.open("rb") as fh:
            return fh.read(limit + 1)
    except (OSError, zipfile.BadZipFile, RuntimeError) as exc:  # RuntimeError: encrypted
        raise IngestError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from exc


def load_export(path: str | Path) -> Any:
    """The parsed conversations.json of an export (the file, or the .zip holding it)."""
    path = Path(path)
    data = _read_bytes(path)
    if len(data) > MAX_INPUT_BYTES:
        raise IngestError(f"{path}: over {MAX_INPUT_BYTES} bytes")
    try:
        return json.loads(data)
    except RecursionError:
        raise IngestError(f"{path}: nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        raise IngestError(
            f"{path}:{exc.lineno}: not JSON ({exc.msg}); is the download complete?"
        ) from None
    except ValueError as exc:
        raise IngestError(f"{path}: not JSON ({str(exc)[:100]})") from None


def detect_export(path: str | Path) -> str | None:
    """chatgpt, claude or notes when `path` looks like one (from its first bytes), else
    None."""
    path = Path(path)
    if path.is_dir():
        return "notes"
    try:
        head = _read_bytes(path, 8192)[:8192].decode("utf-8", errors="replace")
    except IngestError:
        return None
    if path.suffix.lower() in NOTE_SUFFIXES and not head.lstrip().startswith(("{", "[")):
        return "notes"  # one note (a .txt of JSON Lines stays a conversation file)
    if not head.lstrip().startswith("["):
        return None
    if '"mapping"' in head and ('"create_time"' in head or '"current_node"' in head):
        return "chatgpt"
    if '"chat_messages"' in head:
        return "claude"
    return None


# -- text ---------------------------------------------------------------------------------
def _clean(text: str) -> str:
    return _NOT_TEXT.sub(" ", text).strip()


def _pieces(text: str, limit: int = MAX_TURN_CHARS) -> list[str]:
    """`text` cut into pieces of at most `limit` characters, at a paragraph, a line or a
    sentence where one is near."""
    out = []
    while len(text) > limit:
        cut = text.rfind("\n\n", 0, limit)
        if cut < limit // 2:
            cut = text.rfind("\n", 0, limit)
        if cut < limit // 2:
            cut = text.rfind(". ", 0, limit - 1) + 1
        if cut < limit // 2:
            cut = limit
        out.append(text[:cut].strip())
        text = text[cut:].strip()
    out.append(text)
    return [p for p in out if p]


def _turns(turn_id: str, role: str, text: str, stamp: float | None, episode: str) -> Iterator[Turn]:
    text = _clean(text)
    if not text:
        return
    if role != "user":  # context only: its beginning is enough
        if len(text) > MAX_TURN_CHARS:
            text = text[: MAX_TURN_CHARS - 1].rstrip() + "…"
        yield Turn(turn_id, role, text, stamp, episode=episode)
        return
    for n, piece in enumerate(_pieces(text), 1):
        yield Turn(turn_id if n == 1 else f"{turn_id}#{n}", role, piece, stamp, episode=episode)


def _label(n: int, conv: dict[str, Any], title_key: str) -> str:
    title = conv.get(title_key)
    if isinstance(title, str) and title.strip():
        shown = title.strip() if len(title) <= 60 else title[:57] + "..."
        return f"conversation {n} ({shown!r})"
    return f"conversation {n}"


def _conversations(data: Any, path: Path, kind: str) -> list[dict[str, Any]]:
    if isinstance(data, dict) and isinstance(data.get("conversations"), list):
        data = data["conversations"]
    if not isinstance(data, list):
        raise IngestError(
            f"{path}: a {kind} export's conversations.json is a JSON array of conversations, "
            f"not {type(data).__name__}"
        )
    for n, conv in enumerate(data, 1):
        if not isinstance(conv, dict):
            raise IngestError(f"{path}: conversation {n} is {type(conv).__name__}, not an object")
    return data


def _oldest_first(convs: list[tuple[float | None, int, Any]]) -> list[Any]:
    return [c for _, _, c in sorted(convs, key=lambda c: (c[0] is None, c[0] or 0.0, c[1]))]


def _stable_id(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:16]


# -- ChatGPT ------------------------------------------------------------------------------
def _chatgpt_path(mapping: dict[str, Any], current: Any, where: str) -> list[str]:
    """Node ids from the root to `current_node`, the branch the conversation ended on."""
    for node_id, entry in mapping.items():
        if not isinstance(entry, dict):
            raise IngestError(f"{where}: mapping node {node_id!r} is not an object")
    if current is None:  # no current node named: follow the newest child down from the root
        roots = [k for k, v in mapping.items() if v.get("parent") in (None, "")]
        if not roots:
            return []
        current = roots[0]
        while True:
            children = mapping[current].get("children") or []
            children = [c for c in children if c in mapping]
            if not children:
                break
            current = children[-1]
    if not isinstance(current, str) or current not in mapping:
        raise IngestError(f"{where}: current_node {current!r} is not in its mapping")
    path: list[str] = []
    seen: set[str] = set()
    node: Any = current
    while node not in (None, ""):
        if node in seen:
            raise IngestError(f"{where}: its mapping has a cycle through node {node!r}")
        if node not in mapping:
            raise IngestError(f"{where}: node {path[-1]!r} names parent {node!r}, not in mapping")
        seen.add(node)
        path.append(node)
        node = mapping[node].get("parent")
    return path[::-1]


def _chatgpt_text(message: dict[str, Any], where: str) -> tuple[str, str] | None:
    """(role, text) of a message someone said in the conversation, else None."""
    author = message.get("author")
    if not isinstance(author, dict):
        raise IngestError(f"{where}: 'author' must be an object with a 'role'")
    role = author.get("role")
    if role not in ("user", "assistant"):
        return None  # system, tool (and anything newer): nobody said it
    meta = message.get("metadata")
    if isinstance(meta, dict) and meta.get("is_visually_hidden_from_conversation"):
        return None  # custom instructions, context the app added
    if message.get("recipient") not in (None, "all"):
        return None  # the assistant calling a tool
    content = message.get("content")
    if content is None:
        return None
    if not isinstance(content, dict):
        raise IngestError(f"{where}: 'content' must be an object with content_type and parts")
    if content.get("content_type") not in ("text", "multimodal_text"):
        return None  # code, execution output, browsing, reasoning, context
    parts = content.get("parts")
    if parts is None:
        return None
    if not isinstance(parts, list):
        raise IngestError(f"{where}: content 'parts' must be a list, not {type(parts).__name__}")
    texts = []
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
        elif (
            isinstance(part, dict)
            and part.get("content_type") == "audio_transcription"
            and isinstance(part.get("text"), str)
        ):  # what was said in voice mode
            texts.append(part["text"])
        # images, audio and other files: not text
    return str(role), "\n".join(t for t in texts if t.strip())


def read_chatgpt(path: str | Path) -> list[Turn]:
    """A ChatGPT export: the current branch of each conversation, oldest conversation
    first; one session per conversation."""
    path = Path(path)
    data = _conversations(load_export(path), path, "ChatGPT")
    convs = []
    for n, conv in enumerate(data, 1):
        where = f"{path}: {_label(n, conv, 'title')}"
        mapping = conv.get("mapping")
        if not isinstance(mapping, dict):
            raise IngestError(
                f"{where}: no 'mapping' object (is this a ChatGPT export's conversations.json?)"
            )
        started = parse_timestamp(conv.get("create_time"), where=f"{where}: create_time")
        convs.append((started, n, (conv, where, mapping, started)))
    turns: list[Turn] = []
    for conv, where, mapping, started in _oldest_first(convs):
        conv_id = conv.get("conversation_id") or conv.get("id")
        if not isinstance(conv_id, str) or not conv_id.strip():
            conv_id = _stable_id(conv.get("title"), conv.get("create_time"))
        episode = f"chatgpt:{conv_id}"
        stamp = started
        for node_id in _chatgpt_path(mapping, conv.get("current_node"), where):
            message = mapping[node_id].get("message")
            if message is None:
                continue  # the root
            at = f"{where}: message {node_id}"
            if not isinstance(message, dict):
                raise IngestError(f"{at}: 'message' must be an object")
            said = _chatgpt_text(message, at)
            if said is None:
                continue
            stamp = parse_timestamp(message.get("create_time"), where=at) or stamp
            turns.extend(_turns(f"chatgpt:{node_id}", said[0], said[1], stamp, episode))
    return turns


# -- Claude -------------------------------------------------------------------------------
_CLAUDE_ROLES = {"human": "user", "assistant": "assistant"}


def _claude_path(messages: list[dict[str, Any]], leaf: Any) -> list[dict[str, Any]]:
    """The messages on the branch the conversation ended on, where they name parents."""
    by_id = {m.get("uuid"): m for m in messages if isinstance(m.get("uuid"), str)}
    if not any("parent_message_uuid" in m for m in messages) or not by_id:
        return messages
    node = by_id.get(leaf) if isinstance(leaf, str) else None
    node = node or messages[-1]
    path = []
    seen: set[int] = set()
    while node is not None and id(node) not in seen:
        seen.add(id(node))
        path.append(node)
        node = by_id.get(node.get("parent_message_uuid"))
    return path[::-1]


def _claude_text(message: dict[str, Any], where: str) -> str:
    content = message.get("content")
    if isinstance(content, list) and content:
        texts = []
        for block in content:
            if not isinstance(block, dict):
                raise IngestError(f"{where}: a 'content' block is not an object")
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
            # thinking, tool_use, tool_result, images: not something said
        return "\n\n".join(t for t in texts if t.strip())
    text = message.get("text")
    if text is None:
        return ""
    if not isinstance(text, str):
        raise IngestError(f"{where}: 'text' must be text, not {type(text).__name__}")
    return text


def read_claude(path: str | Path) -> list[Turn]:
    """A Claude export: each conversation's messages, oldest conversation first; one
    session per conversation."""
    path = Path(path)
    data = _conversations(load_export(path), path, "Claude")
    convs = []
    for n, conv in enumerate(data, 1):
        where = f"{path}: {_label(n, conv, 'name')}"
        messages = conv.get("chat_messages")
        if not isinstance(messages, list):
            raise IngestError(
                f"{where}: no 'chat_messages' list (is this a Claude export's conversations.json?)"
            )
        for k, m in enumerate(messages, 1):
            if not isinstance(m, dict):
                raise IngestError(f"{where}: message {k} is not an object")
        started = parse_timestamp(conv.get("created_at"), where=f"{where}: created_at")
        convs.append((started, n, (conv, where, messages, started)))
    turns: list[Turn] = []
    for conv, where, messages, started in _oldest_first(convs):
        conv_id = conv.get("uuid")
        if not isinstance(conv_id, str) or not conv_id.strip():
            conv_id = _stable_id(conv.get("name"), conv.get("created_at"))
        episode = f"claude:{conv_id}"
        stamp = started
        for k, message in enumerate(
            _claude_path(messages, conv.get("current_leaf_message_uuid")), 1
        ):
            msg_id = message.get("uuid")
            at = f"{where}: message {msg_id if isinstance(msg_id, str) else k}"
            sender = message.get("sender")
            if not isinstance(sender, str):
                raise IngestError(f'{at}: \'sender\' must be "human" or "assistant"')
            role = _CLAUDE_ROLES.get(sender.lower())
            if role is None:
                continue
            text = _claude_text(message, at)
            stamp = parse_timestamp(message.get("created_at"), where=at) or stamp
            turn_id = f"claude:{msg_id}" if isinstance(msg_id, str) else f"{episode}:{k}"
            turns.extend(_turns(turn_id, role, text, stamp, episode))
    return turns


# -- notes --------------------------------------------------------------------------------
_FRONT_MATTER = re.compile(r"\A---\s*\n.*?\n(?:---|\.\.\.)\s*(?:\n|\Z)", re.S)
_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.S | re.M)
_MARKUP = re.compile(r"^\s*(?:#{1,6}\s+|>\s?|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)")


def _note_date(path: Path) -> float:
    found = _DATE_IN_NAME.search(path.stem)
    if found:
        year, month, day = found.groups()
        try:
            stamp = parse_timestamp(f"{year}-{month}-{day}")
        except IngestError:
            stamp = None
        if stamp is not None:
            return stamp
    return path.stat().st_mtime


def _paragraphs(text: str) -> list[str]:
    text = _FRONT_MATTER.sub("", text.replace("\r\n", "\n"))
    text = _FENCE.sub("", text)
    out = []
    for block in re.split(r"\n\s*\n", text):
        lines = [_MARKUP.sub("", line).strip() for line in block.split("\n")]
        lines = [line for line in lines if line]
        if not lines:
            continue
        # a list item or a heading is a statement of its own: end each like a sentence
        out.append(
            " ".join(line if line[-1] in ".!?:;" else line + "." for line in lines)
            if len(lines) > 1
            else lines[0]
        )
    return out


def read_notes(path: str | Path) -> list[Turn]:
    """A folder of notes (or one note): each file one session of user turns, a paragraph
    each, dated by the date in its name or its modification time; oldest first."""
    root = Path(path)
    if root.is_file():
        files, base = [root], root.parent
    elif root.is_dir():
        files, base = [], root
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            files.extend(
                Path(dirpath) / f
                for f in sorted(filenames)
                if not f.startswith(".") and f.lower().endswith(NOTE_SUFFIXES)
            )
    else:
        raise IngestError(f"cannot read {root}: no such file or folder")
    if not files:
        raise IngestError(f"{root}: no notes here (files ending {', '.join(NOTE_SUFFIXES)})")
    dated = []
    for n, file in enumerate(files):
        try:
            size = file.stat().st_size
            if size > MAX_INPUT_BYTES:
                raise IngestError(
                    f"{file} is {size} bytes; credo ingests at most {MAX_INPUT_BYTES} bytes a file"
                )
            dated.append((_note_date(file), n, file))
        except OSError as exc:
            raise IngestError(f"cannot read {file}: {exc.strerror or exc}") from exc
    turns: list[Turn] = []
    for stamp, _, file in sorted(dated):
        rel = _clean(file.relative_to(base).as_posix())
        try:
            text = file.read_bytes().decode("utf-8", errors="replace")
        except OSError as exc:
            raise IngestError(f"cannot read {file}: {exc.strerror or exc}") from exc
        episode = f"notes:{rel}"
        for k, para in enumerate(_paragraphs(text), 1):
            turns.extend(_turns(f"{episode}#{k}", "user", para, stamp, episode))
    return turns
