"""How random a value is, and the secret that measure finds: a made-up value in the clause
of a secret's label, in any language and any word order.

The other detectors read a label, its verb and a value in the order one language says
them; each new wording or language needs a rule. This one asks two questions that do
not depend on wording: is there a word for a secret in the clause (`[random_values]` of
`credo/data/secret_words.toml`, in 30 languages), and is a value in that
clause, before or after the word, one no person would write as a word, a name or a
number (`made_up`: letters and digits switching back and forth, cases mixed in no
word's way, symbols among letters and digits, or a long value of high entropy)? A
value that is a word, a name, a product's model, a version, a date, a digest, a path, a
link or an identifier in code is never read as made up, and a word saying the value is
public or not the secret (a hash, an example, an order) just before it voids it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from . import cached_re as re
from .secret_base import (
    _CJK_RANGES,
    _CODE_VERBS,
    _FOLLOWED_BY_UNIT,
    _MASK_TAG,
    _NOT_A_VALUE,
    _PUBLIC_WORD,
    _WORDS,
    SecretFinding,
    _bounded,
    _is_placeholder,
    _phrases,
    _sentence_around,
    _shannon_entropy,
    _without_mask_tags,
    alternatives,
)
from .secret_codes import _CLAUSE_CODE_LABEL, _CODE_LABEL, _CODE_WORD, _LOCKED, _NOT_CODE

__all__ = ["DETECTORS", "letter_digit_switches", "made_up", "odd_case_letters", "pieced"]

_VALUE_SYMBOLS = "!@#$%^&*+=~?<>|\\/()[]{}"


def letter_digit_switches(value: str) -> int:
    """How many times `value` switches between letters and digits, reading only its
    letters and digits ("gsz81nrwcvg6": 2, "RTX4090": 1, "x86_64": 1)."""
    kinds = ["d" if c.isdigit() else "a" for c in value if c.isalnum()]
    return sum(1 for a, b in zip(kinds, kinds[1:], strict=False) if a != b)


#: the pieces a word, a name or an identifier is made of: a capital and small letters
#: ("Bank", "appen"), an acronym of capitals ("ID", "HTTP"), digits
_WORDLIKE = re.compile(r"[A-Z]{2,}(?=[A-Z][a-z]|[^A-Za-z]|$)|[A-Z]?[a-z]{2,}|[A-Z](?=[^A-Za-z]|$)")


def odd_case_letters(value: str) -> int:
    """How many of `value`'s letters fall outside the pieces words are written in (a
    capital then small letters, an acronym): 0 for "BankID", "iPhone", "camelCaseName";
    most of "KptDLOOoVWGsZKn"'s."""
    letters = sum(1 for c in value if c.isascii() and c.isalpha())
    covered = sum(len(m.group(0)) for m in _WORDLIKE.finditer(value))
    return max(0, letters - covered)


_DIGEST = re.compile(r"(?:0x)?[0-9a-fA-F]{7,}|[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")
_NOT_MADE_UP = re.compile(
    r"(?i)v?\d+(?:[.\-/:]\d+)+[a-z]{0,3}"  # a version, a date, a time
    r"|(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?"  # an address
    r"|[a-z][\w\-]*(?:\.[a-z][\w\-]*)+\(?\)?"  # a dotted name in code, a host
    r"|[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+"  # an e-mail address
    r"|\$\{.*|\{\{.*|%\w+%|\$[A-Z_]+"  # a reference to a value set elsewhere
    r"|\$(?:2[aby]?|argon2\w*|\d)\$.*"  # a password's hash
    r"|\d{4}-\d\d-\d\d[T ]?[\d:.]*(?:Z|[+\-]\d\d:?\d\d)?"  # a timestamp
    r"|.*(?:\*{3}|•{3}|x{4}|X{4}).*"  # a value masked or a format
)


_LETTER_RUN = re.compile(r"[A-Za-z]{5,}")
_VOWELS = frozenset("aeiouy")


def _a_word(run: str) -> bool:
    """Whether a run of five letters or more reads as a word of a language written in
    Latin letters: vowels between a quarter and two thirds of it, never four consonants
    in a row ("vaccine", "player", "Windows"; not "nrwcvg", "Tundr")."""
    low = run.lower()
    vowels = sum(c in _VOWELS for c in low)
    if not 0.25 <= vowels / len(low) <= 0.67:
        return False
    return re.search(r"[^aeiouy]{4}", low) is None


def made_up(value: str) -> bool:
    """Whether `value` (one run of characters with no blank) is made up rather than a
    word, a name, a number or an identifier: the measure of randomness the clause reading
    decides by, whatever the language around it."""
    if not 8 <= len(value) <= 200 or _is_placeholder(value):
        return False
    if not value.isascii() or _NOT_MADE_UP.fullmatch(value) or _DIGEST.fullmatch(value):
        return False
    if "://" in value or value.count("/") >= 2 and len(value) < 24:
        return False  # a link, a path
    parts = [p for p in re.split(r"[./]", value) if p]
    if len(parts) > 1 and not any(len(p) >= 6 and made_up(p) for p in parts):
        return False  # a name of dotted or slashed parts none of which is made up
    letters = [c for c in value if c.isalpha()]
    digits = sum(c.isdigit() for c in value)
    if not letters:
        return False  # digits alone are numbers and codes: read by their own detectors
    if not any(c.islower() for c in letters) and len(value) < 16:
        return False  # capitals and digits: a model, a reference, a booking code
    switches = letter_digit_switches(value)
    symbols = sum(c in _VALUE_SYMBOLS for c in value.rstrip("?!.)"))
    if symbols and digits and switches and len(value) >= 8:
        return True  # "S3cr3t!pass", "8-Z39^Yl..."
    odd_case = odd_case_letters(value)
    if odd_case < 3 and len(value) < 20 and any(map(_a_word, _LETTER_RUN.findall(value))):
        return False  # words and numbers: "covid19vaccine", "Windows11Pro", "mp3player"
    if switches >= 3 or (switches == 2 and len(value) >= 11):
        return True
    if odd_case >= 3 and len(value) >= 10:
        return True
    return len(value) >= 20 and bool(digits) and _shannon_entropy(value) >= 4.0


#: a value's pieces between hyphens or underscores
_PIECE_SEPARATOR = re.compile(r"[\-_]")


def pieced(value: str) -> bool:
    """Whether `value` is pieces joined the way a person makes a password of them, in no
    product's or model's case: three pieces or more between hyphens or underscores, a
    digit, both cases, and a piece that mixes small letters with digits ("Kx9") or one of
    small letters alone beside a capitalised one ("Kx9-ruby-Tundra-03", "Qz9-Meihua-2024";
    not "Galaxy-Tab-S9", "NET-LINK-5G")."""
    if not 8 <= len(value) <= 40 or not value.isascii():
        return False
    pieces = _PIECE_SEPARATOR.split(value)
    if len(pieces) < 3 or not all(p.isalnum() for p in pieces):
        return False
    if not any(c.isdigit() for c in value) or value.islower() or value.isupper():
        return False
    mixed = any(
        any(c.islower() for c in p) and any(c.isdigit() for c in p) and len(p) <= 6 for p in pieces
    )
    small = any(p.isalpha() and p.islower() for p in pieces)
    capital = any(p.isalpha() and p[0].isupper() and p[1:].islower() for p in pieces)
    return mixed or (small and capital)


def _labels() -> str:
    words: list[str] = []
    for key, listed in _WORDS["random_values"].items():
        if key != "public":
            words.extend(listed)
    latin = [w for w in words if not re.search(rf"[{_CJK_RANGES}\u0e00-\u0e7f]", w)]
    other = [w for w in words if w not in latin]
    return rf"(?i:{_bounded(latin)}" + "|" + alternatives(other) + ")"


_LABEL = re.compile(_labels())
#: a word saying what the value is (a hash, an id, a user's name), just before it or with
#: a short word between ("client ID is X", "hash: X")
_PUBLIC_BEFORE = re.compile(
    r"(?i)(?:"
    + _bounded(_WORDS["random_values"]["public"])
    + r")(?:[\W_]{0,3}|[ \t]+[^\W\d_]{1,5}[ \t:=]{1,3})$"
)
#: an HTTP scheme's credential: read by the header detectors, which know its encoding
_SCHEME_BEFORE = re.compile(r"(?i)(?:basic|bearer|digest|token)[ \t]+$")
#: a run that may be a value: no blank, no script but Latin (a value inside Chinese,
#: Japanese or Korean text is cut out of the words around it)
_RUN = re.compile(rf"[^\s\"'`“”‘’«»()\[\]{{}}<>,;{_CJK_RANGES}\u0e00-\u0e7f\u0600-\u06ff]+")
#: where a clause ends: a sentence's stop before a blank, a line break
_CLAUSE_END = re.compile(r"[.!?。！？](?=\s|$)|\n")
_REACH = 90
#: a setting's name and its "=" or ":" before its value, in one run ("ip=10.1.4.22")
_SETTING = re.compile(r"[A-Za-z_][\w.\-]*[=:](?=.)")


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    left = max(0, start - _REACH)
    for m in _CLAUSE_END.finditer(text, left, start):
        left = m.end()
    right = min(len(text), end + _REACH)
    stop = _CLAUSE_END.search(text, end, right)
    return left, (stop.start() if stop else right)


def _random_in_label_clause(text: str) -> Iterator[SecretFinding]:
    """A made-up value in the clause of a word for a secret, before or after it."""
    return _made_up_in_clause(text, _LABEL)


#: a code's word or label ("code", "kod", "PIN", "door code")
_CODE_LABELS = re.compile(
    rf"(?i:{_CODE_LABEL}|{_CODE_WORD}|{_CLAUSE_CODE_LABEL.pattern.removeprefix('(?i)')})"
)
_LOCKED_THING = re.compile(rf"(?i:{_LOCKED})")


def _made_up_codes(text: str) -> Iterator[SecretFinding]:
    """A made-up code of letters and digits in the clause of a code's word, where the
    clause names what a code opens: "the lockbox by the door, code Hx4-q9T-w2B" (a code
    of digits alone is read by `credo.secret_codes`); not a code of another kind ("the
    discount code ...")."""

    def opens_something(clause: str) -> bool:
        return _LOCKED_THING.search(clause) is not None and _NOT_CODE.search(clause) is None

    return _made_up_in_clause(text, _CODE_LABELS, clause_ok=opens_something)


def _made_up_in_clause(
    text: str, labels: re.Pattern[str], *, clause_ok: Callable[[str], bool] | None = None
) -> Iterator[SecretFinding]:
    """A made-up value in the clause of one of `labels`, before or after it, where
    `clause_ok` (if given) accepts the clause."""
    plain = _MASK_TAG.sub(lambda m: " " * len(m.group(0)), text)
    seen: set[int] = set()
    for label in labels.finditer(plain):
        left, right = _clause(plain, label.start(), label.end())
        if clause_ok is not None and not clause_ok(plain[left:right]):
            continue
        for run in _RUN.finditer(plain, left, right):
            if label.start() < run.end() and run.start() < label.end():
                continue  # the label itself ("Wi-Fi-Passwort")
            start, end = run.start(), run.end()
            if "://" in plain[start:end]:
                continue  # a link
            if (start == left and start and not plain[start - 1].isspace()) or (
                end == right
                and end < len(plain)
                and not plain[end].isspace()
                and not _CLAUSE_END.match(plain, end)
            ):
                continue  # a run the clause's reach cuts (not its stop): part of something longer
            setting = _SETTING.match(plain, start, end)
            if setting:
                start = setting.end()  # "ip=10.1.4.22": the value of a setting
            while end > start and plain[end - 1] in ".,:;?!)":
                end -= 1
            while start < end and plain[start] in ":=(":
                start += 1
            value = plain[start:end]
            # a value of pieces (`pieced`) straight after its label ("预共享密钥 Qz9-Meihua-
            # 2024"): given as the secret, though each piece is a word
            adjacent = 0 <= start - label.end() <= 3 and pieced(value)
            if start in seen or not (made_up(value) or adjacent):
                continue
            if _PUBLIC_BEFORE.search(plain, max(left, start - 40), start) or _SCHEME_BEFORE.search(
                plain, max(left, start - 12), start
            ):
                continue
            between = plain[min(label.end(), end) : max(label.start(), start)]
            if _PUBLIC_WORD.search(between) or _PUBLIC_WORD.search(plain, left, start):
                continue
            seen.add(start)
            yield SecretFinding("password", start, end)


# --- a code or a password said first, its label after ------------------------------------

#: a copula or a sign between a value that opens its clause and the label that says what
#: it is ("4471 is the gate code", "4471 = garage", "4471 是门禁密码", "4471 ndio PIN")
_FIRST_CONNECTOR = re.compile(
    rf"[ \t]*(?:[=:→]|[\-–—](?=[ \t])|(?<=[ \t])(?i:{_CODE_VERBS}|ndio|ni|ay|adalah|ialah"
    r"|là|คือ|هو|هي|است|हैं|है)(?![^\W_])|[是为為はがは는은이가])"
)
#: what may stand between the connector and the label: up to four words ("the steam
#: guard"), or a few characters of a script written without blanks ("支付宝的支付"); no
#: number, no end of a clause
_FIRST_GAP_REACH = 40
_FIRST_GAP_STOP = re.compile(r"[\d.!?。！？,，;；\n]")


def _first_gap_ok(gap: str) -> bool:
    """Whether `gap` is a few words that qualify the label ("the steam guard", "der"),
    not a clause of its own: no article or preposition after its first word ("the port
    the login page", "the limit on my card")."""
    if _FIRST_GAP_STOP.search(gap):
        return False
    words = gap.split()
    if len(words) > 4 or any(len(w) > 20 for w in words):
        return False
    return not any(w.lower() in _NOT_A_VALUE for w in words[1:])


#: what may follow the label: the clause's end, or a word that does not make the label a
#: qualifier of another noun ("the code for the gate", "PIN yangu"; not "the login page")
_AFTER_FIRST_LABEL = re.compile(
    r"[ 	]*(?:$|[\n.,;:!?)\]，。；：！？、（(—–\-]|[^\x00-\u024f])"
    r"|[ 	]+(?P<w>[^\W\d_][\w'’]*)"
)
_POSSESSIVES_AFTER = frozenset({"yangu", "yako", "yake", "wangu", "ya", "wa", "ng", "nya", "ku"})
#: articles: after the label they start a clause of their own ("the port the login page")
_ARTICLES_AFTER = frozenset(
    [
        "the",
        "a",
        "an",
        "der",
        "die",
        "das",
        "den",
        "dem",
        "ein",
        "eine",
        "le",
        "la",
        "les",
        "un",
        "une",
        "el",
        "los",
        "las",
        "il",
        "lo",
        "gli",
        "o",
        "os",
        "as",
        "um",
        "uma",
        "het",
        "een",
    ]
)


def _label_ends_it(text: str, end: int) -> bool:
    after = _AFTER_FIRST_LABEL.match(text, end)
    if after is None:
        return False
    word = after.group("w")
    if word is None:
        return True
    word = word.lower()
    return word not in _ARTICLES_AFTER and (word in _NOT_A_VALUE or word in _POSSESSIVES_AFTER)


#: the labels a value said first is read against: a word for a secret (`_LABEL`), a PIN's
#: or a code's label, a word for "code" or what a code opens
_CLAUSE_LABEL = _CLAUSE_CODE_LABEL.pattern.removeprefix("(?i)")
_FIRST_LABEL = re.compile(
    rf"(?:{_LABEL.pattern}|(?i:{_CODE_LABEL}|{_CODE_WORD}|{_LOCKED})"
    rf"|(?i:(?<![^\W_])pin(?![^\W_])|{_CLAUSE_LABEL}))"
)
#: a value that opens its clause (or a text, after a field's name and its colon): four to
#: eight digits of any script, or five to eight capitals and digits (a one-time code sent
#: in letters)
_VALUE_FIRST = re.compile(
    # a field's or a note's name and its colon may come first ("note: 4471 is ...")
    r"(?:^(?:[A-Za-z][\w\-]{0,19}:[ \t]*)?|(?<=[.!?。！？]\s)|(?<=\n))[ \t]*"
    r"(?P<v>\d{4,8}|[A-Z0-9]{5,8})(?![\w\-.,/:]\S|[\w])"
)
_A_YEAR = re.compile(r"(?:19|20)\d\d")


def _values_said_first(text: str) -> Iterator[SecretFinding]:
    """A PIN, a code or a password that opens its clause, then a copula or a sign and
    its label a few words on: "7203 is the alarm code", "7203 = shed lock", "7203 是银行卡
    密码", "QXZRT is the login code"; not a year, an amount or a number of something, nor
    a code of another kind ("4410 is the error code")."""
    text = _without_mask_tags(text)
    for m in _VALUE_FIRST.finditer(text):
        value = m.group("v")
        if not any(c.isdigit() for c in value) and _a_word(value):
            continue  # a word in capitals
        if value.isdigit() and _A_YEAR.fullmatch(value):
            continue
        if _FOLLOWED_BY_UNIT.match(text, m.end("v")):
            continue
        conn = _FIRST_CONNECTOR.match(text, m.end("v"))
        if conn is None:
            continue
        # the nearest label a short gap away
        for stop in range(conn.end(), min(len(text), conn.end() + _FIRST_GAP_REACH)):
            label = _FIRST_LABEL.match(text, stop)
            if label is not None and label.end() > stop:
                break
        else:
            continue
        end = label.end()
        while (more := _FIRST_LABEL.match(text, end + 1)) and text[end] == " ":
            end = more.end()  # "the login code": a label of two
        if not _first_gap_ok(text[conn.end() : stop]) or not _label_ends_it(text, end):
            continue
        between = text[m.end("v") : end]
        if _NOT_CODE.search(between) or _PUBLIC_WORD.search(between):
            continue
        yield SecretFinding("password", m.start("v"), m.end("v"))


# --- a symmetric key in hex -------------------------------------------------------------

#: 128, 192 or 256 bits in hex, letters and digits mixed: a digest's shape too, so read
#: only in the clause of a cipher's name
_HEX_KEY = re.compile(
    r"(?<![\w\-])(?:0x)?(?P<v>[0-9a-fA-F]{32}|[0-9a-fA-F]{48}|[0-9a-fA-F]{64})(?![\w\-])"
)
_CIPHER_WORD = re.compile(
    r"(?i)(?<![^\W_])(?:aes(?:[\-_]?(?:128|192|256))?(?:[\-_](?:gcm|cbc|ctr|xts))?|chacha20\w*"
    r"|encryption|encrypt\w*|decrypt\w*|cipher|hmac|symmetric|data[ \t]+key|wrapping[ \t]+key"
    r"|verschlüsselung\w*|chiffrement|cifrado|crittografia|criptografia|encryptie|kryptering"
    r"|salaus\w*|szyfrowani\w*|шифрован\w*|加密|暗号化|암호화)(?![^\W_])"
)
#: what else such hex is: a digest, a commit, an identifier, or a cipher's public input
_HEX_NOT_KEY = re.compile(
    r"(?i)(?<![^\W_])(?:sha\w*|md5|hash\w*|digest|checksum|fingerprint|commit|blake\w*"
    r"|iv|nonce|salt|tag|id|uuid|request|trace|etag)(?![^\W_])[\W_]{0,3}$"
)


def _hex_keys_of_a_cipher(text: str) -> Iterator[SecretFinding]:
    """A key of 128 to 256 bits in hex in the clause of a cipher's name ("the AES-256 key
    for the archive: 9f3c...", "ENCRYPTION_KEY=..."), unless a word just before it says it
    is a digest, an IV or an id, or the clause speaks of a digest or says "public"."""
    plain = _MASK_TAG.sub(lambda m: " " * len(m.group(0)), text)
    for m in _HEX_KEY.finditer(plain):
        value = m.group("v")
        if value.isdigit() or value.isalpha():
            continue
        left, right = _clause(plain, m.start(), m.end())
        clause = plain[left:right]
        if not _CIPHER_WORD.search(clause) or _PUBLIC_WORD.search(clause):
            continue
        if _HEX_NOT_KEY.search(plain, max(left, m.start() - 24), m.start("v")):
            continue
        if re.search(r"(?i)sha[\-_]?\d|md5|digest|checksum|hash", clause):
            continue
        yield SecretFinding("generic_api_key", m.start("v"), m.end("v"))


# an Ethereum private key: 64 hex digits after "0x", the shape of a transaction's hash too
_WALLET_KEY = re.compile(r"(?<![\w/])0x[0-9a-fA-F]{64}(?![\w/])")
#: a wallet, or its key moved between wallets, in the key's sentence (a word's start)
_WALLET_WORD = re.compile("(?i)" + _phrases("wallet_keys", boundary=False, skip=("chain",)))
#: a transaction, a block or a contract (or an explorer's link): the hex is a hash there
_CHAIN_WORD = re.compile("(?i)" + _bounded(_WORDS["wallet_keys"]["chain"]) + "|/tx/")


def _wallet_keys_said(text: str) -> Iterator[SecretFinding]:
    """An Ethereum private key (64 hex digits after "0x") in a sentence about a wallet or
    moving a key between wallets ("metamask exported this for my old account: 0x..."),
    never one about a transaction, a block or a contract (a hash)."""
    for m in _WALLET_KEY.finditer(text):
        sentence = _sentence_around(text, m.start(), m.end())
        if _WALLET_WORD.search(sentence) and not _CHAIN_WORD.search(sentence):
            yield SecretFinding("crypto_private_key", m.start(), m.end())


# --- a strong password's shape, with no label ------------------------------------------

#: the symbols a password rule asks for (not "/", "+", "=": paths, base64, sums)
_RULE_SYMBOLS = frozenset("!#$%&*?@^~")
#: documentation's example passwords, and a password spelt from the word itself
_EXAMPLE_PASSWORDS = frozenset(p.lower() for p in _WORDS["public_values"]["passwords"])
_LEET = str.maketrans("@4013$57!", "aaoiessti")
_SPELT_PASSWORD = re.compile(r"pass?wo?rd|qwerty|letmein|admin|welcome")


_A_DATE_IN = re.compile(r"\d{4}-\d\d-\d\d|\d\d\.\d\d\.\d{4}")


def _strong_shape(value: str) -> bool:
    """Whether `value` has the shape password rules ask for and nothing else has: 10 to 40
    characters, a capital, a small letter, a digit and a symbol of `_RULE_SYMBOLS` before
    its last character (two of them, or letters in no word's case), no "/", "+", "=", ":",
    made up (`made_up`); not a tag, a handle,
    an address, a time stamp, documentation's example or a password spelt from
    "password"."""
    if not 10 <= len(value) <= 40 or not value.isascii() or value[0] in "#@$":
        return False
    if any(c in "/+=:" for c in value) or "@" in value and "." in value.split("@")[-1]:
        return False  # a path, base64, a time or a setting, an e-mail address
    if _A_DATE_IN.search(value):
        return False  # "remember@2026-12-05T04:27:17Z": a stamp
    kinds = (str.isupper, str.islower, str.isdigit)
    if not all(any(k(c) for c in value) for k in kinds):
        return False
    if not any(c in _RULE_SYMBOLS for c in value[:-1]) or not made_up(value):
        return False
    # a name or a title: words in their case with one symbol ("Wumpus#0001", a gamer's
    # tag; "Love!Me2Times"); a password's shape has two symbols ("Lima!Delta#48") or
    # letters in no word's case ("Vk4!rT9#wQz2")
    symbols = sum(c in _RULE_SYMBOLS for c in value)
    if symbols < 2 and odd_case_letters(value) < 3:
        return False
    low = value.lower()
    return low not in _EXAMPLE_PASSWORDS and not _SPELT_PASSWORD.search(low.translate(_LEET))


def _strong_passwords(text: str) -> Iterator[SecretFinding]:
    """A value of a strong password's shape (`_strong_shape`) anywhere, with no label:
    "remember this for me: Gx7#mQ2v!pLz", "text from my sister: 'Lima!Delta#48'". No
    ordinary word, name, number or identifier has all four kinds of character."""
    plain = _MASK_TAG.sub(lambda m: " " * len(m.group(0)), text)
    for run in _RUN.finditer(plain):
        start, end = run.start(), run.end()
        while end > start and plain[end - 1] in ".,:;?!)":
            end -= 1
        if _strong_shape(plain[start:end]) and not _PUBLIC_WORD.search(
            plain, max(0, start - 40), start
        ):
            yield SecretFinding("password", start, end)


DETECTORS = (
    _random_in_label_clause,
    _made_up_codes,
    _values_said_first,
    _hex_keys_of_a_cipher,
    _wallet_keys_said,
    _strong_passwords,
)
