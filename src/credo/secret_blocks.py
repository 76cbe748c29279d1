"""Secrets that are a block of their own, refused whole (never line by line): private keys
in the files that hold them (PEM, OpenSSH, PGP, PuTTY, a service account's JSON), long or
stacked runs of base64 key material, wallet seed phrases (the BIP-39 English list), and
lists of 2FA backup and recovery codes. Public armour (a public key, a certificate, a
signature) holds none.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from importlib import resources

# `re`, with the compiled programs of the patterns below kept between processes when the
# command line enables credo.cache (compiling them is half a second of every cold start)
from . import cached_re as re
from .secret_base import (
    _CODE_VERBS,
    Detector,
    SecretFinding,
    _phrases,
    _regex_detector,
    _shannon_entropy,
)

# Armour that holds no secret: what is inside is public (or already encrypted to someone).
_PUBLIC_ARMOUR = re.compile(
    r"-{3,}[ \t]*BEGIN[ \t]+(?P<what>[A-Z0-9 ]*?(?:PUBLIC KEY(?: BLOCK)?|CERTIFICATE(?: REQUEST)?"
    r"|PGP SIGNATURE|PGP MESSAGE|SIGNED MESSAGE|X509 CRL|PARAMETERS|DH PARAMETERS))[ \t]*-{3,}"
    r"[\s\S]*?(?:-{3,}[ \t]*END[ \t]+(?P=what)[ \t]*-{3,}|\Z)"
)


# An SSH public key line ("ssh-ed25519 AAAAC3Nz... me@host"), an SRI or digest prefix,
# a data URI: the base64 that follows is not a secret.
_PUBLIC_PREFIX = re.compile(
    r"(?:(?:ssh-(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp\d+|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)"
    r"@openssh\.com|(?:ssh-rsa|ssh-ed25519|ecdsa-sha2-nistp\d+)-cert-v01@openssh\.com)[ \t]+"
    r"|(?i:sha(?:1|224|256|384|512)|md5)[:=\-][ \t]?|base64,|(?i:fingerprint)[: \t]+)$"
)


_B64_WORD = re.compile(r"(?<![A-Za-z0-9+/=_\-.])[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=_\-])")


_B64_GAP = re.compile(r"[ \t]*\r?\n[ \t]*")


def _public_spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _PUBLIC_ARMOUR.finditer(text)]


def public_blocks(text: str) -> list[tuple[int, int]]:
    """The spans of `text` that are public armoured blocks (a public key, a certificate,
    a signature, from its BEGIN line to its END line): what they hold is no secret, and a
    line of one read alone would look like key material."""
    return _public_spans(text)


def _key_material(text: str) -> Iterator[SecretFinding]:
    """Base64 that is plainly key material: one random-looking word of 56 characters or
    more (a line of a PEM or OpenSSH body pasted alone), or lines of 40 or more, one under
    another (a body without its armour). Public keys, certificates, digests are skipped."""
    if len(text) < 56:
        return
    public = _public_spans(text)
    words = list(_B64_WORD.finditer(text))
    i = 0
    while i < len(words):
        run = [words[i]]
        while (
            i + 1 < len(words)
            and len(run[-1].group(0)) >= 40
            and _B64_GAP.fullmatch(text, run[-1].end(), words[i + 1].start())
        ):
            i += 1
            run.append(words[i])
        i += 1
        start, end = run[0].start(), run[-1].end()
        if any(a <= start < b for a, b in public):
            continue
        if _PUBLIC_PREFIX.search(text[max(0, start - 64) : start]):
            continue
        body = "".join(w.group(0) for w in run)
        long_lines = sum(len(w.group(0)) >= 40 for w in run)
        if not (len(run[0].group(0)) >= 56 or (long_lines >= 2 and len(body) >= 80)):
            continue
        if _random_base64(body):
            yield SecretFinding("key_material", start, end)


def _random_base64(body: str) -> bool:
    has = (any(c.isupper() for c in body), any(c.islower() for c in body))
    return all(has) and any(c.isdigit() for c in body) and _shannon_entropy(body) >= 4.0


# PuTTY's private key file: from its first line to the MAC (or the end of the text).
_PUTTY_KEY = (
    r"PuTTY-User-Key-File-\d+:[\s\S]*?(?:Private-MAC:[ \t]*[0-9A-Fa-f]*|Private-Hash:[ \t]*"
    r"[0-9A-Fa-f]*|\Z)"
)


@lru_cache(maxsize=1)
def _bip39() -> frozenset[str]:
    text = resources.files("credo").joinpath("data/bip39_english.txt").read_text("utf-8")
    return frozenset(w for w in text.split() if w.isalpha() and w.islower() and len(w) > 2)


_LETTER_WORD = re.compile(r"[^\W\d_]+")


# between two words of a seed phrase: blanks, commas, a line break, numbering ("1. " "2)")
_SEED_GAP = re.compile(r"[\s,;|·•\-]*(?:\(?\d{1,2}[.):]?[ \t]*)?[\s,;|·•\-]*")


_SEED_LABEL = re.compile(_phrases("seed_phrases"), re.IGNORECASE)
#: a list of things to buy or do, named just before its words (`[word_lists]`)
_WORD_LIST = re.compile(_phrases("word_lists"), re.IGNORECASE)


#: a seed phrase has 12 to 24 words; one that a label names may be cut short
SEED_WORDS = 12


LABELLED_SEED_WORDS = 8


def _seed_phrases(text: str) -> Iterator[SecretFinding]:
    """Twelve or more words in a row from the BIP-39 list (eight after a label such as
    "seed phrase"), separated by blanks, commas, line breaks or numbers. A sentence of
    prose has "the", "is", "my" and the like, none of which are on the list."""
    words = _bip39()
    labels = [m.end() for m in _SEED_LABEL.finditer(text)]
    run: list[re.Match[str]] = []

    def flush() -> Iterator[SecretFinding]:
        if not run:
            return
        said = [w.group(0).lower() for w in run]
        if (
            len(said) >= LABELLED_SEED_WORDS
            and said == sorted(said)
            and len(set(said)) == len(said)
        ):
            return  # the list itself, quoted in its order ("lobster local lock logic ...")
        start = run[0].start()
        labelled = any(0 <= start - end <= 40 for end in labels)
        if not labelled and _WORD_LIST.search(text, max(0, start - 40), start):
            return  # "shopping list for saturday: milk, bread, ...": the list of things
        if len(run) >= SEED_WORDS or (labelled and len(run) >= LABELLED_SEED_WORDS):
            yield SecretFinding("seed_phrase", start, run[-1].end())

    for m in _LETTER_WORD.finditer(text):
        word = m.group(0).lower()
        if word in words and (not run or _SEED_GAP.fullmatch(text, run[-1].end(), m.start())):
            run.append(m)
            continue
        yield from flush()
        run = [m] if word in words else []
    yield from flush()


# A seed phrase of a word list other than English's (BIP-39 has ten: Spanish, Chinese,
# Japanese, Korean, French, Italian, Czech, Portuguese...), after its label: twelve to
# twenty-four words in a row, each of letters alone, none a word prose is made of
# ("助记词：关 曰 朵 ...", "frase de recuperación: enemigo ligero ganso ...", "復元フレー
# ズ：せんろ　ふせい ..."). Chinese and Japanese prose puts no blank between its words.
_SEED_RUN = re.compile(
    r"[ \t\u3000]*(?:\([^()\n]{0,60}\))?[ \t\u3000]*[:：\-—]?[ \t\u3000]*\n?"
    r"(?P<v>[^\W\d_][^\s\d,.;:!?，。、]{0,11}"
    r"(?:[ \t\u3000]+[^\W\d_][^\s\d,.;:!?，。、]{0,11}){11,23})"
    r"(?![^\W\d_]|[ \t\u3000]+[^\W\d_])"
)


#: words of prose in the languages of `[seed_phrases]`: a run holding one is a sentence
_PROSE_WORDS_TEXT = """
    the a an and or is are was my your it in on of to for with this that i we you de la
    el los las y o es en un una que mi por con del al le les et est une du des der die das
    und ist ein eine mit il lo di e è che per non os as um uma do da em para com het een
    van op и в не на с что это я
"""


_PROSE_WORDS = frozenset(_PROSE_WORDS_TEXT.split())


#: a seed phrase's label's "is", in any language of the password tables
_SEED_VERB = re.compile(rf"[ \t]+(?i:{_CODE_VERBS}|are|were)(?![^\W_])")


def _labelled_seed_runs(text: str) -> Iterator[SecretFinding]:
    for label in _SEED_LABEL.finditer(text):
        lo = text.find(":", label.end(), label.end() + 80)
        lo = label.end() if lo < 0 else lo + 1
        # or the label's "is" of any language ("my wallet's seed is w1 ... w12")
        verb = _SEED_VERB.match(text, label.end())
        for at in {label.end(), lo, verb.end() if verb else lo}:
            m = _SEED_RUN.match(text, at)
            if m is None:
                continue
            words = m.group("v").split()
            if any(w.lower() in _PROSE_WORDS for w in words) or len(words) not in (
                12,
                15,
                18,
                21,
                24,
            ):
                continue
            yield SecretFinding("seed_phrase", m.start("v"), m.end("v"))
            break
        else:
            if lo != label.end():  # "...: w1 w2 ... w12 how do I restore it?"
                yield from _seed_then_prose(text, lo)
            else:
                yield from _seed_near_label(text, label.end())


_SEED_LEAD = re.compile(r"[ \t\u3000]*\n?[ \t\u3000]*")
_SEED_WORD = re.compile(r"[^\W\d_][^\s\d,.;:!?，。、]{0,11}(?![^\s,.;:!?，。、])")
_SEED_BLANK = re.compile(r"[ \t\u3000]+")


#: a particle Korean or Japanese may set off with a blank after a phrase ("... 태권도 을
#: 메모장에 저장했는데")
_PARTICLES = frozenset({"을", "를", "은", "는", "이", "가", "도", "を", "は", "が", "も"})


def _seed_words(text: str, pos: int, limit: int = 25) -> list[tuple[int, int]]:
    """The words of letters one blank apart from `pos`, up to a word of prose."""
    spans: list[tuple[int, int]] = []
    while len(spans) < limit:
        word = _SEED_WORD.match(text, pos)
        if word is None or word.group(0).lower() in _PROSE_WORDS:
            break
        spans.append(word.span())
        blank = _SEED_BLANK.match(text, word.end())
        if blank is None:
            break
        pos = blank.end()
    return spans


#: how a sentence ends in Korean and Japanese (a request, a statement, a question)
_SENTENCE_ENDINGS = ("요", "죠", "까", "니다", "다", "야", "어", "ね", "よ", "す", "た", "る", "か")


def _seed_near_label(text: str, at: int) -> Iterator[SecretFinding]:
    """A seed phrase its label names with no colon: twelve to twenty-four words straight
    after it and then a particle set off by a blank ("복구 구문 w1 ... w12 을 ..."), or
    alone on the next line ("復元フレーズを入力すると...？\nw1\u3000...\u3000w12")."""
    spans = _seed_words(text, at + len(text[at:]) - len(text[at:].lstrip(" \t\u3000")))
    for n in (24, 21, 18, 15, 12):
        if len(spans) > n and text[spans[n][0] : spans[n][1]] in _PARTICLES:
            yield SecretFinding("seed_phrase", spans[0][0], spans[n - 1][1])
            return
    # a word or two that say what is done with it, then the words to the text's end, on
    # one line ("복구 문구 백업해둘게 w1 ... w12"): a line broken there, flattened
    rest = text[spans[-1][1] :].strip() if spans else "x"
    last = text[spans[-1][0] : spans[-1][1]] if spans else ""
    # ... the label set off by a blank, and no sentence's ending last (a request or a
    # statement ends in one: "... 보관하세요", "... 알겠죠"; a seed phrase in a noun)
    flat = text[at : at + 1].isspace() and not last.endswith(_SENTENCE_ENDINGS)
    for n in (24, 21, 18, 15, 12):
        if flat and not rest and len(spans) - n in (1, 2) and not last.isascii():
            yield SecretFinding("seed_phrase", spans[len(spans) - n][0], spans[-1][1])
            return
    line = text.find("\n", at, at + 240)
    if line < 0:
        return
    spans = _seed_words(text, line + 1)
    end = text.find("\n", line + 1)
    end = len(text) if end < 0 else end
    if len(spans) in (12, 15, 18, 21, 24) and not text[spans[-1][1] : end].strip():
        yield SecretFinding("seed_phrase", spans[0][0], spans[-1][1])


def _seed_then_prose(text: str, at: int) -> Iterator[SecretFinding]:
    """After a seed phrase's label and its colon, words of letters one blank apart, the
    prose that follows them included: the longest phrase of 12 to 24 words before any word
    of prose is the seed (a question after it in a language with no word of
    `_PROSE_WORDS` is masked with it: more is hidden, nothing is shown)."""
    pos = _SEED_LEAD.match(text, at).end()  # type: ignore[union-attr]
    spans: list[tuple[int, int]] = []
    while len(spans) < 24:
        word = _SEED_WORD.match(text, pos)
        if word is None or word.group(0).lower() in _PROSE_WORDS:
            break
        spans.append(word.span())
        blank = _SEED_BLANK.match(text, word.end())
        if blank is None:
            break
        pos = blank.end()
    n = max((k for k in (12, 15, 18, 21, 24) if k <= len(spans)), default=0)
    if n:
        yield SecretFinding("seed_phrase", spans[0][0], spans[n - 1][1])


# One-time recovery codes: "backup codes: 8492 1734, 5521 0983", "recovery codes
# a1b2c-3d4e5 f6a7b-8c9d0". After a label, one code or a list of them.
_BACKUP_LABEL = _phrases("backup_codes", inflected=True)


_CODE_TOKEN = (
    r"(?:\d{4}[ \-]\d{4}(?:[ \-]\d{4})?"
    r"|(?=[A-Za-z\-]{0,12}\d)[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{3,12}){0,8})"
)


_BACKUP_CODES = re.compile(
    rf"(?i:{_BACKUP_LABEL})"
    # what they are for: "for my Proton account", "2FA pour mon compte Proton"
    r"(?:[ \t]+(?i:(?=\d{0,3}[^\W\d_])[^\W_][\w'’\-]{0,19})){0,6}?"
    rf"(?:[ \t]*(?::|=|-|–|—)[ \t]*|[ \t]+(?i:{_CODE_VERBS}|are|were)[ \t]*:?[ \t]*|[ \t]*\r?\n"
    # the codes straight after the label, as a list flattened onto one line reads
    rf"|[ \t]+(?={_CODE_TOKEN}[ \t,;]+[A-Za-z0-9])"
    # a remark on the label's line, the codes on the lines below: "backup codes (printed
    # a copy)\n..." (or the same with its line breaks read as blanks)
    r"|(?P<remark>[^\n\d]{1,80}?)(?P<gap>[ \t]*\r?\n|[ \t]+))"
    r"[\s\"'“«(\[]*"
    rf"(?P<v>(?:\(?\d{{1,2}}[.)][ \t]*)?{_CODE_TOKEN}"
    rf"(?:[\s,;|/]+(?:(?i:and|und|et|y|e|och|ja|og|i|и)[ \t]+)?(?:\(?\d{{1,2}}[.)][ \t]*)?"
    # after the first, a code of capitals in groups may hold no digit ("OVQN-ABJM"), nor
    # may one of eight capitals or more alone on its line or before another code of its
    # shape ("SPUDLSXAUW": a code's letters happened to be all letters)
    rf"(?:{_CODE_TOKEN}|[A-Z]{{4,6}}-[A-Z]{{4,6}}"
    r"|[A-Z]{8,12}(?=[ \t]*(?:\r?\n|$)|[ \t]+[A-Z0-9]{8,12}(?![\w\-]))))*)"
    r"(?![\w\-])"
)


_CODE_TOKENS = re.compile(_CODE_TOKEN)


# up to five words after the label, then the code's verb ("I still have is", "they sent
# me was")
_WORDS_THEN_VERB = re.compile(
    rf"(?:[ \t]+[^\W\d_][\w'’\-]*){{1,5}}[ \t]+(?i:{_CODE_VERBS}|are|were)[ \t]*:?"
)


_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")


_ALNUM_RUN = re.compile(r"[A-Za-z0-9]+")


# recovery codes pasted with no label: three or more hex pairs like GitHub's "1a2b3-c4d5e"
_UNLABELLED_CODES = re.compile(
    r"(?<![\w\-])(?:[0-9a-f]{4,6}-[0-9a-f]{4,6}(?:[\s,;]+|$)){3,}", re.MULTILINE
)


def _backup_codes(text: str) -> Iterator[SecretFinding]:
    for m in _BACKUP_CODES.finditer(text):
        value = m.group("v")
        remark = m.group("remark")
        if remark and _WORDS_THEN_VERB.fullmatch(remark):
            remark = None  # "the recovery code I still have is X": a few words, its verb
        if remark and (
            len(_CODE_TOKENS.findall(value)) < 2
            if "\n" in m.group("gap")
            else len(_ALNUM_RUN.findall(value)) < 5
        ):
            continue  # after a remark, a list: one number below a label is no list
        if (
            remark
            and "\n" not in m.group("gap")
            and _SENTENCE_END.search(m.group("remark"))
            and len(_CODE_TOKENS.findall(value)) < 3
        ):
            continue  # "backup codes are offline. Call ...": the remark ended a sentence
            # (a numbered list of three codes or more after it is still the list)
        if sum(c.isdigit() for c in value) >= 3 and len(value) >= 6:
            yield SecretFinding("backup_codes", m.start("v"), m.end("v"))
    for m in _UNLABELLED_CODES.finditer(text):
        value = m.group(0).rstrip(", ;\n\t\r")
        if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            yield SecretFinding("backup_codes", m.start(), m.start() + len(value))


# Private keys in the files that hold them (PEM, PuTTY, a service account's JSON)
KEY_FILES: tuple[Detector, ...] = (
    _regex_detector(
        "private_key",
        r"-{3,}[ \t]*BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?[ \t]*-{3,}[\s\S]*?"
        r"(?:-{3,}[ \t]*END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?[ \t]*-{3,}|\Z)",
    ),
    _regex_detector("private_key", _PUTTY_KEY),
    # the private part of a PuTTY key file copied without its first lines
    _regex_detector(
        "private_key",
        r"Private-Lines:[ \t]*\d+\s+(?P<v>[A-Za-z0-9+/=]{16,}(?:\s+(?!Private-)[A-Za-z0-9+/=]{4,}"
        r"(?![^\s]))*)",
        group="v",
    ),
    # an encrypted PEM body pasted without its first line
    _regex_detector(
        "private_key",
        r"Proc-Type:[ \t]*4,ENCRYPTED[\s\S]*?(?:-{3,}[ \t]*END[ A-Z0-9]*PRIVATE KEY[ \t]*-{3,}"
        r"|\Z)",
    ),
    # a service account's key without its PEM armour: "private_key": "MIIEvQ..."
    _regex_detector(
        "private_key",
        r"(?i:private[_ ]?key)[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>MII[A-Za-z0-9+/=\\]{40,})",
        group="v",
    ),
    _regex_detector(
        "gcp_private_key_id",
        r"[\"']?private_key_id[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[0-9a-f]{40})(?![0-9a-f])",
        group="v",
    ),
)
