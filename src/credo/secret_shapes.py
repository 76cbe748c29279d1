"""More shapes of secrets, read after those of `credo.secret_patterns` (the helpers and word
lists of `credo.secret_base` and the family modules are shared; `credo.secrets` reads
both): a session cookie, a secret passed to a setter in code, HTTP basic credentials
without their header, a phone's unlock pattern, a 2FA secret in groups further from its
label, and an identity number that passes its country's check digits anywhere in the
sentence of its label.

Each is a class of how people paste or say a secret, in every language of
`credo/data/secret_words.toml` where words are involved; docs/security.md lists them.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator

from . import cached_re as re
from .id_checksums import national_id_ok
from .secret_base import (
    _CJK,
    _CJK_RANGES,
    _PUBLIC_WORD,
    _WORDS,
    Detector,
    SecretFinding,
    _is_placeholder,
    _looks_like_token,
    _phrases,
    _plausible_bare_password,
    _shannon_entropy,
    _without_mask_tags,
    label_then_value,
)
from .secret_numbers import a_business_id
from .secret_tokens import (
    _LOOSE_LABEL,
    _base32_key,
    _random_value,
    _setting_kind,
)

__all__ = ["DETECTORS"]


_CLAUSE_END = re.compile(r"\n|[.!?](?:\s|$)")


def _clause(text: str, start: int, end: int, *, reach: int = 160) -> tuple[int, int]:
    """The bounds of the clause around [start, end): up to a line break or a sentence's
    end (a dot inside a number, "529.982.247", ends nothing), at most `reach` away."""
    lo = max(0, start - reach)
    stops = [m.end() for m in _CLAUSE_END.finditer(text, lo, start)]
    lo = stops[-1] if stops else lo
    after = _CLAUSE_END.search(text, end, min(len(text), end + reach))
    return lo, after.start() if after else min(len(text), end + reach)


# --- a session cookie -------------------------------------------------------------------

# "Cookie: PHPSESSID=...; theme=dark", "Set-Cookie: SID=...": every value of the
# header random enough to be a session's key
_COOKIE_HEADER = re.compile(r"(?i)(?<![\w\-])(?:set-)?cookie[ \t]*:[ \t]*(?P<pairs>[^\n]+)")
_COOKIE_PAIR = re.compile(r"(?P<name>[A-Za-z_][\w.\-]{0,63})=(?P<v>[^;\s,\"']{12,4096})")
# a session's cookie or id named as a setting anywhere: "sessionid=...", "PHPSESSID=...",
# "connect.sid=...", "session_token: ..."
_SESSION_SETTING = re.compile(
    r"(?<![\w.\-])(?P<name>[A-Za-z_][\w.\-]{0,40})[\"']?[ \t]*[=:][ \t]*[\"']?"
    r"(?P<v>[A-Za-z0-9_\-+/.%~]{16,4096}={0,2})"
)
_SESSION_NAME = re.compile(r"(?i)sess(?:ion)?(?:[_\-.]?(?:id|key|token|cookie))?$|(?:^|[_.\-])sid$")
# "the session cookie is ...", "cookie de session : ...", "Sitzungscookie ..."
_COOKIE_LABEL = re.compile(
    r"(?i)(?<![^\W_])(?:cookie|cookies|sitzungscookie|session[ \t\-]?cookie|session[ \t\-]?id"
    r"|sessionid|sessie[ \t\-]?cookie|куки|кука)(?![^\W_])"
    r"(?P<gap>[^\n.!?]{0,60}?)(?<![\w\-+/=.%~])(?P<v>[A-Za-z0-9_\-+/.%~]{20,4096}={0,2})"
    r"(?![\w\-+/=%~])"
)


def _session_value(value: str) -> bool:
    value = value.rstrip(".,")
    if _is_placeholder(value) or re.fullmatch(r"[a-z]+(?:[_\-][a-z]+)*", value):
        return False  # a word, or "django_language=en-gb"-like settings
    if _looks_like_token(value) or _random_value(value, strict=False):
        return True
    return len(value) >= 20 and _shannon_entropy(value) >= 3.5 and any(c.isdigit() for c in value)


def _session_cookies(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    for h in _COOKIE_HEADER.finditer(text):
        for m in _COOKIE_PAIR.finditer(h.group("pairs")):
            if _session_value(m.group("v")):
                start = h.start("pairs") + m.start("v")
                yield SecretFinding("session_cookie", start, start + len(m.group("v")))
    for m in _SESSION_SETTING.finditer(text):
        if _SESSION_NAME.search(m.group("name")) and _session_value(m.group("v")):
            yield SecretFinding("session_cookie", m.start("v"), m.end("v"))
    for m in _COOKIE_LABEL.finditer(text):
        value = m.group("v").rstrip(".,")
        if len(m.group("gap").split()) <= 8 and _session_value(value) and not value.isalpha():
            yield SecretFinding("session_cookie", m.start("v"), m.start("v") + len(value))


# --- a secret passed to a setter in code --------------------------------------------------

# 'client.setAuthToken("...")', 'client.set_password("...")', 'withToken(\'...\')',
# 'config.put("api_secret", "...")', 'os.environ["DB_PASSWORD"] = "..."': the name of the
# function, or the key the value goes with, says what the value is
_CALL = re.compile(
    label_then_value(
        r"(?<![\w$])(?P<name>[A-Za-z_$][\w$]{2,63})",
        r"(?P<v>[^\"'`\n]{3,512})(?P=q)[ \t]*[,)]",
        r"[ \t]*\([ \t]*",
        connector_group=None,
        before_value=r"(?P<q>[\"'`])",
    )
)
_KEYED = re.compile(
    label_then_value(
        r"[\[(,{][ \t]*(?P<q1>[\"'])(?P<name>[A-Za-z_][\w.\-]{1,63})(?P=q1)",
        r"(?P<v>[^\"'`\n]{3,512})(?P=q)",
        r"[ \t]*(?:\][ \t]*=|,|=>)[ \t]*",
        connector_group=None,
        before_value=r"(?P<q>[\"'`])",
    )
)
# calls that read, test or remove a secret rather than give one
_NOT_A_SETTER = re.compile(r"(?i)^(?:get|has|is|del|delete|remove|clear|unset|load|read|fetch)")


def _secret_calls(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    for pattern in (_CALL, _KEYED):
        for m in pattern.finditer(text):
            name, value = m.group("name"), m.group("v")
            if pattern is _CALL and _NOT_A_SETTER.match(name.rsplit(".", 1)[-1]):
                continue
            kind = _setting_kind(name)
            if kind is None or _is_placeholder(value) or value.startswith(("$", "%", "{")):
                continue
            if kind == "password":
                ok = " " not in value and _plausible_bare_password(value, text, m.end("v"))
            else:
                ok = _random_value(value, strict=kind == "key")
            if ok:
                yield SecretFinding("password" if kind == "password" else "generic_api_key",
                                    m.start("v"), m.end("v"))  # fmt: skip


# --- HTTP basic credentials without their header ----------------------------------------

# "Basic dXNlcjpwYXNz in the header": base64 of "user:password"
_BASIC = re.compile(r"(?<![\w\-])(?i:basic)[ \t]+(?P<v>[A-Za-z0-9+/]{8,}={0,2})(?![\w+/=])")


def _basic_credentials(text: str) -> Iterator[SecretFinding]:
    for m in _BASIC.finditer(text):
        value = m.group("v")
        try:
            decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            continue
        user, colon, password = decoded.partition(":")
        if colon and user and password and decoded.isprintable():
            yield SecretFinding("basic_auth", m.start("v"), m.end("v"))


# --- a phone's unlock pattern -------------------------------------------------------------

_PATTERN_LABEL = re.compile("(?i)" + _phrases("unlock_patterns", skip=("words", "context")))
_PATTERN_WORD = re.compile("(?i)" + _phrases("unlock_patterns", skip=("labels", "context")))
_PATTERN_CONTEXT = re.compile(
    "(?i)" + _phrases("unlock_patterns", boundary=False, skip=("labels", "words"))
)
# the dots of a 3x3 grid in the order they are joined: "1-2-3-5-7", "1 → 5 → 9 → 6", "14789"
_PATTERN_VALUE = re.compile(
    r"(?<![\w.,:/\-])(?P<v>[1-9](?:[ \t]*(?:-|–|—|→|->|>|,|[ \t])[ \t]*[1-9]){3,8}|[1-9]{4,9})"
    r"(?![\w\-]|[.,:/]\d)"
)


#: a pattern told in words: a letter's shape and where it starts ("Z shape starting top
#: left", "an L shape from the top right")
_PATTERN_SHAPE = re.compile(
    r"(?<![\w])(?P<v>[A-Z][ \t\-](?i:shaped?|shape)"
    r"(?:[ \t,]+(?i:starting|starts|start|from|at|in|the|top|bottom|left|right|middle|centre"
    r"|center|corner|then|down|up|across|going))*)(?![\w])"
)


def _unlock_patterns(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    for label in (_PATTERN_LABEL, _PATTERN_WORD):
        for m in label.finditer(text):
            lo, hi = _clause(text, m.start(), m.end(), reach=120)
            if label is _PATTERN_WORD and not _PATTERN_CONTEXT.search(text[lo:hi]):
                continue  # "the knitting pattern is 2-3-2-3": nothing is unlocked
            for v in _PATTERN_VALUE.finditer(text, m.end(), hi):
                digits = [c for c in v.group("v") if c.isdigit()]
                if len(set(digits)) == len(digits):
                    yield SecretFinding("password", v.start("v"), v.end("v"))
            shape = _PATTERN_SHAPE.search(text, m.end(), hi)
            if shape is not None:
                yield SecretFinding("password", shape.start("v"), shape.end("v"))


# --- a 2FA secret in groups, further from its label ---------------------------------------

# "TOTP secret for the NAS, if I ever lose my phone: abcd 2efg ...": the key in groups of
# one length, anywhere in the label's sentence
_SECRET_WORD = re.compile(
    r"(?i)(?<![^\W_])(?:secret|geheimnis|geheimcode|secreto|segreto|segredo|geheim|hemlighet"
    r"|hemligheten|salaisuus|sekret|секрет|seed|setup[ \t]key|clé[ \t]secrète|cle[ \t]secrete"
    r"|chiave[ \t]segreta|clave[ \t]secreta|chave[ \t]secreta|gizli[ \t]anahtar)(?![^\W_])"
)
_BASE32_GROUPS = re.compile(r"(?<![\w\-])[A-Za-z2-7]{3,8}(?:[ \-][A-Za-z2-7]{2,8}){3,15}(?![\w\-])")


def _grouped_2fa_secrets(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    for label in (_LOOSE_LABEL, _SECRET_WORD):
        for m in label.finditer(text):
            lo, hi = _clause(text, m.start(), m.end(), reach=200)
            if _PUBLIC_WORD.search(text[m.start() : hi]):
                continue
            for g in _BASE32_GROUPS.finditer(text, m.end(), hi):
                yield from _base32_run(g.group(0), g.start())


def _base32_run(run: str, at: int) -> Iterator[SecretFinding]:
    """The key in a run of groups, less words the run began with ("is abcd efgh ...")."""
    groups = re.split(r"[ \-]", run)
    offset = 0
    for i in range(len(groups) - 3):
        body, last = groups[i:-1], groups[-1]
        if len({len(g) for g in body}) == 1 and len(last) <= len(body[0]):
            joined = "".join(groups[i:])
            if _base32_key(joined):
                yield SecretFinding("generic_api_key", at + offset, at + len(run))
                return
        offset += len(groups[i]) + 1


#: the way authenticator apps print a key to type in by hand: six to sixteen groups of
#: exactly four base32 characters of one case, the last group maybe shorter
_TYPED_2FA_KEY = re.compile(
    r"(?<![\w\-])(?:[a-z2-7]{4}(?:[ ][a-z2-7]{4}){5,15}(?:[ ][a-z2-7]{1,4})?"
    r"|[A-Z2-7]{4}(?:[ ][A-Z2-7]{4}){5,15}(?:[ ][A-Z2-7]{1,4})?)(?![\w\-])"
)


def _typed_2fa_keys(text: str) -> Iterator[SecretFinding]:
    """A 2FA key printed in groups of four to be typed into an authenticator, with or
    without its label ("Can't scan? Enter: pb5w ..."): a third of its groups or more
    hold a digit (words in groups of four hold none), and it is random (`_base32_key`)."""
    for m in _TYPED_2FA_KEY.finditer(text):
        groups = m.group(0).split()
        if 3 * sum(any(c.isdigit() for c in g) for g in groups) < len(groups):
            continue
        if _base32_key("".join(groups)):
            yield SecretFinding("generic_api_key", m.start(), m.end())


# --- an identity number that passes its check digits ---------------------------------------


_HANGUL = re.compile(r"[\uac00-\ud7af]")
#: Thai (and Lao, Khmer, Myanmar) put no blank between words either
_NO_BLANK_SCRIPT = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]")


def _label_pattern(words: list[str]) -> re.Pattern[str]:
    """Any of `words`, a blank or a hyphen matching any run of them; a whole word unless
    it is written in Japanese, Chinese or Thai (no blanks there) or Korean (particles
    glued)."""
    parts = []
    for word in sorted({w.lower() for w in words}, key=lambda w: (-len(w), w)):
        body = r"[ \t\-]*".join(re.escape(p) for p in re.split(r"[ \-]+", word))
        body = body.replace("'", "['’]")
        # no blank, or a particle
        glued = _CJK.search(word) or _HANGUL.search(word) or _NO_BLANK_SCRIPT.search(word)
        parts.append(body if glued else rf"(?<![^\W_]){body}(?![^\W_])")
    return re.compile("(?i)(?:" + "|".join(parts) + ")")


# each language's labels apart: a label reads its own country's checks
_ID_LABELS = (
    *((lang, _label_pattern(words)) for lang, words in _WORDS["national_ids"].items()),
    # Canada's "SIN" (French "NAS") in capitals only: "sin" is Spanish for "without"
    ("ca", re.compile(r"(?<![^\W_])(?:SIN|S\.I\.N\.|NAS)(?![^\W_])")),
)
# a run of digit groups (a NIE's first letter, a Taiwanese number's, a DNI's or a
# henkilötunnus's last, Corsica's "2A" in a NIR, a Chinese number's X), straight after a
# Chinese or Korean word too ("身份证号是1101...")
_ID_RUN = re.compile(
    rf"(?<![^\W{_CJK_RANGES}]|[\-./])(?:[XYZxyz][ \-]?|[A-Z](?=[1289]\d{{8}}(?!\d)))?\d[\dAB]*"
    r"(?:[ \-./+][\dA-Za-z]*\d[\dA-Za-z]*|[ \-]?[A-Za-z](?![\w]))*(?![\w\-]|[.,/]\d)"
)

_DIGIT = re.compile(r"\d")
#: a serial that starts with a letter, digits among its letters (a German identity card's
#: "L01X00T47"): read whole, by its language's checks
_SERIAL_RUN = re.compile(
    r"(?<![\w\-./])(?=[A-Za-z0-9]*\d)[A-Za-z][A-Za-z0-9]{7,11}(?![\w\-]|[.,/]\d)"
)


def _checked_national_ids(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    if not _DIGIT.search(text):  # every id starts with a digit (or one letter and a digit)
        return
    seen: set[int] = set()
    for lang, label in _ID_LABELS:
        for m in label.finditer(text):
            yield from _checked_near(text, m, lang, seen)


def _checked_near(
    text: str, m: re.Match[str], lang: str, seen: set[int]
) -> Iterator[SecretFinding]:
    lo, hi = _clause(text, m.start(), m.end(), reach=160)
    for run in _ID_RUN.finditer(text, lo, hi):
        if run.start() in seen:
            continue
        found = _checked_part(run.group(0), lang)
        if found is not None and run.start() >= m.end():
            at, to = run.start() + found[0], run.start() + found[1]
            if a_business_id(text, m.end(), at, to):
                seen.add(run.start())
                continue  # "OIB tvrtke: ...": a company's number, printed on its invoices
        if found is not None:
            seen.add(run.start())
            yield SecretFinding("national_id", run.start() + found[0], run.start() + found[1])
    for run in _SERIAL_RUN.finditer(text, lo, hi):
        if run.start() in seen or run.start() < m.end():
            continue
        if national_id_ok(run.group(0).upper(), lang) and not a_business_id(
            text, m.end(), run.start(), run.end()
        ):
            seen.add(run.start())
            yield SecretFinding("national_id", run.start(), run.end())


def _checked_part(run: str, lang: str) -> tuple[int, int] | None:
    """The longest part of `run` (whole groups) that passes a national id's check."""
    bounds = [(p.start(), p.end()) for p in re.finditer(r"[^ \-./+]+", run)]
    best: tuple[int, int] | None = None
    for i in range(len(bounds)):
        for j in range(len(bounds) - 1, i - 1, -1):
            start, end = bounds[i][0], bounds[j][1]
            compact = re.sub(r"[ \-./+]", "", run[start:end])
            if 8 <= len(compact) <= 18 and national_id_ok(compact, lang):
                if best is None or end - start > best[1] - best[0]:
                    best = (start, end)
                break
    return best


# A BitLocker recovery key: eight groups of six digits, each a multiple of 11 (the check
# BitLocker itself makes before it tries one), with or without a label
_BITLOCKER = re.compile(r"(?<![\d\-])\d{6}(?:-\d{6}){7}(?![\d\-])")
#: the shape alone, when the text names a recovery key or BitLocker in any language
_RECOVERY_WORD = re.compile(
    r"(?i)bitlocker|recovery|wiederherstellung|récupération|recuperación|recupero"
    r"|recuperação|herstel|återställning|palautus|odzyskiw|восстановлен|відновлен|回复|恢复|回復"
)


def _recovery_keys_by_check(text: str) -> Iterator[SecretFinding]:
    for m in _BITLOCKER.finditer(text):
        groups = [int(g) for g in m.group(0).split("-")]
        checked = all(g % 11 == 0 and g < 720896 for g in groups)
        if (checked or _RECOVERY_WORD.search(text)) and len(set(groups)) > 1:
            yield SecretFinding("license_key", m.start(), m.end())


DETECTORS: tuple[Detector, ...] = (
    _recovery_keys_by_check,
    _session_cookies,
    _secret_calls,
    _basic_credentials,
    _unlock_patterns,
    _grouped_2fa_secrets,
    _typed_2fa_keys,
    _checked_national_ids,
)
