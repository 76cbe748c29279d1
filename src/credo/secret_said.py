"""Secrets said the way a sentence carries them rather than after a label: a one-time code
that arrived ("the code 318204 just came from the bank, type it in"), a number keyed on a
keypad wherever the verb stands ("at the side door the numbers 5082 eintippen", "4471を押し
て"), a value said again after how it was made ("the safe opens with my old house number
doubled, so 6824"), and a made-up value straight after a code's label ("access code
Qx7mLp2vRw"). Each reads a structure any language has, with its words in
`credo/data/secret_words.toml` (`[received_codes]`, `[keypads]`, `[restating]`)."""

from __future__ import annotations

from collections.abc import Iterator

from . import cached_re as re
from .secret_base import (
    _CJK,
    _CJK_RANGES,
    _FOLLOWED_BY_UNIT,
    _WORDS,
    Detector,
    SecretFinding,
    _sentence_around,
    _without_mask_tags,
    alternatives,
    stems,
)
from .secret_codes import (
    _CODE_LABEL,
    _CODE_UNITS,
    _NOT_CODE,
    _OPENED_BY_CODE,
    _OPENING_VERB,
    _WITH,
)
from .secret_passwords import _plainly_made_up
from .secret_random import _LABEL

__all__ = ["DETECTORS"]


#: four to eight digits (or two groups of three) standing alone, in any script around
#: them: "код 320104 из", "2741を"
_DIGITS = r"(?<![0-9A-Za-z_\-.,/+#*:])(?P<v>\d{3}[ \t]\d{3}|\d{4,8})(?![0-9A-Za-z_\-]|[.,:/]\d)"


# -- a code that arrived ----------------------------------------------------------------

_RECEIVED = _WORDS["received_codes"]
#: a word for a code, alone or ending a compound ("Bestätigungscode", "verificatiecode")
_A_CODE = re.compile(
    r"(?i)(?<![^\W_])(?P<pre>[^\W\d_]*?)(?:"
    + alternatives(_RECEIVED["codes"])
    + r")(?![^\W_])"
    + "|"
    + "|".join(re.escape(w) for w in _RECEIVED["codes"] if _CJK.search(w))
)
_A_MESSAGE = re.compile(stems(_RECEIVED["messages"], more=2))
_ARRIVED_OR_USED = re.compile(stems([*_RECEIVED["arrived"], *_RECEIVED["used"]]))
#: the first part of a compound that names another kind of code ("postcode", "Fehlercode")
_NOT_CODE_PREFIX = re.compile(
    "(?i)(?:" + "|".join(re.escape(w) for w in _WORDS["not_codes"]["all"]) + ")$"
)
_CLAUSE = re.compile(r"[^.!?\n]+")
#: a code's word just before its digits ("код 3201", "koden: 4471")
_CODE_JUST_BEFORE = re.compile(
    r"(?i)(?:" + alternatives(_RECEIVED["codes"]) + r")[ \t]*[:：]?[ \t]*$"
)
_FOUND_DIGITS = re.compile(_DIGITS)


def _names_a_code(said: str) -> bool:
    for m in _A_CODE.finditer(said):
        pre = m.group("pre") or ""
        if not pre or not _NOT_CODE_PREFIX.search(pre):
            return True
    return False


def _received_codes(text: str) -> Iterator[SecretFinding]:
    """One number of four to eight digits in a clause that names a code or a message and
    says it came (or what to do with it): "пришёл код ... из банка", "fick koden ... från
    banken", "the text from the bank says ..., paste it"."""
    text = _without_mask_tags(text)
    for clause in _CLAUSE.finditer(text):
        said = clause.group(0)
        if not (_names_a_code(said) or _A_MESSAGE.search(said)):
            continue
        if not _ARRIVED_OR_USED.search(said) or _NOT_CODE.search(said):
            continue
        found = list(_FOUND_DIGITS.finditer(said))
        if len(found) != 1:
            continue  # a date and a code, two amounts: which one is not said
        digits = found[0].group("v")
        if len(digits) < 6 and not _CODE_JUST_BEFORE.search(said, 0, found[0].start("v")):
            continue  # four or five digits (a year, a price) are a code only after its word
        at = clause.start()
        start, end = at + found[0].start("v"), at + found[0].end("v")
        if _FOLLOWED_BY_UNIT.match(text, end) or _CODE_UNITS.match(text, end):
            continue
        yield SecretFinding("password", start, end)


# -- a number keyed on a keypad ---------------------------------------------------------

_KEY_WORDS = frozenset(
    {"key", "schlüssel", "llave", "chiave", "sleutel", "nyckel", "avain", "anahtar", "ключ",
     "열쇠", "钥匙"}
)  # fmt: skip
#: a verb of keying in any of its forms, or a keypad's star or hash said before the digits
_KEYED_WITH = re.compile(
    stems(
        [*(w for ws in _WORDS["keypad_verbs"].values() for w in ws), *_WORDS["keypads"]["verbs"]],
        more=3,
    )
    + "|"
    + stems([w for w in _WORDS["keypad_keys"]["all"] if w not in _KEY_WORDS], more=0)
)
_KEYPAD = re.compile(stems(_WORDS["keypads"]["nouns"], more=4))
_KEYED_VALUE = re.compile(
    r"(?<![0-9A-Za-z_\-.,/+#*])(?P<v>[*#]?\d{4,8}(?:[A-Z](?![A-Za-z]))?[#*]?)"
    r"(?![0-9A-Za-z_\-]|[.,:/]\d)"
)
#: how far from the digits a verb of keying may stand, before them or after them
_BEFORE, _AFTER = 24, 16


def _keyed_near_a_keypad(text: str) -> Iterator[SecretFinding]:
    """Digits with a verb of keying a few words before them or (in a language that puts
    its verb last) just after them, in a sentence naming a keypad or a thing a code
    opens: "si no marcas 7017 en el teclado", "an der Haustür die Zahlen 3805 eintippen"."""
    text = _without_mask_tags(text)
    for m in _KEYED_VALUE.finditer(text):
        sentence = _sentence_around(text, m.start(), m.end())
        left = max(text.rfind(c, 0, m.start()) for c in ".!?\n") + 1
        before = text[max(left, m.start() - _BEFORE) : m.start()]
        after = re.split(r"[.!?\n,;]", text[m.end() : m.end() + _AFTER])[0]
        if not (_KEYED_WITH.search(before) or _KEYED_WITH.search(after)):
            continue
        if not (_KEYPAD.search(sentence) or _OPENED_BY_CODE.search(sentence)):
            continue
        if _FOLLOWED_BY_UNIT.match(text, m.end()) or _CODE_UNITS.match(text, m.end()):
            continue
        if _NOT_CODE.search(before + m.group(0) + after):
            continue  # "dial 0800 for the booking line"
        yield SecretFinding("password", m.start("v"), m.end("v"))


# -- a value said again after how it is made --------------------------------------------

_MARKER = alternatives(_WORDS["restating"]["all"], spaced=True)
_RESTATED = re.compile(
    r"(?:[,;:、，]|[ \t]*[—–]|[ \t]-)[ \t]*"
    rf"(?:(?<![^\W_])(?i:{_MARKER})(?![^\W_\d])|(?i:{_MARKER})(?=\d))"
    r"[ \t]*[:,]?[ \t]*(?:(?i:it['’]s|it[ \t]+is|c['’]est)[ \t]+)?[\"'“«]?"
    r"(?P<v>[^\s\"'`“”«»,;:、，。()]{3,64}?)[\"'”»]?"
    r"(?=[ \t]*(?:[,.!?;)、，。]|[—–]|[ \t]-|$))"
    # a full-width colon after the words that say how (Chinese, Japanese): "…倒过来：515114"
    rf"|(?<=[{_CJK_RANGES}])[:：][ \t]*(?P<w>\d{{3,8}})(?!\d)",
    re.MULTILINE,
)
#: a word for a secret or a code, a verb that unlocks, or one that opens "with" something
#: ("the shed opens with ..."; not "the shop opens at nine, so 0900")
_SECRET_OR_LOCK = re.compile(
    rf"{_LABEL.pattern}|(?i:{_CODE_LABEL})"
    rf"|(?<![^\W_])(?i:{_OPENING_VERB})[^\W\d_]*"
    rf"(?:[ \t]+[^\W\d_][\w'’\-]*){{0,2}}?[ \t]+(?i:{_WITH})"
    + r"(?![^\W_])|"
    + stems(_WORDS["restating"]["unlocking"])
)
#: how far back in its sentence the word for the secret may be
_REACH = 160


def _restated_values(text: str) -> Iterator[SecretFinding]:
    """A value at the end of a clause after "so", "that is", "also", "alltså", "yani",
    "つまり" (a comma or a dash before), in a sentence that names a secret or what a code
    opens before it: digits, or a made-up value."""
    text = _without_mask_tags(text)
    for m in _RESTATED.finditer(text):
        group = "v" if m.group("v") is not None else "w"
        value = m.group(group).rstrip(".!?")
        start = m.start(group)
        left = max([text.rfind(c, 0, m.start()) for c in ".!?\n。"] + [m.start() - _REACH]) + 1
        head = text[left : m.start()]
        if not _SECRET_OR_LOCK.search(head):
            continue
        digits = re.fullmatch(r"\d{3,8}", value) is not None
        if not digits and not _plainly_made_up(value, explicit=True):
            continue
        if _FOLLOWED_BY_UNIT.match(text, start + len(value)) or _CODE_UNITS.match(
            text, start + len(value)
        ):
            continue
        yield SecretFinding("password", start, start + len(value))


# -- a made-up value straight after a code's label --------------------------------------

_LABEL_THEN_MADE_UP = re.compile(
    rf"(?<![^\W_])(?i:{_CODE_LABEL})(?![^\W_])[ \t]*(?:[:=：][ \t]*|[ \t]+)[\"'“«]?"
    r"(?P<v>[^\s\"'`“”«»,;]{8,64})"
)


def _made_up_after_a_code_label(text: str) -> Iterator[SecretFinding]:
    """A value no word is, straight after a label of `[codes]` (a PIN's, an access
    code's): "clave de acceso Qx7mLp2vRw", "Online-PIN: Fern.lantern42". Digits are the
    code rules' to read."""
    text = _without_mask_tags(text)
    for m in _LABEL_THEN_MADE_UP.finditer(text):
        value = m.group("v").rstrip(".!?)")
        if value.isdigit() or not _plainly_made_up(value, explicit=True):
            continue
        if _NOT_CODE.search(_sentence_around(text, m.start(), m.end())):
            continue
        yield SecretFinding("password", m.start("v"), m.start("v") + len(value))


DETECTORS: tuple[Detector, ...] = (
    _received_codes,
    _keyed_near_a_keypad,
    _restated_values,
    _made_up_after_a_code_label,
)
