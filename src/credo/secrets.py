"""Secret detection: credentials must never be stored as facts.

`find_secrets` returns the spans of secret *values* in a text (an API key, the password in
"my password is hunter2", the password inside a connection URL, a private key block, a card
number). Labels and surrounding words are left out of the span so that `mask_secrets` keeps
the fact readable: "the prod DB is postgres://app:[secret:connection_string]@db:5432/app".

Detection is a fixed set of regular expressions plus validators (Luhn for cards, an entropy
and character-class test for labelled tokens, a stop-word list for stated passwords). The
trade-off is deliberate: a missed secret ends up in long-term memory, a false alarm costs
one rejected or masked fact, so ambiguous provider-shaped tokens are flagged, while plain
prose that merely mentions passwords or keys is not.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["SecretFinding", "contains_secret", "find_secrets", "mask_secrets"]


@dataclass(frozen=True)
class SecretFinding:
    """A secret value at `text[start:end]`; `kind` names what it looks like.

    Kinds: openai_api_key, anthropic_api_key, aws_access_key, aws_secret_key, github_token,
    gitlab_token, slack_token, slack_webhook, stripe_key, google_api_key, huggingface_token,
    npm_token, pypi_token, sendgrid_key, jwt, bearer_token, basic_auth, private_key,
    connection_string (the password inside a URL), payment_card, password (stated
    passwords, passcodes and PINs), generic_api_key (a random-looking value labelled as a
    key, token or secret).
    """

    kind: str
    start: int
    end: int


Detector = Callable[[str], Iterator[SecretFinding]]

# Characters that may appear in an opaque token; anything else ends it.
_TOKEN_CHARS = r"A-Za-z0-9_\-"
# Provider prefixes must not be glued to a preceding word ("task-", "mask_").
_NOT_AFTER_TOKEN = rf"(?<![{_TOKEN_CHARS}])"
_NOT_BEFORE_TOKEN = rf"(?![{_TOKEN_CHARS}])"
_NOT_AFTER_ALNUM = r"(?<![A-Za-z0-9])"
_NOT_BEFORE_WORD = r"(?![A-Za-z0-9_])"

# "password: x", "password=x", '"password": "x"', "password is x", "password is now x",
# "password is: x", "password was changed to x", "password's x".
_CONNECTOR = (
    r"(?:"
    r"[\"']?[ \t]*(?::=|=>|->|[:=])[ \t]*"
    r"|[ \t]+(?i:is|was|=)(?:[ \t]+(?i:now|still|currently|actually|just))?"
    r"(?:[ \t]+(?i:set|changed|updated|reset)[ \t]+(?i:to))?[ \t]*:?[ \t]+"
    r"|[ \t]+(?i:set|changed|updated|reset)[ \t]+(?i:to)[ \t]+"
    r"|'s[ \t]+"
    r")"
)
# "the password for the staging router is x": up to three words name what it is for.
_QUALIFIER = r"(?:[ \t]+(?i:for|to|of|on|at)(?:[ \t]+[\w.@'\-]+){1,3}?)?"
# A quoted value may hold spaces; a bare one ends at whitespace, a quote or ';' (the
# separator of "Server=x;Password=y;Database=z" strings). "<your password>" is a template.
_VALUE = (
    r"(?:(?P<template><[^<>\n]{1,64}>)"
    r"|\"(?P<dq>[^\"\n]{1,256})\"|'(?P<sq>[^'\n]{1,256})'|`(?P<bq>[^`\n]{1,256})`"
    r"|(?P<bare>[^\s\"'`;]{1,256}))"
)
# Sentence punctuation that follows a bare value rather than belonging to it.
_TRAILING_PUNCT = ".,:)]}>?"

_PLACEHOLDER = re.compile(
    r"""
    \[secret:[a-z_]+\]      # already masked by mask_secrets
    | <[^<>]*>              # <your-password>
    | \$\{[^{}]*\}          # ${DB_PASSWORD}
    | \{\{[^{}]*\}\}        # {{ password }}
    | \{[^{}]*\}            # {password}
    | \$[A-Za-z_]\w*        # $DB_PASSWORD
    | %\(\w+\)s | %s        # printf-style templates
    | [*xX\u2022.#_\-]+     # ****, xxxx, ...
    | \[?(?i:redacted|hidden|masked)\]?
    """,
    re.VERBOSE,
)

# Words that follow "password is" / "password:" in prose without being the password:
# "the password is in 1Password", "password: required", "the key is stored in Vault".
_NOT_A_VALUE_WORDS = """
    a an the in on at to of for from with by via into inside under behind not no none null
    nil empty blank unset n/a na tbd todo required optional needed mandatory set same
    different wrong incorrect correct right invalid valid too very so strong weak secure
    insecure long short simple complex easy hard good bad fine ok okay safe unsafe hidden
    secret private public known unknown missing here there below above following now still
    also only just what whatever something nothing anything see ask check provided true
    false yes it this that these those mine yours his hers theirs ours my your our their her
    its being been going about like similar random unique case sensitive available ready
    somewhere elsewhere written stored saved kept managed shared sent encrypted hashed
    changed reset rotated updated generated protected used reused listed located
"""
_NOT_A_VALUE = frozenset(_NOT_A_VALUE_WORDS.split())
_PARTICIPLE = re.compile(r"[a-z]{3,}(?:ed|ing|ly)")
# "the password is 12 characters long", "the password is 90 days old".
_FOLLOWED_BY_UNIT = re.compile(
    r"[ \t]+(?i:chars?|characters|digits?|letters?|symbols?|long|or[ \t]+more|min(?:imum)?"
    r"|max(?:imum)?|days?|weeks?|months?|years?)\b"
)


def find_secrets(text: str) -> list[SecretFinding]:
    """Every secret value in `text`, in order, non-overlapping.

    Where detectors overlap, the more specific one wins (an OpenAI key stated as
    "api key: sk-..." is reported as `openai_api_key`, not `generic_api_key`).
    """
    # Accepted spans are disjoint, so sorted by start they are also sorted by end and an
    # overlap can only be with the neighbours of the insertion point.
    starts: list[int] = []
    accepted: list[SecretFinding] = []
    for detector in _DETECTORS:
        for finding in detector(text):
            if finding.end <= finding.start:
                continue
            i = bisect.bisect_right(starts, finding.start)
            if i > 0 and accepted[i - 1].end > finding.start:
                continue
            if i < len(accepted) and accepted[i].start < finding.end:
                continue
            starts.insert(i, finding.start)
            accepted.insert(i, finding)
    return accepted


def mask_secrets(text: str) -> str:
    """`text` with each secret value replaced by `[secret:<kind>]`; all else unchanged."""
    parts: list[str] = []
    cursor = 0
    for finding in find_secrets(text):
        parts.append(text[cursor : finding.start])
        parts.append(f"[secret:{finding.kind}]")
        cursor = finding.end
    parts.append(text[cursor:])
    return "".join(parts)


def contains_secret(text: str) -> bool:
    """Whether `text` holds anything `find_secrets` would report (stops at the first)."""
    return any(True for detector in _DETECTORS for _ in detector(text))


# --- validators ----------------------------------------------------------------------


def _shannon_entropy(value: str) -> float:
    counts = Counter(value)
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _is_placeholder(value: str) -> bool:
    return _PLACEHOLDER.fullmatch(value.strip()) is not None


def _has_letter_and_digit(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _looks_like_token(value: str) -> bool:
    """A labelled value random enough to be a credential rather than a word or a name."""
    if not 16 <= len(value) <= 512 or _is_placeholder(value):
        return False
    if re.fullmatch(r"[A-Za-z0-9_\-+/=.~]+", value) is None:
        return False
    if value[0] in "/.~" or re.fullmatch(r"[A-Za-z][\w-]*(?:\.[A-Za-z][\w-]*)+", value):
        return False  # a path or a dotted name, not a token
    mixed_case = any(c.islower() for c in value) and any(c.isupper() for c in value)
    if not (_has_letter_and_digit(value) or (mixed_case and len(value) >= 20)):
        return False
    return _shannon_entropy(value) >= 3.0


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _card_prefix_ok(digits: str) -> bool:
    """Issuer prefixes in use (Visa, Mastercard, Amex, Diners, JCB, Discover, UnionPay,
    Maestro); this keeps timestamps and most long ids from passing on Luhn alone."""
    two, four = int(digits[:2]), int(digits[:4])
    return (
        digits[0] == "4"
        or 51 <= two <= 55
        or 2221 <= four <= 2720
        or two in (34, 37, 30, 36, 38, 39, 35, 50)
        or 56 <= two <= 69
    )


def _is_card_number(raw: str) -> bool:
    digits = re.sub(r"[ \-]", "", raw)
    return 13 <= len(digits) <= 19 and _card_prefix_ok(digits) and _luhn_ok(digits)


# --- detectors -----------------------------------------------------------------------


def _regex_detector(
    kind: str,
    pattern: str,
    *,
    group: int | str = 0,
    check: Callable[[str], bool] | None = None,
    flags: int = 0,
) -> Detector:
    compiled = re.compile(pattern, flags)

    def detect(text: str) -> Iterator[SecretFinding]:
        for m in compiled.finditer(text):
            value = m.group(group)
            if value is None or (check is not None and not check(value)):
                continue
            yield SecretFinding(kind, m.start(group), m.end(group))

    return detect


def _value_span(m: re.Match[str]) -> tuple[str, int, int, bool] | None:
    """The value of a `_VALUE` match: (text, start, end, was_quoted); None for templates."""
    if m.group("template") is not None:
        return None
    for name in ("dq", "sq", "bq"):
        if m.group(name) is not None:
            return m.group(name), m.start(name), m.end(name), True
    if m.group("bare") is None:
        return None
    value, start = m.group("bare"), m.start("bare")
    stripped = value.rstrip(_TRAILING_PUNCT)
    if not stripped or _is_placeholder(value):
        return None
    return stripped, start, start + len(stripped), False


_PASSWORD_LABEL = re.compile(
    _NOT_AFTER_ALNUM
    + r"(?P<label>(?i:password|passwd|passphrase|pass[ \-]phrase|passcode|pwd|pw|pass))"
    + _NOT_BEFORE_WORD
    + _QUALIFIER
    + r"(?P<conn>"
    + _CONNECTOR
    + r")"
    + _VALUE
)


def _stated_passwords(text: str) -> Iterator[SecretFinding]:
    for m in _PASSWORD_LABEL.finditer(text):
        span = _value_span(m)
        if span is None:
            continue
        value, start, end, quoted = span
        is_key_value = any(c in m.group("conn") for c in ":=>")
        # "boarding pass is ready": bare "pass" names a password only as a key ("DB_PASS=").
        if m.group("label").lower() == "pass" and not is_key_value:
            continue
        if _is_placeholder(value) or value.lower().startswith("[secret:"):
            continue
        if not quoted and not _plausible_bare_password(value, text, end):
            continue
        yield SecretFinding("password", start, end)


def _plausible_bare_password(value: str, text: str, end: int) -> bool:
    lowered = value.lower()
    if len(value) < 3 or lowered in _NOT_A_VALUE or _PARTICIPLE.fullmatch(lowered):
        return False
    return _FOLLOWED_BY_UNIT.match(text, end) is None


_PIN = re.compile(
    _NOT_AFTER_ALNUM
    + r"(?i:pin(?:[ _\-]?(?:code|number))?)"
    + _NOT_BEFORE_WORD
    + _QUALIFIER
    + _CONNECTOR
    + r"[\"']?(?P<v>\d{4,8})(?!\d|[.,:/\-]\d)"
)


def _stated_pins(text: str) -> Iterator[SecretFinding]:
    for m in _PIN.finditer(text):
        if _FOLLOWED_BY_UNIT.match(text, m.end("v")) is None:
            yield SecretFinding("password", m.start("v"), m.end("v"))


# "hunter2 is my wifi password." The value must not be an ordinary word, so this form
# only counts when it holds a digit or a symbol.
_PASSWORD_FIRST = re.compile(
    r"(?<![^\s\"'(])(?P<v>[^\s\"'`]{4,64})[ \t]+(?i:is|was)[ \t]+"
    r"(?i:my|the|our|his|her|their|its|[A-Za-z]+'s)[ \t]+(?:[A-Za-z\-]+[ \t]+)?"
    r"(?i:password|passcode|passphrase|pin)(?=[ \t]*(?:[.,;!?)]|$))",
    re.MULTILINE,
)


def _passwords_stated_first(text: str) -> Iterator[SecretFinding]:
    for m in _PASSWORD_FIRST.finditer(text):
        value = m.group("v")
        if "password" in value.lower() or _is_placeholder(value):
            continue
        if any(c.isdigit() or not c.isalnum() for c in value):
            yield SecretFinding("password", m.start("v"), m.end("v"))


_GENERIC_LABEL = re.compile(
    _NOT_AFTER_ALNUM
    + r"(?i:(?:api|access|auth|secret|client|refresh|session)?(?:key|token|secret))"
    + _NOT_BEFORE_WORD
    + _QUALIFIER
    + _CONNECTOR
    + _VALUE
)


def _labelled_tokens(text: str) -> Iterator[SecretFinding]:
    for m in _GENERIC_LABEL.finditer(text):
        span = _value_span(m)
        if span is None:
            continue
        value, start, end, _ = span
        if _looks_like_token(value):
            yield SecretFinding("generic_api_key", start, end)


# The password of scheme://user:password@host. The password may itself hold '@' (it
# should be percent-encoded, but often is not), so it runs to the last '@' of the
# authority; the host part cannot hold '/', '@' or whitespace.
_URL_PASSWORD = re.compile(
    r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{1,30}://[^\s:/@]*:"
    r"(?P<pw>[^\s/]*[^\s/@])@[^\s/@]+"
)


def _url_passwords(text: str) -> Iterator[SecretFinding]:
    for m in _URL_PASSWORD.finditer(text):
        if not _is_placeholder(m.group("pw")):
            yield SecretFinding("connection_string", m.start("pw"), m.end("pw"))


# Ordered most specific first: on overlap the earlier detector's kind is kept.
_DETECTORS: tuple[Detector, ...] = (
    _regex_detector(
        "private_key",
        r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
        r"(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
    ),
    _url_passwords,
    _regex_detector("anthropic_api_key", _NOT_AFTER_TOKEN + rf"sk-ant-[{_TOKEN_CHARS}]{{20,}}"),
    _regex_detector(
        "openai_api_key",
        _NOT_AFTER_TOKEN + rf"sk-(?!ant-)(?:proj-|svcacct-|admin-)?[{_TOKEN_CHARS}]{{20,}}",
        check=_has_letter_and_digit,
    ),
    _regex_detector(
        "aws_access_key",
        _NOT_AFTER_ALNUM + r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])",
    ),
    _regex_detector(
        "aws_secret_key",
        _NOT_AFTER_ALNUM
        + r"(?i:aws[_\-. ]?secret(?:[_\-. ]?access)?(?:[_\-. ]?key)?)"
        + _NOT_BEFORE_WORD
        + _CONNECTOR
        + r"[\"']?(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        group="v",
    ),
    _regex_detector(
        "github_token",
        r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})",
    ),
    _regex_detector("gitlab_token", _NOT_AFTER_TOKEN + rf"glpat-[{_TOKEN_CHARS}]{{20,}}"),
    _regex_detector(
        "slack_webhook",
        r"https://hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/[A-Za-z0-9]+",
    ),
    _regex_detector("slack_token", _NOT_AFTER_TOKEN + r"xox[abposr]-[A-Za-z0-9\-]{10,}"),
    _regex_detector("stripe_key", r"(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),
    _regex_detector(
        "google_api_key", _NOT_AFTER_TOKEN + rf"AIza[{_TOKEN_CHARS}]{{35}}" + _NOT_BEFORE_TOKEN
    ),
    _regex_detector("huggingface_token", r"(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}"),
    _regex_detector("npm_token", r"(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36,}"),
    _regex_detector("pypi_token", _NOT_AFTER_TOKEN + rf"pypi-AgE[{_TOKEN_CHARS}]{{50,}}"),
    _regex_detector(
        "sendgrid_key",
        _NOT_AFTER_TOKEN + rf"SG\.[{_TOKEN_CHARS}]{{16,32}}\.[{_TOKEN_CHARS}]{{32,64}}",
    ),
    _regex_detector(
        "jwt",
        _NOT_AFTER_TOKEN
        + rf"eyJ[{_TOKEN_CHARS}]{{8,}}\.eyJ[{_TOKEN_CHARS}]{{8,}}\.[{_TOKEN_CHARS}]*",
    ),
    _regex_detector(
        "bearer_token",
        _NOT_AFTER_ALNUM + r"(?i:bearer)[ \t]+(?P<v>[A-Za-z0-9\-._~+/]{15,}[A-Za-z0-9\-_~+/]=*)",
        group="v",
        check=_looks_like_token,
    ),
    _regex_detector(
        "basic_auth",
        r"(?i:authorization)[\"']?[ \t]*[:=][ \t]*[\"']?(?i:basic)[ \t]+"
        r"(?P<v>[A-Za-z0-9+/]{8,}={0,2})",
        group="v",
    ),
    _regex_detector(
        "payment_card",
        r"(?<![\w+])(?<!\d[.\-/])(?:\d{13,19}"
        r"|\d{4}(?P<s1>[ \-])\d{4}(?P=s1)\d{4}(?P=s1)\d{1,4}(?:(?P=s1)\d{1,3})?"
        r"|\d{4}(?P<s2>[ \-])\d{6}(?P=s2)\d{4,5})"
        r"(?!\w|[.\-/]\d)",
        check=_is_card_number,
    ),
    _stated_pins,
    _stated_passwords,
    _passwords_stated_first,
    _labelled_tokens,
)
