"""Secret detection: credentials and identity numbers must never be stored as facts.

`find_secrets` returns the spans of secret *values* in a text (an API key, the password in
"my password is hunter2" or "Mein Passwort ist Geheim2024", the password inside a connection
URL, a cloud account key, a private key block, a card number, an IBAN, a social security or
passport number). Labels and surrounding words are left out of the span so that
`mask_secrets` keeps the fact readable: "the prod DB is
postgres://app:[secret:connection_string]@db:5432/app".

The detectors are those `credo.secret_patterns` orders (regular expressions, validators and
the per-language words of `credo/data/secret_words.toml`, in modules named for what they
find: blocks, numbers, tokens, codes, passwords), then those of
`credo.secret_shapes` (shapes read with their helpers: session cookies, setters in code,
unlock patterns, identity numbers by their check digits); docs/security.md lists what
they find, with the corpus figures. Every stored field goes through `mask_field`.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
from collections.abc import Iterable, Iterator
from contextvars import ContextVar

from . import cached_re as re
from .secret_base import _FULLWIDTH, _MASK_TAG_KIND, Detector
from .secret_code import DETECTORS as _CODE
from .secret_commands import DETECTORS as _COMMANDS
from .secret_patterns import DETECTORS as _PATTERNS
from .secret_patterns import SecretFinding, iban_checksum_ok, public_blocks
from .secret_public import public_value
from .secret_qualified import candidates as _qualifier_readings
from .secret_random import DETECTORS as _RANDOM
from .secret_random import made_up
from .secret_said import DETECTORS as _SAID
from .secret_shapes import DETECTORS as _SHAPES
from .secret_spoken import DETECTORS as _SPOKEN
from .secret_tokens import shown_public
from .secret_typos import DETECTORS as _TYPOS

__all__ = [
    "BLOCK_KINDS",
    "SecretFinding",
    "contains_secret",
    "find_secrets",
    "find_secrets_whole",
    "iban_checksum_ok",
    "mask_field",
    "mask_fields",
    "mask_secrets",
    "masked_kind",
    "public_blocks",
    "read_in_paste",
    "shown_public_by_paste",
]

# Ordered most specific first: on overlap the earlier detector's kind is kept.
_DETECTORS: tuple[Detector, ...] = (
    *_PATTERNS,
    *_SHAPES,
    *_COMMANDS,
    *_CODE,
    *_SPOKEN,
    *_SAID,
    *_RANDOM,
    *_TYPOS,
)


@functools.lru_cache(maxsize=2048)
def _plainly_found_in(text: str) -> tuple[SecretFinding, ...]:
    """`find_secrets` of `text` without the readings that set words aside."""
    return _found_in(text, _DETECTORS)


def _qualifier_set_aside(text: str) -> Iterator[SecretFinding]:
    """What the detectors find after a label's colon once the qualifier between the
    label and its colon is set aside (`credo.secret_qualified`): "the backup code for my
    mail account in case the phone dies: 8142 5573"."""
    for reading in _qualifier_readings(text):
        for f in _plainly_found_in(reading.text):
            if reading.keeps(f.kind, f.start):
                yield SecretFinding(f.kind, f.start + reading.shift, f.end + reading.shift)


#: the detectors, then the readings of the text with words set aside
_READINGS: tuple[Detector, ...] = (*_DETECTORS, _qualifier_set_aside)


def find_secrets(text: str) -> list[SecretFinding]:
    """Every secret value in `text`, in order, non-overlapping.

    Where detectors overlap, the more specific one wins (an OpenAI key stated as
    "api key: sk-..." is reported as `openai_api_key`, not `generic_api_key`). Inside
    `read_in_paste`, a value the paste around it showed public is not one.
    """
    # one write reads the same text several times over (the gate, masking each field, the
    # excerpt of a rejection): the detectors are pure, so their answer is kept for a while
    # (texts up to `_KEPT_CHARS` only, so that what is kept stays a few megabytes)
    found = _kept(text) if len(text) <= _KEPT_CHARS else _found_in(text)
    public = _PUBLIC_IN_PASTE.get()
    if public:
        return [f for f in found if text[f.start : f.end] not in public]
    return list(found)


#: the values the paste being remembered line by line shows public (`read_in_paste`)
_PUBLIC_IN_PASTE: ContextVar[frozenset[str]] = ContextVar("public_in_paste", default=frozenset())


def shown_public_by_paste(text: str) -> frozenset[str]:
    """The values that a line of `text` read alone holds as secrets and the whole of
    `text` does not: what the paste around them shows public (an invoice's IBAN on a line
    of its own under the payee's name, a SealedSecret's ciphertext under its
    `encryptedData:`, a line of a certificate). Each line of a paste read line by line is
    judged with these set aside (`read_in_paste`): the paste is one message."""
    if not _LINE_BREAKS.search(text):
        return frozenset()
    whole = find_secrets_whole(text)
    public: set[str] = set()
    pos = 0
    for raw in text.splitlines(keepends=True):
        line, at = raw.strip(), pos + len(raw) - len(raw.lstrip())
        pos += len(raw)
        for f in find_secrets_whole(line) if line else ():
            start, end = at + f.start, at + f.end
            if not any(g.start < end and start < g.end for g in whole):
                public.add(line[f.start : f.end])
    return frozenset(public)


@contextlib.contextmanager
def read_in_paste(public: frozenset[str]) -> Iterator[None]:
    """While inside, `find_secrets` sets aside the values of `public` (those
    `shown_public_by_paste` gave for the paste whose lines are being remembered)."""
    token = _PUBLIC_IN_PASTE.set(public)
    try:
        yield
    finally:
        _PUBLIC_IN_PASTE.reset(token)


#: the longest text whose findings `find_secrets` keeps
_KEPT_CHARS = 2_000


@functools.lru_cache(maxsize=2048)
def _kept(text: str) -> tuple[SecretFinding, ...]:
    return _found_in(text)


def _found_in(text: str, detectors: tuple[Detector, ...] = _READINGS) -> tuple[SecretFinding, ...]:
    """`find_secrets`, computed (findings are frozen: the tuple is safe to share)."""
    # Accepted spans are disjoint, so sorted by start they are also sorted by end and an
    # overlap can only be with the neighbours of the insertion point.
    starts: list[int] = []
    accepted: list[SecretFinding] = []
    # spans a reason of `credo.secret_public` showed public (a reference, ciphertext, an
    # ARN): no other detector's reading of a piece of them counts either
    public: list[tuple[int, int]] = []
    text = text.translate(_FULLWIDTH)  # one character for one: spans stay the text's
    for detector in detectors:
        for finding in detector(text):
            if finding.end <= finding.start:
                continue
            if any(s <= finding.start and finding.end <= e for s, e in public):
                continue
            if public_value(text, finding.kind, finding.start, finding.end):
                public.append((finding.start, finding.end))
                continue
            if _filtered(text, finding):
                continue
            if detector is _qualifier_set_aside:
                # a reading with the qualifier set aside sees the whole value where the
                # text as written showed a piece of it ("... is tulip lemon orchid 70"):
                # the pieces inside it give way
                inside = [a for a in accepted if finding.start <= a.start and a.end <= finding.end]
                for a in inside:
                    starts.remove(a.start)
                    accepted.remove(a)
            i = bisect.bisect_right(starts, finding.start)
            if i > 0 and accepted[i - 1].end > finding.start:
                continue
            if i < len(accepted) and accepted[i].start < finding.end:
                continue
            starts.insert(i, finding.start)
            accepted.insert(i, finding)
    return _unwrapped(text, accepted)


#: a token's characters alone on a line, long enough to be a piece of one; or, where a
#: field was flattened onto one line, a long made-up run after a blank
_TOKEN_LINE = re.compile(
    r"\r?\n([A-Za-z0-9_\-]{8,})(?=\r?\n|$)|[ \t]([A-Za-z0-9_\-]{16,})(?=[\s,.;:!?)]|$)"
)


def _unwrapped(text: str, findings: list[SecretFinding]) -> tuple[SecretFinding, ...]:
    """`findings`, each token that a line's end cuts carried on over the lines after it
    that hold nothing but made-up token characters: a key wrapped when it was copied
    ("sk_live_51PH...WQy" then "RPQXoW...") is one secret, masked whole."""
    out: list[SecretFinding] = []
    for finding in findings:
        if out and finding.start < out[-1].end:
            continue  # a piece of the token before it, now inside it
        end = finding.end
        value = text[finding.start : end]
        if len(value) >= 20 and _TOKEN_LINE.match(text, end) and re.fullmatch(r"[\w\-]+", value):
            while (line := _TOKEN_LINE.match(text, end)) and made_up(
                line.group(1) or line.group(2)
            ):
                end = line.end()
        out.append(
            SecretFinding(finding.kind, finding.start, end) if end > finding.end else finding
        )
    return tuple(out)


#: what documentation prints where a key goes: AWS's "AKIAIOSFODNN7EXAMPLE" and
#: ".../bPxRfiCYEXAMPLEKEY", Slack's ".../T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX". A
#: random key never spells "example" nor repeats an x or a 0 eight times over; a key block
#: (whose base64 has runs of A) is not read this way
_DOCUMENTED = re.compile(r"(?i)example|x{8}|0{8}")


def _documented(value: str) -> bool:
    """Whether a token-long `value` is documentation's placeholder, not anyone's key."""
    return len(value) >= 16 and _DOCUMENTED.search(value) is not None


def _one_character(value: str) -> bool:
    """Whether `value` is one letter or digit over and over, in groups or not: a format
    ("XXXXX-XXXXX-XXXXX"), a mask ("****-1234" is not one), never a key or a password."""
    chars = [c.lower() for c in value if c.isalnum()]
    return len(chars) >= 8 and len(set(chars)) == 1


def mask_secrets(text: str) -> str:
    """`text` with each secret value replaced by `[secret:<kind>]`; all else unchanged.

    Every span `find_secrets` reports is replaced, and so is a secret that a line break
    splits ("my door code\nis 4821": the text is also read with its line breaks as
    blanks). Masking changes the context a value is read in, so the masked text is looked
    at again until nothing is found in it: `find_secrets(mask_secrets(t)) == []` for
    every `t`."""
    for _ in range(_MASK_ROUNDS):
        findings = find_secrets_whole(text)
        if not findings:
            return text
        parts: list[str] = []
        cursor = 0
        for finding in findings:
            parts.append(text[cursor : finding.start])
            parts.append(f"[secret:{finding.kind}]")
            cursor = finding.end
        parts.append(text[cursor:])
        text = "".join(parts)
    # a text that keeps yielding findings: mask it all rather than keep any of it
    return "[secret:unmasked]" if find_secrets_whole(text) else text


_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x85]")


def find_secrets_whole(text: str) -> list[SecretFinding]:
    """`find_secrets`, and where `text` has line breaks, what it finds once they are read
    as blanks (a label on one line, its value on the next), kept where it overlaps
    nothing found before. Spans are of `text` (a break and a blank are one character)."""
    found = find_secrets(text)
    if not _LINE_BREAKS.search(text):
        return found
    flat = _LINE_BREAKS.sub(" ", text)
    extra = [
        f for f in find_secrets(flat) if not any(f.start < g.end and g.start < f.end for g in found)
    ]
    return sorted([*found, *extra], key=lambda f: f.start) if extra else found


#: how many times a masked text is read again before it is masked whole: a label with
#: several values after it ("password <key>:<x> <iban> hunter2") gives up one a round
_MASK_ROUNDS = 8


def contains_secret(text: str) -> bool:
    """Whether `text` holds anything `find_secrets` would report (stops at the first)."""
    return bool(find_secrets(text))


def _filtered(text: str, finding: SecretFinding) -> bool:
    """Whether `find_secrets` sets `finding` aside: a placeholder of documentation, or a
    value its content or place shows to be public (`credo.secret_tokens.shown_public`)."""
    value = text[finding.start : finding.end]
    if finding.kind not in BLOCK_KINDS and (_documented(value) or _one_character(value)):
        return True
    return public_value(text, finding.kind, finding.start, finding.end) or shown_public(
        text,
        finding.kind,
        finding.start,
        finding.end,
        holds_secret=lambda decoded: bool(find_secrets(decoded)),
    )


#: kinds that are a block of their own (a key, a seed phrase, a list of codes): a text
#: holding one is refused whole, never read line by line or sentence by sentence
BLOCK_KINDS = frozenset({"private_key", "key_material", "seed_phrase", "backup_codes"})
#: a source label's kind and its colon, before the text it labels
_SOURCE_KIND = re.compile(r"[a-z][a-z_\-]{1,23}:(?!//)")
#: the most a metadata field is looked at (a longer one is cut by its own limit first)
_FIELD_CHARS = 10_000


def mask_field(value: str) -> str:
    """What a stored free-text field keeps: `value` with each secret masked.

    Every field credo stores besides a fact's text goes through this one function, on
    every path (the Python API, the command line, MCP, ingest and import): a source
    label, a provenance reference (a turn, an episode, a document), why a fact was
    retracted, who decided, a rule's origin, a rejection's source. A value longer than
    `_FIELD_CHARS` is cut there first (no field is allowed that long)."""
    if not value:
        return value
    value = value[:_FIELD_CHARS]
    # a source's kind glued to the text by a colon ("imported:6604 — that's the pin"): the
    # text is read on its own too, as the statement it was
    kind = _SOURCE_KIND.match(value)
    if kind is not None:
        value = kind.group(0) + mask_secrets(value[kind.end() :])
    return mask_secrets(value)


def mask_fields(values: Iterable[str]) -> list[str]:
    """`mask_field` of each value, in order."""
    return [mask_field(v) for v in values]


def masked_kind(text: str) -> str | None:
    """The kind named by the first `[secret:<kind>]` placeholder in `text` (a secret
    masked before the text got here), or None when it holds none."""
    m = _MASK_TAG_KIND.search(text)
    return m.group(1) if m else None
