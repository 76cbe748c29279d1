"""A label's qualifier set aside: "the backup code for my mail account in case the phone
dies: 8142 5573" is read as "the backup code: 8142 5573".

Every detector reads a label and its value with a few words at most between them; people
put a whole phrase there, saying what the secret is for ("API-Token für den Staging-Server
im Keller: ...", "резервний код для пошти: ...", "záložní kód pro banku: ..."), and each
language's rules would need that phrase's every shape. This reading does not depend on
the label or the language: before a colon (or an "is" of any language), after a word for a
secret (a password, a key, a token, a code, recovery codes, a seed phrase), the words from a
preposition (`preps` of every `[password.*]` table of `credo/data/secret_words.toml`, and
English's) or a remark in brackets up to the colon are a qualifier of what comes before
them. The text is read again without the qualifier, by every other detector, and what
they find after the colon is a secret of the text as it was written (`candidates` gives
the readings; `credo.secrets` runs its detectors on them). A qualifier that says the
value is public or an example, whose it is (a business's) or where it is printed, or a
code's qualifier that names another kind of code ("the code for the discount of the
week: ..."), is never set aside: it is what says the value is not a secret."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from . import cached_re as re
from .secret_base import _CODE_VERBS, _PUBLIC_WORD, _WORDS, _bounded
from .secret_blocks import _BACKUP_LABEL, _SEED_LABEL
from .secret_codes import _NOT_CODE
from .secret_random import _CODE_LABELS
from .secret_random import _LABEL as _SECRET_WORD

__all__ = ["COLON_KINDS", "VERB_KINDS", "Reading", "candidates"]

#: copulas that are also another language's common word ("on", "to", "la", "he", "er")
_AMBIGUOUS_VERBS = frozenset(
    ["to", "on", "e", "la", "he", "er", "ar", "hy", "ha", "ko", "tha", "hai", "itu", "ay"]
)
#: the words of every language that may stand for "is" between a label and its value
#: (never a sign: "=", "-" and dashes join other things too)
_WORD_VERBS = "|".join(
    v
    for v in dict.fromkeys(re.split(r"\|", _CODE_VERBS))
    if re.search(r"[^\W\d_]", v) and "[" not in v and v not in _AMBIGUOUS_VERBS
)

#: the prepositions that start a qualifier: each language's `preps` (fragments of regular
#: expressions) and English's, read as whole words
_PREPS = "|".join(
    entry["preps"]
    for entry in _WORDS["password"].values()
    if isinstance(entry, dict) and entry.get("preps")
)
_PREP = re.compile(
    r"(?i)(?:for|of|on|in|at|from|to|with|by|inside|within|" + _PREPS + r")(?![^\W_])"
)
#: where a value's label is introduced: a colon (never a time's, a link's or a drive's),
#: or a copula of one of the password tables ("ist", "est", "ni")
_COLON = r"(?<![\d/\\])[ \t]*[:：](?![/\\\d])(?=[ \t]|$)"
_SEPARATOR = re.compile(
    rf"(?P<colon>{_COLON})|(?<=[^\W_])[ \t]+(?i:{_WORD_VERBS}|are|were)(?=[ \t]+[^\W_])"
)
#: what a reading may find: values secret whoever holds them (after an "is", only what a
#: person says: a password, codes, a seed phrase, an answer); never a bank's or an
#: identity's number, which are secret or not by whose they are
COLON_KINDS = frozenset(
    {
        "password",
        "generic_api_key",
        "backup_codes",
        "seed_phrase",
        "security_answer",
        "session_cookie",
        "encryption_key",
        "crypto_private_key",
        "connection_string",
        "basic_auth",
    }
)
VERB_KINDS = frozenset({"password", "backup_codes", "seed_phrase", "security_answer"})
#: how far after the separator the value may start (an opening quote, "now")
_REACH_AFTER = 16
#: words by which the detectors read a value as no secret, in a qualifier: whose it is or
#: where it is printed (a business's, an invoice's), a story's or a list's words
_NOT_SECRET_CONTEXT = re.compile(
    "(?i)"
    + _bounded(
        [
            *_WORDS["companies"]["owners"],
            *(w for key, words in _WORDS["published"].items() if key != "into" for w in words),
            *_WORDS["stories"]["all"],
            *_WORDS["word_lists"]["all"],
        ]
    )
)
#: and after a code's label, what makes a code another kind's: a postcode's place words
#: ("the PIN code for our city office"), a discount's, an error's (`_NOT_CODE`)
_NOT_A_CODE_PLACE = re.compile(
    "(?i)"
    + _bounded(_WORDS["postal"]["all"])
    + "|"
    + "|".join(re.escape(w) for w in _WORDS["postal"]["stems"])
)
#: what ends a clause before the separator: a sentence's stop, a line, a semicolon, a comma
_CLAUSE_START = re.compile(r"[.!?。！？;；,，\n](?=\s|$)|[\n;；,，]")
#: the most words a qualifier may have, and the most characters
_MOST_WORDS = 10
_MOST_CHARS = 90
#: words that say the value is public, an example or not the secret
_EXAMPLE = re.compile("(?i)" + _bounded(_WORDS["public_values"]["tests"]))


@dataclass(frozen=True)
class Reading:
    """The text read with one qualifier set aside: `text`, where the separator and what
    follows it start in it (`at`) and in the text as written (`at + shift`), how far a
    value found may start (`reach`: just after the separator, on its line), and the kinds
    it may be (`kinds`)."""

    text: str
    at: int
    shift: int
    reach: int
    kinds: frozenset[str]

    def keeps(self, kind: str, start: int) -> bool:
        """Whether a finding of `kind` at `start` (in `text`) is the value after the
        separator this reading is about."""
        return kind in self.kinds and self.at <= start <= self.reach


#: how far before the qualifier the secret's word must be
_HEAD_REACH = 40
_BACKUP_OR_SEED = re.compile(rf"(?i:{_BACKUP_LABEL})|{_SEED_LABEL.pattern}", re.IGNORECASE)


def _names_a_secret(head: str) -> bool:
    """Whether the words before a qualifier hold a word for a secret: a password, a key, a
    token, a code or a PIN, recovery codes, a seed phrase (a thing a code opens alone is
    not one: "the alarm for monday: 0630" is a clock's)."""
    return bool(
        _SECRET_WORD.search(head) or _CODE_LABELS.search(head) or _BACKUP_OR_SEED.search(head)
    )


def _clause_start(text: str, end: int) -> int:
    start = 0
    for m in _CLAUSE_START.finditer(text, 0, end):
        start = m.end()
    return start


def candidates(text: str) -> Iterator[Reading]:
    """Each reading of `text` with a qualifier between a label and its colon set aside."""
    for sep in _SEPARATOR.finditer(text):
        left = _clause_start(text, sep.start())
        words = list(re.finditer(r"\S+", text[left : sep.start()]))
        if len(words) < 2:
            continue
        for i, word in enumerate(words[1:], start=1):
            token = word.group(0)
            remark = token.startswith(("(", "（"))
            if not remark and _PREP.fullmatch(token) is None:
                continue
            cut = left + word.start()
            gap = text[cut : sep.start()]
            if len(words) - i > _MOST_WORDS or len(gap) > _MOST_CHARS:
                continue
            if remark and not re.fullmatch(r"[(（][^()（）]*[)）]", gap.strip()):
                continue  # a remark's brackets hold the whole qualifier, nothing after
            head = text[:cut].rstrip()
            if not _names_a_secret(head[-_HEAD_REACH:]):
                continue  # "alarm for monday: 0630": a thing's qualifier, no secret's word
            if ":" in gap or "：" in gap:
                continue  # a field of its own, not a qualifier ("for user x: psql: ...")
            if _PUBLIC_WORD.search(gap) or _EXAMPLE.search(gap) or _NOT_SECRET_CONTEXT.search(gap):
                continue
            if (_NOT_CODE.search(gap) or _NOT_A_CODE_PLACE.search(gap)) and _CODE_LABELS.search(
                head, max(0, len(head) - 40)
            ):
                continue  # "the code for the discount of the week": a code of another kind
            line = text.find("\n", sep.end())
            reach = min(sep.end() + _REACH_AFTER, len(text) if line < 0 else line)
            shift = sep.start() - len(head)
            kinds = COLON_KINDS if sep.group("colon") else VERB_KINDS
            yield Reading(head + text[sep.start() :], len(head), shift, reach - shift, kinds)
