"""The patterns of secret detection (`credo.secrets` is the way in): credentials and
identity numbers must never be stored as facts.

`DETECTORS` find the spans of secret *values* in a text (an API key, the password in "my
password is hunter2" or "Mein Passwort ist Geheim2024", the password inside a connection
URL, a cloud account key, a private key block, a card number, an IBAN, a social security or
passport number). Labels and surrounding words are left out of the span so that
`credo.secrets.mask_secrets` keeps the fact readable: "the prod DB is
postgres://app:[secret:connection_string]@db:5432/app".

Detection is a fixed set of regular expressions plus validators: Luhn for cards, the ISO
13616 mod-97 checksum and the national length for IBANs, the SSA's excluded ranges for US
social security numbers, an entropy and character-class test for labelled tokens, and
stop-word lists for stated passwords. Stated passwords are read in English, German, French,
Spanish, Italian, Portuguese, Dutch, Swedish, Finnish, Danish/Norwegian, Polish, Czech,
Russian, Ukrainian, Turkish and Hindi in Latin script.
Beyond a label and its value, a secret is read in the other shapes people say it in: a
setting whose name holds a secret word (`PGPASSWORD=`, `webhookSecret:`), a password
changed to a value, a code said first, keyed in, or said with nothing it opens, a token a
few words after its label, a value in groups, a made-up word in a sentence about logging
in, a card said with its expiry, a code opened "with" digits, a value used as a password,
a network's key after its name (docs/security.md lists them with the corpus figures).
`credo.secret_shapes` adds detectors read after `DETECTORS` (session cookies, setters in
code, unlock patterns, identity numbers by their check digits).
The trade-off is deliberate: a missed secret ends up in long-term memory, a false alarm
costs one rejected or masked fact, so ambiguous provider-shaped tokens are flagged, while
plain prose that merely mentions passwords, keys or passports is not.
"""

from __future__ import annotations

import bisect
import math
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

# `re`, with the compiled programs of the patterns below kept between processes when the
# command line enables credo.cache (compiling them is half a second of every cold start)
from . import cached_re as re
from .id_checksums import nordic_id_ok

__all__ = ["DETECTORS", "SecretFinding", "iban_checksum_ok", "public_blocks"]


@dataclass(frozen=True)
class SecretFinding:
    """A secret value at `text[start:end]`; `kind` names what it looks like.

    Kinds: openai_api_key, anthropic_api_key, aws_access_key, aws_secret_key, github_token,
    gitlab_token, slack_token, slack_webhook, stripe_key, google_api_key, google_oauth,
    huggingface_token, npm_token, pypi_token, sendgrid_key, telegram_bot_token,
    shopify_token, digitalocean_token, docker_token, twilio_key, mailgun_key,
    atlassian_token, groq_api_key, xai_api_key, azure_key (AccountKey / SharedAccessKey),
    azure_sas (the signature of a shared access signature), gcp_private_key_id, jwt,
    bearer_token, basic_auth, private_key, connection_string (the password inside a URL),
    payment_card, iban, us_ssn, passport_number, password (stated passwords, passcodes and
    PINs, in any of the languages above), generic_api_key (a random-looking value labelled
    as a key, token or secret).
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
# The same, for labels in any script ("WLAN-Passwort", "DB_PASSWORD", not "Routerkey").
# Japanese and Chinese put no blank between words, and Korean glues its particles to them:
# a kana, a CJK ideograph or a Hangul syllable next to a Latin label ("Wi-FiのPW：",
# "PINは1234", "PIN은 1234") is no part of it.
_CJK_RANGES = "\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef\uac00-\ud7af"
_NOT_AFTER_LETTER = rf"(?<![^\W_{_CJK_RANGES}])"
_NOT_BEFORE_LETTER = rf"(?![^\W{_CJK_RANGES}])"

# "password: x", "password=x", '"password": "x"', "password => x".
_SYMBOLIC = r"[\"'”]?[ \t]*(?::=|=>|->|[:=→⇒])[ \t]*"
# English: "password is x", "password is now x", "password is: x", "password was changed
# to x", "password's x".
_EN_CONNECTOR = (
    r"(?:"
    + _SYMBOLIC
    + r"|[ \t]+(?i:is|was|=)(?:[ \t]+(?i:now|still|currently|actually|just|simply|literally"
    r"|basically|again|always|probably))?"
    r"(?:[ \t]+(?i:set|changed|updated|reset)[ \t]+(?i:to))?[ \t]*:?[ \t]+"
    r"|[ \t]+(?i:set|changed|updated|reset)[ \t]+(?i:to)[ \t]+"
    r"|'s[ \t]+"
    # "my laptop password, it's X", "my netflix password? its X"
    r"|[ \t]*[?,;.:\-–—]*[ \t]+(?i:it['’]?s|it[ \t]+is|that['’]?s|which[ \t]+is)[ \t]+"
    r")"
)
# A quoted value may hold spaces; a bare one ends at whitespace, a quote or ';' (the
# separator of "Server=x;Password=y;Database=z" strings). "<your password>" is a template.
_VALUE = (
    r"(?:(?P<template><[^<>\n]{1,64}>)"
    r"|\"(?P<dq>[^\"\n]{1,256})\"|'(?P<sq>[^'\n]{1,256})'|`(?P<bq>[^`\n]{1,256})`"
    r"|“(?P<cq>[^”\n]{1,256})”|„(?P<lq>[^“”\n]{1,256})[“”]|«[ \t\u00a0]?(?P<gq>[^»\n]{1,256}?)"
    r"[ \t\u00a0]?»"
    r"|(?P<bare>[^\s\"'`;“”„«»]{1,256}))"
)
_QUOTED_GROUPS = ("dq", "sq", "bq", "cq", "lq", "gq")
# Sentence punctuation that follows a bare value rather than belonging to it.
_TRAILING_PUNCT = ".,:)]}>?"
# "password=s3cret&sslmode=require": a query string's next parameter ends the value.
_NEXT_PARAMETER = re.compile(r"&[A-Za-z_]\w*=")

_PLACEHOLDER = re.compile(
    r"""
    \[secret:[a-z_0-9]+\]   # already masked by mask_secrets
    | \[secret-\d+:[a-z_0-9]+\]  # masked by the LLM extractor
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
# "the password is in 1Password", "password: required", "the key is stored in Vault",
# "das Passwort ist zu kurz", "le mot de passe est dans Bitwarden", "salasana on liian
# lyhyt". One list for all languages: a value is never checked against its label's.
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
    changed reset rotated updated generated protected used reused listed located expired
    der die das den dem des ein eine einen einem einer im in am an auf aus bei mit ohne für
    fur zu zum zur nicht kein keine keinen sicher unsicher falsch richtig geheim lang kurz
    stark schwach neu alt gleich leer abgelaufen gespeichert geändert geaendert vergessen
    gesperrt hier dort unten oben noch schon bekannt unbekannt ungültig gültig korrekt
    inkorrekt irgendwo identisch erforderlich nötig notwendig mein meine dein deine sein
    le la les l un une des du de dans sur sous pas trop très tres sécurisé securise fort
    faible faux fausse incorrect correct oublié oublie changé expiré enregistré enregistre
    ici même meme nouveau nouvelle ancien ancienne vide inconnu connu requis obligatoire
    mon ma mes ton ta son sa
    el los las lo unos unas del en con sin muy demasiado segura seguro débil debil fuerte
    incorrecta incorrecto correcta correcto nueva nuevo vieja viejo igual vacía vacia
    caducada olvidada guardada cambiada aquí aqui allí alli obligatoria requerida secreta
    mi tu su
    liian tosi hyvin vahva heikko väärä vaara oikea turvallinen sama uusi vanha tyhjä tyhja
    tallessa tallennettu vaihdettu unohtunut vanhentunut salainen pitkä pitka lyhyt mikä
    mika mitä mita tässä tassa siellä siella täällä taalla jossain sovelluksessa
    för fel rätt ratt svag säker saker samma nytt ny gammalt tomt sparat ändrat andrat
    glömt hemligt långt kort här där på ett det mitt min
    il gli le uno di della nel nella su troppo molto debole sbagliata sbagliato corretta
    corretto nuova vecchia vecchio uguale vuota scaduta dimenticata salvata cambiata segreta
    qui lì li obbligatoria mia mio
    o os as um uma do da dos das no na em com sem muito fraca errada errado correta nova novo
    velha vazia expirada esquecida salva alterada aqui ali obrigatória obrigatoria minha meu
    het een te niet geen sterk zwak fout juist goed nieuw oud hetzelfde leeg verlopen
    vergeten opgeslagen gewijzigd veranderd aangepast ergens daar mijn
    et ikke ingen sterkt svakt feil rigtig riktig gammelt
    w nie za bardzo silne słabe slabe złe zle dobre nowe stare moje
    v ne příliš prilis silné slabé špatné dobré nové staré moje
    wie so anders comme pareil différent different como distinto diferente misma mismo
    come stessa stesso diversa diverso mesma mesmo als zelfde som annat kuin eri samme
    takie taki taka samo sama same jak inne stejné stejne stejný stejny jako jiné jine
    sul sulla sullo sui nei negli sotto dietro dentro accanto vicino presso dal dalla
    derrière derriere dessous dessus près pres chez sobre debajo detrás detras junto
    atrás atras embaixo perto nos nas ao op onder achter naast bij unter hinter neben
    vor über ueber bakom bredvid inuti alla takana vieressä vieressa pod obok przy
"""
_NOT_A_VALUE = frozenset(_NOT_A_VALUE_WORDS.split())
_PARTICIPLE = re.compile(r"[a-z]{3,}(?:ed|ing|ly)")
# "the password is 12 characters long", "the password is 90 days old", "das Passwort ist
# 12 Zeichen lang".
_FOLLOWED_BY_UNIT = re.compile(
    r"[ \t]+(?i:chars?|characters|digits?|letters?|symbols?|long|or[ \t]+more|min(?:imum)?"
    r"|max(?:imum)?|days?|weeks?|months?|years?|zeichen|stellen|tage|caractères|caracteres"
    r"|chiffres|dígitos|digitos|caratteri|cifre|tekens|merkkiä|merkkia|tecken|znaków|znakow"
    r"|znaků|znaku)\b"
)


# Full-width Latin letters, digits and signs ("ＰＩＮは１２３４", an ideographic blank), read as
# their ASCII forms
_FULLWIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


# --- validators ----------------------------------------------------------------------


_MASK_TAG = re.compile(r"\[secret(?:-\d+)?:[a-z_0-9]+\]")
# a placeholder as an extractor may leave it, brackets dropped or not
_MASK_TAG_KIND = re.compile(r"\[?secret(?:-\d+)?:([a-z_0-9]+)\b")
# the same, when sentence punctuation stripping took its "]" ("is [secret:password].")
_MASK_TAG_START = re.compile(r"\[secret(?:-\d+)?:")


def _without_mask_tags(text: str) -> str:
    """`text` with masking placeholders blanked (same length), so that "[secret:us_ssn]"
    is not read as the word SSN labelling the next number."""
    return _MASK_TAG.sub(lambda m: " " * len(m.group(0)), text)


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


def _looks_like_bearer(value: str) -> bool:
    """A bearer credential: as `_looks_like_token`, but a dot may sit anywhere (after
    "Bearer" a dotted value is an opaque token, not a host name) and it may be long."""
    if _looks_like_token(value):
        return True
    if not 16 <= len(value) <= 4096 or _is_placeholder(value):
        return False
    return _has_letter_and_digit(value) and _shannon_entropy(value) >= 3.5


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
        or 2200 <= four <= 2204  # Mir
        or two in (34, 37, 30, 36, 38, 39, 35, 50)
        or 56 <= two <= 69
    )


def _is_card_number(raw: str) -> bool:
    digits = re.sub(r"[ \-]", "", raw)
    return 13 <= len(digits) <= 19 and _card_prefix_ok(digits) and _luhn_ok(digits)


# IBAN length by country (the SWIFT IBAN registry); a code not listed is not an IBAN.
_IBAN_LENGTHS: dict[str, int] = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22,
    "BH": 22, "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24,
    "DE": 22, "DJ": 27, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18,
    "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27,
    "GT": 28, "HN": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
    "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20,
    "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20,
    "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24,
    "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24,
    "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25,
    "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
    "YE": 30,
}  # fmt: skip


def iban_checksum_ok(iban: str) -> bool:
    """ISO 13616 / ISO 7064 mod 97-10: the code moved to the end, letters as 10..35, the
    number is 1 modulo 97. `iban` is compact (no spaces); case does not matter."""
    iban = iban.upper()
    if len(iban) < 5 or not iban.isascii() or not iban.isalnum():
        return False
    rearranged = iban[4:] + iban[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


def _ssn_ok(area: str, group: str, serial: str) -> bool:
    """Not a number the SSA never issues: area 000, 666 or 900-999, group 00, serial 0000."""
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def _is_yyyymmdd(digits: str) -> bool:
    if len(digits) != 8:
        return False
    year, month, day = int(digits[:4]), int(digits[4:6]), int(digits[6:])
    return 1900 <= year <= 2099 and 1 <= month <= 12 and 1 <= day <= 31


def _passport_like(value: str) -> bool:
    """A passport number's shape: 8-10 digits (not a date), or 7-10 capitals and digits
    with enough digits that a flight number or a product code does not pass."""
    digits = sum(c.isdigit() for c in value)
    if value.isdigit():
        return 8 <= len(value) <= 10 and not _is_yyyymmdd(value)
    if not 7 <= len(value) <= 10 or not any(c.isalpha() for c in value):
        return False
    return digits >= 5 or (digits >= 4 and len(value) >= 8)


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
    for name in _QUOTED_GROUPS:
        if m.group(name) is not None:
            return m.group(name), m.start(name), m.end(name), True
    if m.group("bare") is None:
        return None
    value, start = m.group("bare"), m.start("bare")
    cut = _NEXT_PARAMETER.search(value)
    if cut is not None:
        value = value[: cut.start()]
    stripped = value.rstrip(_TRAILING_PUNCT)
    if not stripped or _is_placeholder(value):
        return None
    return stripped, start, start + len(stripped), False


@dataclass(frozen=True)
class _Language:
    """How one language states a password: its words for it, its "is", the adverbs that
    may follow ("is now"), and the prepositions that say what the password is for."""

    labels: str
    verbs: str
    adverbs: str = ""
    preps: str = ""
    # prepositions glued to their word: "mot de passe d'accès", "password dell'account"
    glued: str = ""
    # a qualifier without a preposition (Finnish cases: "salasana palvelimelle on x")
    qualifier: str = ""
    # labels that also mean something else: a bare value needs a digit or a symbol
    ambiguous: frozenset[str] = frozenset()
    # the value may follow the label with no verb ("пароль от почты Zx9kLm2")
    bare: bool = False


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


def _load_words() -> dict[str, Any]:
    """The per-language words of `credo/data/secret_words.toml`."""
    text = resources.files("credo").joinpath("data/secret_words.toml").read_text("utf-8")
    return tomllib.loads(text)


_WORDS = _load_words()
_LANGUAGES: tuple[_Language, ...] = tuple(
    _Language(
        labels=entry["labels"],
        verbs=entry["verbs"],
        adverbs=entry.get("adverbs", ""),
        preps=entry.get("preps", ""),
        glued=entry.get("glued", ""),
        qualifier=entry.get("qualifier", ""),
        ambiguous=frozenset(entry.get("ambiguous", ())),
        bare=bool(entry.get("bare", False)),
    )
    for entry in _WORDS["password"].values()
)


def _phrases(table: str, *, boundary: bool = True, skip: tuple[str, ...] = ()) -> str:
    """A regular expression for every word or phrase of one `secret_words.toml` table, in
    all its languages: longest first, a space matching any run of blanks or a hyphen."""
    phrases = {p.lower() for key, words in _WORDS[table].items() if key not in skip for p in words}
    parts: list[str] = []
    cjk: list[str] = []
    # longest first; phrases of one length in alphabetical order, so that the pattern
    # is the same in every process (a set's order is not: its cached program is reused)
    for phrase in sorted(phrases, key=lambda p: (-len(p), p)):
        pieces = [re.escape(piece) for piece in re.split(r"[ \-]+", phrase)]
        body = r"[ \t\-]*".join(pieces).replace("'", "['’]")
        body = body.replace("/", r"[ \t]*/[ \t]*")
        # Chinese and Japanese put no blank between words: no word boundary there
        (cjk if _CJK.search(phrase) else parts).append(body)
    alternatives = "|".join(parts)
    if boundary:
        alternatives = rf"(?<![^\W_{_CJK_RANGES}])(?:{alternatives})(?![^\W_{_CJK_RANGES}])"
    return f"(?:{alternatives}|{'|'.join(cjk)})" if cjk else f"(?:{alternatives})"


# Every language's "is", for labels that take any of them (PINs, keys, tokens).
_ALL_VERBS = "|".join(lang.verbs for lang in _LANGUAGES)
_ANY_CONNECTOR = (
    r"(?:" + _EN_CONNECTOR + rf"|[ \t]+(?i:{_ALL_VERBS})[ \t]*:?[ \t]+" + r")"
)  # fmt: skip
# "the password for the staging router is x": up to three words name what it is for.
# "mot de passe wifi : x", "clé API d'OpenWeather: x", "password nas: x": one or two words
# of any kind between a label and a colon (checked by `_colon_words_ok`), compounds of
# Swedish, German or Finnish among them ("API-nyckel till Fortnox-integrationen: x")
_COLON_WORDS = r"(?P<words>(?:[ \t]+[^\W\d_][\w.'’\-]{0,31}){1,2}?)(?=[ \t]*[:=][ \t]*\S)"
# "my password Netflix is x", "mon mot de passe Orange c'est x": one or two words of any kind
# between a label and its verb (checked as `_COLON_WORDS` are, and the value must look made
# up)
_VERB_WORDS = r"(?P<vwords>(?:[ \t]+[^\W\d_][\w.'’\-]{{0,19}}){{1,2}}?)(?=[ \t]+(?i:{verbs})[ \t])"
_QUALIFIER = (
    r"(?:[ \t]+(?i:for|to|of|on|at|from)(?:[ \t]+[\w.@'’\-]+){1,4}?|"
    + _COLON_WORDS
    + "|"
    + _VERB_WORDS.format(verbs="is|was")
    + ")?"
    r"(?:[ \t]*\([^()\n]{1,40}\))?"  # a remark: "password (generated): x"
)
#: words that, between a label and a colon, say the value is about the secret: "password
#: manager: 1Password", "key ID: 3AA5C343", "password policy: 12chars"
_ABOUT_WORDS = frozenset(
    {"manager", "requirements", "requirement", "rules", "rule", "change", "strength", "hint",
     "recovery", "reminder", "protected", "protection", "generator", "vault", "app",
     "managers", "safe", "tip", "tips", "holder", "ring", "chain", "word", "words", "count",
     "status", "check", "field", "fields", "box", "database", "db", "list", "sheet",
     "spreadsheet", "document", "doc", "note", "notes", "history", "backup", "export", "dump",
     "complexity", "quality", "score", "entropy", "page", "form", "dialog", "link", "email",
     "mail", "screen", "storage", "that", "which", "here", "there", "too", "also"}
)  # fmt: skip


def _colon_words_ok(m: re.Match[str]) -> bool:
    """Whether the words a pattern read between a label and a colon (if any) leave the
    value the secret's, not something about it."""
    words = m.groupdict().get("words") or m.groupdict().get("vwords")
    if not words:
        return True
    if _PUBLIC_WORD.search(words):
        return False  # "clave pública ssh es ssh-rsa AAAA...": a public key
    parts = [w.strip(".'’-").lower() for w in words.split()]
    return not any(p in _NOT_SECRET_PARTS or p in _ABOUT_WORDS for p in parts)


def _language_qualifier(lang: _Language) -> str:
    alternatives = []
    if lang.preps:
        # "till nas:en": a word may carry a Swedish case ending after a colon
        alternatives.append(rf"[ \t]+(?i:{lang.preps})(?:[ \t]+[\w.@'’\-]+(?::\w+)?){{1,3}}?")
    if lang.glued:
        alternatives.append(rf"[ \t]+(?i:{lang.glued})[\w.@\-]+(?:[ \t]+[\w.@'’\-]+){{0,2}}?")
    if lang.qualifier:
        alternatives.append(lang.qualifier)
    alternatives.append(_COLON_WORDS)
    alternatives.append(_VERB_WORDS.format(verbs=lang.verbs))
    return "(?:" + "|".join(alternatives) + ")?"


# A value given with no verb must hold a digit or a symbol ("Fiets88", "Blue-Fox-77"): the
# words of a longer qualifier ("het wachtwoord van de laptop Fiets88") are not taken
# for it
_MADE_UP_AHEAD = r"(?=[^\s\"'`]*(?:\d|[!@#$%^&*+=~_\-/\\]))"


def _language_pattern(lang: _Language, *, bare: bool = False) -> re.Pattern[str]:
    adverbs = rf"(?:[ \t]+(?i:{lang.adverbs}))?" if lang.adverbs else ""
    connector = rf"(?:{_SYMBOLIC}|[ \t]+(?i:{lang.verbs}){adverbs}[ \t]*:?[ \t]+)"
    if bare:  # the value straight after the label: "пароль от почты Zx9kLm2"
        connector = r"[ \t]+" + _MADE_UP_AHEAD
    return re.compile(
        _NOT_AFTER_LETTER
        + rf"(?P<label>(?i:{lang.labels}))"
        + _NOT_BEFORE_LETTER
        + _language_qualifier(lang)
        + rf"(?P<conn>{connector})"
        + _VALUE
    )


# the key of a wireless network is its password; a code word or a secret word is one too
_WIFI_KEY = (
    r"(?:wi-?fi|wlan|wpa[23]?|wpa2-psk|network|wireless|router)[ \t\-]?(?:key|passkey|pass)"
    r"|code[ \t\-]?word|secret[ \t]+word"
)
_ENGLISH_PASSWORD = re.compile(
    _NOT_AFTER_LETTER
    + r"(?P<label>(?i:password|passwd|passphrase|pass[ \-]phrase|passcode|pwd|pw|pass"
    r"|pasword|passwrd|passowrd|paswd|pword|"
    + _WIFI_KEY
    + r"))"
    + _NOT_BEFORE_WORD
    + _QUALIFIER
    + r"(?P<conn>"
    + _EN_CONNECTOR
    + r")"
    + _VALUE
)
# "wifi password Blue-Fox-77": the value with no verb, checked harder
_ENGLISH_BARE_PASSWORD = re.compile(
    _NOT_AFTER_LETTER
    + r"(?P<label>(?i:password|passwd|passphrase|pass[ \-]phrase|passcode|pasword|passwrd|"
    + _WIFI_KEY
    + r"))"
    + _NOT_BEFORE_WORD
    + _QUALIFIER
    + r"(?P<conn>[ \t]+)"
    + _MADE_UP_AHEAD
    + _VALUE
)
_ENGLISH_PATTERNS = (_ENGLISH_PASSWORD, _ENGLISH_BARE_PASSWORD)
#: (pattern, ambiguous labels, strict): a strict pattern gives a value with no verb in a
#: language whose table does not say `bare`; that value needs a letter and a digit ("le
#: mot de passe de session Paris303", "la contraseña del wifi Luna2024"), so that "mot de
#: passe de l'e-mail" or "contraseña de Wi-Fi" are not read as one
_PASSWORD_PATTERNS: tuple[tuple[re.Pattern[str], frozenset[str], bool], ...] = (
    (_ENGLISH_PASSWORD, frozenset(), False),
    *((_language_pattern(lang), lang.ambiguous, False) for lang in _LANGUAGES),
    (_ENGLISH_BARE_PASSWORD, frozenset(), False),
    *((_language_pattern(lang, bare=True), lang.ambiguous, not lang.bare) for lang in _LANGUAGES),
)


# Japanese and Chinese put no blank around a value: "パスワードはabc123です", "密码是abc123";
# Korean glues a particle to the label: "비밀번호는 abc123 이야", "현관 비밀번호 3719*"
_CJK_PASSWORD = re.compile(
    r"(?:パスワード|パスコード|暗証番号|ログインパスワード|合言葉|ネットワークキー|暗号化キー"
    r"|セキュリティキー|(?i:pin)(?:コード|番号)|密码|密碼|口令|登录密码"
    r"|비밀번호|비번|패스워드|암호|(?i:pin)[ \t]?번호|핀[ \t]?번호)"
    r"(?P<p>[ \t]*(?:は|が|を|：|:|=|是|为|為|는|은|이|가|를|을)[ \t]*|[ \t]+)[「『\"“]?"
    r"(?P<v>[!-~]{3,64}?)"
    r"(?=[」』\"”]|です|でした|だよ|だ|。|、|,|，|\s|$|を|に|で|と|）|\)|，)"
)


def _cjk_passwords(text: str) -> Iterator[SecretFinding]:
    for m in _CJK_PASSWORD.finditer(text):
        value = m.group("v")
        made_up = any(c.isdigit() or not c.isalnum() for c in value) or len(value) >= 6
        if not m.group("p").strip():  # no particle: "Wi-Fiのパスワード abc12345"
            made_up = _has_letter_and_digit(value) or bool(re.search(r"^[*#]?\d+[*#]?$", value))
        if made_up and not _is_placeholder(value):
            yield SecretFinding("password", m.start("v"), m.end("v"))


def _stated_passwords(text: str) -> Iterator[SecretFinding]:
    for pattern, ambiguous, strict in _PASSWORD_PATTERNS:
        for m in pattern.finditer(text):
            span = _value_span(m)
            if span is None:
                continue
            value, start, end, quoted = span
            label = m.group("label").lower()
            is_key_value = any(c in m.group("conn") for c in ":=>")
            if not m.group("conn").strip() and not (
                not quoted
                and label not in _WEAK_LABELS
                and (
                    (_bare_value_ok(value) and (not strict or _has_letter_and_digit(value)))
                    or _long_number(value)
                )
            ):
                continue  # "password manager", "Passwort vergessen": no value given
            # "boarding pass is ready": bare "pass" names a password only as a key
            # ("DB_PASS="); "la clave es la paciencia": "clave" is also "key" in Spanish.
            if label == "pass" and not is_key_value and pattern in _ENGLISH_PATTERNS:
                continue
            if _is_placeholder(value) or _MASK_TAG_START.search(value):
                continue  # a template, or a value whose secret part is already masked
            if (m.groupdict().get("words") or m.groupdict().get("vwords")) and not (
                _colon_words_ok(m) and (quoted or _bare_value_ok(value))
            ):
                continue  # "password manager: Bitwarden"
            if m.groupdict().get("vwords") and not re.search(r"[\d!@#$%^&*?+=~_]", value):
                continue  # "la contraseña nueva es más-segura": words, not a value
            if not quoted:
                if not _plausible_bare_password(value, text, end):
                    continue
                if label in ambiguous and value.isalpha():
                    continue
            yield SecretFinding("password", start, end)


#: labels too short or too common to take a value with no verb or colon after them
_WEAK_LABELS = frozenset({"pass", "pw", "pwd", "mdp", "clave", "пасс", "ww"})


def _bare_value_ok(value: str) -> bool:
    """A value said straight after its label ("wifi password Blue-Fox-77"): it must look
    made up: six characters or more, a letter, and a digit or a symbol."""
    return (
        len(value) >= 6
        and value[0] not in "([{<"  # "password (generated): x": a remark, not the value
        and any(c.isalpha() for c in value)
        and any(c.isdigit() or not c.isalnum() for c in value)
        and not _VERSION_OR_DATE.fullmatch(value)
    )


def _long_number(value: str) -> bool:
    """Eight digits or more, not a date: a numeric password given with no verb ("WLAN-
    Passwort 48291736455012", the number printed on a router)."""
    return value.isdigit() and len(value) >= 8 and not _is_yyyymmdd(value)


_VERSION_OR_DATE = re.compile(r"v?\d+(?:[.\-/]\d+)+[a-z]*|\d+(?:st|nd|rd|th|x|s|h|m|am|pm)", re.I)


def _plausible_bare_password(value: str, text: str, end: int) -> bool:
    lowered = value.lower()
    if len(value) < 3 or lowered in _NOT_A_VALUE or _PARTICIPLE.fullmatch(lowered):
        return False
    return _FOLLOWED_BY_UNIT.match(text, end) is None


# A PIN or a code that opens something, in any language of `secret_words.toml`: a label
# of its own ("PIN", "Türcode", "portkoden", "digicode"), or a word for "code" next to the
# thing it opens ("the code for the gate", "le code de la porte", "код домофона").
_CODE_LABEL = _phrases("codes")
_CODE_WORD = _phrases("code_words")
_LOCKED = _phrases("locked_things")
_ARTICLES = r"the|el|la|le|il|lo|o|a|den|det|de|der|die|das"
_CODE_VERBS = rf"{_ALL_VERBS}|is|was|are|were|lautet|c['’]est|era|sind|será|sera"
# "the pin is now 2231", "der Code ist jetzt 4821"
_CODE_ADVERBS = (
    r"now|still|currently|also|always|just|simply|jetzt|nun|noch|immer|maintenant|toujours"
    r"|ahora|todavía|todavia|ancora|adesso|ora|agora|ainda|nu|nog|fortfarande|nyt|edelleen|yhä"
    r"|teraz|nadal|теперь|сейчас|всё|все"
)
_PIN = re.compile(
    rf"(?i:(?P<label>{_CODE_LABEL}"
    rf"|{_CODE_WORD}(?:[ \t]+[^\W\d_][\w'’\-]{{0,14}}){{0,3}}?[ \t]+{_LOCKED}"
    rf"|(?<![^\W_]){_LOCKED}(?:['’]s)?(?:[ \t\-]+[^\W\d_][\w'’]{{0,14}}){{0,2}}?[ \t\-]*"
    rf"{_CODE_WORD}))"
    # what it is for: "of my debit card", "de la tarjeta del banco", "till kortet" (no
    # digits)
    r"(?P<q>(?:[ \t]+(?i:[^\W\d_][\w.@'’\-]{0,19})){0,6}?)"
    rf"(?P<conn>[ \t]*(?::|=|-|–|—|：|は|が)[ \t]*|[ \t]+(?i:{_CODE_VERBS})"
    rf"(?:[ \t]+(?i:{_CODE_ADVERBS}))?"
    rf"(?:[ \t]+(?i:{_ARTICLES}))?[ \t]*:?[ \t]*|['’]s[ \t]+|[ \t]+)"
    # an intercom's code may hold the letter of its key button: "27К3810"
    r"[\"'“«]?(?P<v>\d{1,3}[^\W\d_]\d{2,7}(?![^\W_])"
    r"|[*#]?\d(?:[ \-*#]?\d){2,9}[#*]?"
    r"|(?=[A-Za-z]{0,3}\d)[A-Za-z0-9]{1,3}\d{2,7}[A-Za-z]?[#*]?)"
    r"(?![A-Za-z0-9_\-]|[.,:/]\d)"
)
_LOCKED_THING = re.compile(_LOCKED, re.IGNORECASE)
_LISTED_CODE = re.compile(_CODE_LABEL, re.IGNORECASE)
# where the thing a code opens is, or whose it is, said between its label and the code
# with no verb: "код от сейфа на даче 6-1-9-3", "PIN do karty w mBanku 8124", "the gate
# code at grandma's 4821"
_PLACE_WORDS = re.compile(
    r"(?i)[ \t]+(?:at|in|on|by|near|from|bei|im|am|an|auf|à|au|aux|chez|dans|en|nel|nella"
    r"|al|alla|em|no|na|bij|op|på|vid|hos|ved|w|we|u|у|на|в|во|при|возле)[ \t]"
)


def _names_its_place(label: str, q: str) -> bool:
    """Whether a code's label names what it opens (a listed label, or "code" first: not
    "building code") and the words after it say where that is or whose it is."""
    if not _LOCKED_THING.search(label) or not _PLACE_WORDS.match(q):
        return False
    return _LISTED_CODE.fullmatch(label) is not None or not _LOCKED_THING.match(label)


_SHORT_CODE_WORDS = frozenset(w.lower() for w in _WORDS["short_codes"]["all"])


def _bounded(words: Iterable[str], *, longest_first: bool = True) -> str:
    """A regular expression for any of `words` as a whole word (no letter, digit or
    underscore either side), longest first unless told."""
    listed = sorted(words, key=len, reverse=True) if longest_first else list(words)
    return r"(?<![^\W_])(?:" + "|".join(re.escape(w) for w in listed) + r")(?![^\W_])"


_POSTAL_WORDS = re.compile("(?i)" + _bounded(_WORDS["postal"]["all"]))
_MONEY_WORDS = re.compile("(?i)" + _bounded(_WORDS["postal"]["money"], longest_first=False))


def _stated_pins(text: str) -> Iterator[SecretFinding]:
    for m in _PIN.finditer(text):
        value, label = m.group("v"), m.group("label").lower()
        digits = sum(c.isdigit() for c in value)
        said = f"{label} {m.group('q')}".lower()
        short_ok = any(w in said for w in _SHORT_CODE_WORDS)
        if digits < (3 if short_ok or not value.isdigit() else 4):
            continue
        q = m.group("q")
        if not m.group("conn").strip() and (
            not value[:1].isdigit()
            or (q and not _LOCKED_THING.search(q) and not _names_its_place(label, q))
        ):
            # "building code section 1004": no verb, no colon, words between; but "пин-код
            # от карты 7615", "PIN zur Karte 4471": the words say what it opens, or where
            continue
        if _FOLLOWED_BY_UNIT.match(text, m.end("v")) is not None:
            continue
        before = text[max(0, m.start() - 24) : m.start()].split()
        # "the postal code of the building is 12345"; but "hotel room safe combo": a word
        # before a label that opens with the thing qualifies the thing, not the code
        qualified = before and not _LOCKED_THING.match(label)
        if (qualified and _NOT_CODE.fullmatch(before[-1].strip("\"'("))) or _NOT_CODE_NEXT.search(
            label
        ):
            continue
        if "pin" in label and digits == 6 and _postal_context(text, m.start(), m.end()):
            continue  # an Indian postal code: "the office PIN code is 560001"
        if (
            "pin" in label
            and digits == 6
            and _AN_ADDRESS_AFTER.match(text, m.end("v"))
            and not _MONEY_WORDS.search(_sentence_around(text, m.start(), m.end()))
        ):
            continue  # "mera pin code 110001 hai (Connaught Place, Delhi)": a place
        yield SecretFinding("password", m.start("v"), m.end("v"))


# a place named after a number, as an address gives it: "110001 (Connaught Place, Delhi)",
# "560038, Koramangala, Bengaluru"
_AN_ADDRESS_AFTER = re.compile(
    r"[ \t]*(?:(?i:hai|है|is)[ \t]*)?[(,][ \t]*[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)*[ \t]*(?:[,)]|$)"
)


def _sentence_around(text: str, start: int, end: int) -> str:
    left = max(text.rfind(c, 0, start) for c in ".!?\n")
    right = [i for i in (text.find(c, end) for c in "!?\n") if i >= 0]
    return text[left + 1 : min(right, default=len(text))]


def _postal_context(text: str, start: int, end: int) -> bool:
    sentence = _sentence_around(text, start, end)
    return bool(_POSTAL_WORDS.search(sentence)) and not _MONEY_WORDS.search(sentence)


# "hunter2 is my wifi password.", "Geheim2024 ist mein Passwort", "X on salasanani". The
# value must not be an ordinary word, so this form only counts when it holds a digit or a
# symbol.
_ANY_PASSWORD_WORD = (
    r"password|passcode|passphrase|pin|[^\W\d_]*passwort|[^\W\d_]*kennwort"
    r"|mot[ \t]+de[ \t]+passe|mdp|contraseña|contrasena|senha|[^\W\d_]*wachtwoord"
    r"|[^\W\d_]*(?:lösenord|losenord)(?:et)?|[^\W\d_]*salasana(?:ni|si|mme|nne|nsa)?"
    r"|[^\W\d_]*(?:passord|adgangskode|kodeord)(?:et|en|n)?|hasło|haslo|heslo"
)
_DETERMINERS = (
    r"my|the|our|his|her|their|its|[A-Za-z]+'s|mein|meine|dein|deine|das|unser|unsere|sein"
    r"|seine|ihr|ihre|mon|ma|le|la|notre|son|sa|mi|el|nuestra|nuestro|tu|su|il|mia|mio|a|o"
    r"|minha|meu|nossa|mijn|het|de|ons|onze|zijn|mitt|min|vårt|vart|det|den|mitt|mit|moje"
    r"|moja|moje"
)
# "is" in the languages above, less the words that are also English ("to", "e").
_FIRST_VERBS = r"is|was|ist|war|est|es|era|on|oli|är|var|è|é|er|jest|je"
_PASSWORD_FIRST = re.compile(
    r"(?<![^\s\"'(“«])(?P<v>[^\s\"'`“”«»]{4,64})[\"'”»]?[ \t]+(?i:"
    + _FIRST_VERBS
    + r")[ \t]+(?:(?i:"
    + _DETERMINERS
    + r")[ \t]+){0,2}(?:[\w\-]+[ \t]+)?(?i:"
    + _ANY_PASSWORD_WORD
    + r")(?=[ \t]*(?:[.,;!?)]|$))",
    re.MULTILINE,
)


# "use hunter2 as the password", "nimm Sommer24 als Passwort", "usa 4821 como pin"
_USE_AS = re.compile(
    rf"(?<![^\W_])(?i:{_bounded(_WORDS['use_as']['verbs'])})[ \t]+[\"'“«]?"
    r"(?P<v>[^\s\"'`“”«»]{3,64}?)[\"'”»]?[ \t]+"
    rf"(?i:{_bounded(_WORDS['use_as']['as'])})[ \t]+"
    rf"(?:(?i:{_DETERMINERS}|new|neues|nouveau)[ \t]+){{0,2}}"
    rf"(?:[\w\-]+[ \t]+)?(?i:{_ANY_PASSWORD_WORD}|pin|passcode|code|pin-code|pincode|пароль|пин)"
    r"(?![^\W_])"
)


def _passwords_used_as(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _USE_AS.finditer(text):
        value = m.group("v")
        if _is_placeholder(value) or value.lower() in _NOT_A_VALUE:
            continue
        if _bare_value_ok(value) or (value.isdigit() and 4 <= len(value) <= 12):
            yield SecretFinding("password", m.start("v"), m.end("v"))


def _passwords_stated_first(text: str) -> Iterator[SecretFinding]:
    for m in _PASSWORD_FIRST.finditer(text):
        value = m.group("v").rstrip(",;:")
        if not value or "password" in value.lower() or _is_placeholder(value):
            continue
        if _MASK_TAG_START.search(value):
            continue
        if any(c.isdigit() or not c.isalnum() for c in value):
            yield SecretFinding("password", m.start("v"), m.start("v") + len(value))


_GENERIC_LABEL = re.compile(
    _NOT_AFTER_ALNUM + r"(?i:(?:api|access|auth|secret|client|refresh|session)?(?:key|token|secret)"
    r"|api[ \-]?(?:schlüssel|schluessel)|schlüssel|schluessel|zugangstoken"
    r"|(?:clé|cle|clave|chave|chiave|sleutel|nyckel(?:n)?|nøgle(?:n)?|nøkkel(?:en)?)"
    r"(?:[ \t\-]+(?:de[ \t]+l['’]|d['’]|da[ \t]+|de[ \t]+|dell['’])?api)?"
    r"|api[ \-]?(?:avain|avaimeni|nyckel|sleutel))"
    + _NOT_BEFORE_LETTER
    + _QUALIFIER
    + _ANY_CONNECTOR
    + _VALUE
)


# "auth token d4a8da84...": the label straight before a value random enough to be one
_BARE_TOKEN = re.compile(
    _NOT_AFTER_ALNUM
    + r"(?i:(?:api|access|auth|secret|client|refresh|session|bot|bearer|webhook)[ _\-]?"
    r"(?:key|token|secret)|token|secret)"
    + _NOT_BEFORE_LETTER
    + r"[ \t]+(?P<v>[A-Za-z0-9_\-+/=.~]{20,512})(?![A-Za-z0-9_\-+/=~])"
)


def _labelled_tokens(text: str) -> Iterator[SecretFinding]:
    for m in _GENERIC_LABEL.finditer(text):
        span = _value_span(m)
        if span is None:
            continue
        value, start, end, _ = span
        if m.group("vwords") and _HEX_OR_UUID.fullmatch(value):
            continue  # "the api key fix is <commit>": words between, then a digest
        if _looks_like_token(value) and _colon_words_ok(m):
            yield SecretFinding("generic_api_key", start, end)
    for m in _BARE_TOKEN.finditer(text):
        value = m.group("v").rstrip(_TRAILING_PUNCT)
        if _looks_like_token(value) and _shannon_entropy(value) >= 3.5:
            yield SecretFinding("generic_api_key", m.start("v"), m.start("v") + len(value))


# A product's licence or activation key, in the clause of its label in any language
# ("licentiesleutel voor Affinity Photo: AFP2-8K2M-QX7R-4NTD-93WB", "Windows product key
# is ..."): groups of letters and digits joined by hyphens, three or more, or a value
# random enough to be a token
_LICENSE_LABEL = re.compile("(?i)" + _phrases("license_keys"))
_LICENSE_VALUE = re.compile(
    r"(?<![\w\-+/=.~])(?P<v>[A-Za-z0-9]{4,8}(?:-[A-Za-z0-9]{4,8}){2,7}"
    r"|[A-Za-z0-9_\-+/=.~]{16,512})(?![\w\-+/=~])"
)


def _license_keys(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _LICENSE_LABEL.finditer(text):
        window = text[m.end() : m.end() + 100]
        stop = re.search(r"[.!?](?:\s|$)|\n", window)
        window = window[: stop.start()] if stop else window
        for v in _LICENSE_VALUE.finditer(window):
            value = v.group("v").rstrip(_TRAILING_PUNCT)
            grouped = "-" in value and all(len(g) <= 8 for g in value.split("-"))
            if not _has_letter_and_digit(value) or _A_DATE.fullmatch(value):
                continue
            if grouped or (_looks_like_token(value) and _shannon_entropy(value) >= 3.5):
                start = m.end() + v.start("v")
                yield SecretFinding("license_key", start, start + len(value))
                break


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


# An IBAN starts with a listed country code and two check digits; its characters may be
# grouped by single spaces ("DE89 3704 0044 0532 0130 00"). The length is the country's.
_IBAN_START = re.compile(r"(?<![A-Za-z0-9])(?P<cc>[A-Z]{2}|[a-z]{2})\d{2}")
_IBAN_SPACES = " \u00a0"


_COMPANY = re.compile("(?i)" + _phrases("companies", skip=("tax_labels", "mine")))
_TAX_LABEL = re.compile("(?i)" + _phrases("companies", skip=("owners", "mine")))
_MINE = re.compile("(?i)" + _phrases("companies", skip=("owners", "tax_labels")))


def _a_companys(text: str, start: int, between: str = "") -> bool:
    """Whether a business owns the number at `start` (or whose label is there): one of
    `[companies]`'s words among the three words before it, or in `between` (the words
    between a label and its number), and no word of the speaker's ("my") before it in its
    sentence. A business's tax number or IBAN is printed on its invoices; a person's is a
    secret ("şirketin vergi numarası ...", "the supplier's IBAN ...", but "my IBAN for the
    company refund ...")."""
    sentence = re.split(r"[.!?;\n]", text[max(0, start - 120) : start])[-1]
    near = " ".join(sentence.split()[-3:]) + " " + between
    return bool(_COMPANY.search(near)) and not _MINE.search(sentence + " " + between)


def _ibans(text: str) -> Iterator[SecretFinding]:
    for m in _IBAN_START.finditer(text):
        length = _IBAN_LENGTHS.get(m.group("cc").upper())
        if length is None:
            continue
        compact = [m.group(0)]
        count, i = 4, m.end()
        while count < length and i < len(text):
            ch = text[i]
            if ch.isascii() and ch.isalnum():
                compact.append(ch)
                count += 1
                i += 1
            elif ch in _IBAN_SPACES and i + 1 < len(text) and text[i + 1].isascii() \
                    and text[i + 1].isalnum():  # fmt: skip
                i += 1
            else:
                break
        if count != length or (i < len(text) and text[i].isascii() and text[i].isalnum()):
            continue
        if iban_checksum_ok("".join(compact)) and not _a_companys(text, m.start()):
            yield SecretFinding("iban", m.start(), i)


# A US social security number: AAA-GG-SSSS anywhere, AAA GG SSSS or AAAGGSSSS only when
# the text says it is one.
_SSN = re.compile(
    r"(?<![\w\-./])(?P<a>\d{3})(?P<s>[- ]?)(?P<g>\d{2})(?P=s)(?P<n>\d{4})(?![\w\-/]|[.,]\d)"
)
_SSN_LABEL = re.compile(
    r"(?i)(?<![^\W_])(?:ssn|ss\#|soc(?:ial)?\.?[ \t\-]+sec(?:urity)?\.?"
    r"(?:[ \t]+(?:number|no\.?|nr\.?|\#|card))?)(?!\w)"
)


def _ssns(text: str) -> Iterator[SecretFinding]:
    plain = _without_mask_tags(text)
    for m in _SSN.finditer(text):
        if not _ssn_ok(m.group("a"), m.group("g"), m.group("n")):
            continue
        if m.group("s") != "-":
            before = plain[max(0, m.start() - 48) : m.start()]
            after = plain[m.end() : m.end() + 32]
            if not (_SSN_LABEL.search(before) or _SSN_LABEL.search(after)):
                continue
        yield SecretFinding("us_ssn", m.start(), m.end())


# A passport number: a number-shaped token near the word for passport, in the same line.
_PASSPORT_WORD = re.compile(
    r"(?i)(?<![^\W_])(?:passports?|passport[\-#]?(?:no|nr|num)?|reisepass\w*|passnummer\w*"
    r"|pass-?nr|passeports?|passaportes?|passaport[oi]|pasaportes?|passi|passin|passini"
    r"|passinumero\w*|paspoort\w*|paszport\w*|passet|passets)(?!\w)"
    r"(?:[ \t\-]*(?i:no\.|nr\.|n[º°o]\.?|\#|number|nummer|numero|número|num\.|numéro))?"
)
_PASSPORT_VALUE = re.compile(r"(?<![\w\-./])(?P<v>[A-Z0-9]{7,10})(?![\w\-/]|[.,]\d)")
_SENTENCE_BREAK = re.compile(r"[\n\r\u2028\u2029]|[.!?;](?:\s|$)")


def _passport_numbers(text: str) -> Iterator[SecretFinding]:
    words = [(m.start(), m.end()) for m in _PASSPORT_WORD.finditer(_without_mask_tags(text))]
    if not words:
        return
    ends = [w_end for _, w_end in words]
    for m in _PASSPORT_VALUE.finditer(text):
        if not _passport_like(m.group("v")):
            continue
        # only the nearest word on each side can be close enough, in the same sentence
        i = bisect.bisect_right(ends, m.start())
        between = None
        if i > 0 and m.start() - ends[i - 1] <= 40:
            between = text[ends[i - 1] : m.start()]
        # "YA7712093 is my passport"; a bare count before the word is a count ("12000000
        # passi" is Italian for steps)
        if (between is None or _SENTENCE_BREAK.search(between)) and not m.group("v").isdigit():
            j = bisect.bisect_left(words, (m.end(), 0))
            if j < len(words) and words[j][0] - m.end() <= 32:
                between = text[m.end() : words[j][0]]
        if between is not None and _SENTENCE_BREAK.search(between) is None:
            yield SecretFinding("passport_number", m.start(), m.end())


# --- secrets that are whole blocks: key material, seed phrases, backup codes ---------

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
        start = run[0].start()
        labelled = any(0 <= start - end <= 40 for end in labels)
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


# One-time recovery codes: "backup codes: 8492 1734, 5521 0983", "recovery codes
# a1b2c-3d4e5 f6a7b-8c9d0". After a label, one code or a list of them.
_BACKUP_LABEL = _phrases("backup_codes")
_CODE_TOKEN = (
    r"(?:\d{4}[ \-]\d{4}(?:[ \-]\d{4})?"
    r"|(?=[A-Za-z\-]{0,12}\d)[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{3,12}){0,8})"
)
_BACKUP_CODES = re.compile(
    rf"(?i:{_BACKUP_LABEL})"
    # what they are for: "for my Proton account", "2FA pour mon compte Proton"
    r"(?:[ \t]+(?i:(?=\d{0,3}[^\W\d_])[^\W_][\w'’\-]{0,19})){0,6}?"
    rf"(?:[ \t]*(?::|=|-|–|—)[ \t]*|[ \t]+(?i:{_CODE_VERBS}|are|were)[ \t]*:?[ \t]*|[ \t]*\r?\n"
    # a remark on the label's line, the codes on the lines below: "backup codes (printed
    # a copy)\n..." (or the same with its line breaks read as blanks)
    r"|(?P<remark>[^\n\d]{1,80}?)(?P<gap>[ \t]*\r?\n|[ \t]+))"
    r"[\s\"'“«(\[]*"
    rf"(?P<v>(?:\(?\d{{1,2}}[.)][ \t]*)?{_CODE_TOKEN}"
    rf"(?:[\s,;|/]+(?:(?i:and|und|et|y|e|och|ja|og|i|и)[ \t]+)?(?:\(?\d{{1,2}}[.)][ \t]*)?"
    rf"{_CODE_TOKEN})*)"
    r"(?![\w\-])"
)
_CODE_TOKENS = re.compile(_CODE_TOKEN)
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
_ALNUM_RUN = re.compile(r"[A-Za-z0-9]+")
# recovery codes pasted with no label: three or more hex pairs like GitHub's "1a2b3-c4d5e"
_UNLABELLED_CODES = re.compile(
    r"(?<![\w\-])(?:[0-9a-f]{4,6}-[0-9a-f]{4,6}(?:[\s,;]+|$)){3,}", re.MULTILINE
)


def _backup_codes(text: str) -> Iterator[SecretFinding]:
    for m in _BACKUP_CODES.finditer(text):
        value = m.group("v")
        if m.group("remark") and (
            len(_CODE_TOKENS.findall(value)) < 2
            if "\n" in m.group("gap")
            else len(_ALNUM_RUN.findall(value)) < 5
        ):
            continue  # after a remark, a list: one number below a label is no list
        if (
            m.group("remark")
            and "\n" not in m.group("gap")
            and _SENTENCE_END.search(m.group("remark"))
        ):
            continue  # "backup codes are offline. Call ...": the remark ended a sentence
        if sum(c.isdigit() for c in value) >= 3 and len(value) >= 6:
            yield SecretFinding("backup_codes", m.start("v"), m.end("v"))
    for m in _UNLABELLED_CODES.finditer(text):
        value = m.group(0).rstrip(", ;\n\t\r")
        if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            yield SecretFinding("backup_codes", m.start(), m.start() + len(value))


# "user / password" written as a pair: after a label ("login", "Zugangsdaten",
# "identifiants", "логин/пароль"), or after a user name every installer knows ("admin",
# "root") when what follows the slash looks like a password.
_CREDENTIAL_LABEL = _phrases("credentials")
_USERNAMES = "|".join(re.escape(u) for u in _WORDS["usernames"]["all"])
_PAIR = (
    r"(?P<v>(?P<user>[^\s/:\"'`,;()]{1,64})(?P<sep>[ \t]*/[ \t]*|:)(?P<pw>[^\s/\"'`,;()]{3,128}))"
    r"(?=[\s\"'`,;()]|[.!?](?:\s|$)|$)"
)
_LABELLED_PAIR = re.compile(
    rf"(?i:{_CREDENTIAL_LABEL})"
    r"(?:[ \t]+(?i:[^\W\d_][\w.'’\-]{0,19})){0,4}?"
    rf"(?:[ \t]*(?::|=|-|–|—)[ \t]*|[ \t]+(?i:{_CODE_VERBS}|are|were)[ \t]*:?[ \t]*|[ \t]+)"
    r"[\"'“«]?" + _PAIR
)
_BARE_PAIR = re.compile(
    rf"(?<![\w.@/\-])(?P<v>(?P<user>(?i:{_USERNAMES})|[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+)"
    r"[ \t]*/[ \t]*(?P<pw>[^\s/\"'`,;()]{5,128}))(?=[\s\"'`,;()]|[.!?](?:\s|$)|$)"
)


def _credential_pairs(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for pattern in (_LABELLED_PAIR, _BARE_PAIR):
        for m in pattern.finditer(text):
            password = m.group("pw").rstrip(_TRAILING_PUNCT)
            if len(password) < 3 or _is_placeholder(password):
                continue
            if _VERSION_OR_DATE.fullmatch(password) or password.lower() in _NOT_A_VALUE:
                continue
            colon = m.groupdict().get("sep") == ":"  # "db creds are app:S3cr3t9"
            if (pattern is _BARE_PAIR or colon) and not _bare_value_ok(password):
                continue
            user = m.group("user").lower()
            if user in ("and", "or", "und", "et", "y", "o", "и") or user in _NOT_A_VALUE:
                continue  # "the login page is at /admin"
            if colon and (user.isdigit() or "." in user and "@" not in user):
                continue  # a time ("10:30"), a host and its port
            end = m.start("pw") + len(password)
            yield SecretFinding("password", m.start("v"), end)


# Webhook URLs whose path is the credential (Discord, Teams, Zapier, IFTTT, any host or
# path named for hooks): the path after the hook part is masked, the host kept.
_WEBHOOK = re.compile(
    r"https?://(?:[\w\-]+\.)*(?:[\w\-]*hook[\w\-]*\.[\w.\-]+(?::\d+)?/(?:[\w\-]*hook[\w\-]*/)?"
    r"|[\w.\-]+(?::\d+)?/(?:[\w\-]+/)*?(?i:api/webhooks|webhooks?|hooks?|webhookb2|trigger)/)"
    r"(?P<v>[^\s\"'<>]+)"
)


def _webhooks(text: str) -> Iterator[SecretFinding]:
    for m in _WEBHOOK.finditer(text):
        value = m.group("v").rstrip(_TRAILING_PUNCT)
        alnum = sum(c.isalnum() for c in value)
        if alnum >= 16 and any(c.isdigit() for c in value) and _shannon_entropy(value) >= 3.0:
            yield SecretFinding("webhook", m.start("v"), m.start("v") + len(value))


# Identity and account numbers after their label, in any language of `secret_words.toml`:
# "my NI number is WE 66 77 57 D", "mój PESEL to 93120533929", "паспорт: 34 17 793212".
_NUMBER_WORD = (
    r"(?:[ \t]*(?i:number|no\.?|nr\.?|n\.|n[º°o]\.?|\#|nummer|numero|número|numéro|номер"
    r"|नंबर|संख्या|번호|号码|号))?"
)
_ID_NUMBER = r"(?P<v>[A-Z0-9]{1,24}(?:[ \-./][A-Z0-9]{1,12}){0,6})(?![A-Za-z0-9_\-]|[.,/]\d)"


def _labelled_number_pattern(table: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?i:(?P<label>{_phrases(table)}))"
        + _NUMBER_WORD
        + r"(?P<q>(?:[ \t]+(?i:[^\W\d_][\w'’\-]{0,19})){0,3}?)"
        # a colon, a dash, a Japanese, Chinese or Korean particle, a verb, or a blank
        + r"(?P<conn>[ \t]*(?::|=|-|–|—|：|は|是|为|는|은|이|가)[ \t]*"
        + rf"|[ \t]+(?i:{_CODE_VERBS}|are)"
        + rf"(?:[ \t]+(?i:{_ARTICLES}))?[ \t]*:?[ \t]*|[ \t]+)"
        + r"[\"'“«]?"
        + _ID_NUMBER
    )


#: identity labels that also name a booking (an Indian railway or an airline PNR): the
#: number must then be a Nordic personal number (its date and check digit)
_BOOKING_LABELS = frozenset({"pnr"})
_NUMBER_NAME = re.compile(r"(?i)(?:num|nr|no\b|n[º°]|\#|номер|番号)")
_LABELLED_NUMBERS = (
    ("national_id", _labelled_number_pattern("national_ids")),
    ("passport_number", _labelled_number_pattern("passports")),
    ("bank_account", _labelled_number_pattern("bank_accounts")),
)


_SSN_SHAPE = re.compile(r"(\d{3})[ \-]?(\d{2})[ \-]?(\d{4})")
_A_DATE = re.compile(
    r"\d{4}[\-./]\d{1,2}[\-./]\d{1,2}|\d{1,2}[\-./]\d{1,2}[\-./]\d{2,4}|v?\d+(?:\.\d+)+"
)


def _labelled_numbers(text: str) -> Iterator[SecretFinding]:
    for kind, pattern in _LABELLED_NUMBERS:
        for m in pattern.finditer(text):
            value = m.group("v")
            if not m.group("conn").strip() and m.group("q"):
                continue  # "social media 12000": words between, no verb, no colon
            digits = sum(c.isdigit() for c in value)
            alnum = sum(c.isalnum() for c in value)
            if kind == "passport_number":
                # "Reisepassnummer GLLKVZ28L": a label that names the number may be
                # followed by one with a single digit (letters are most of some passports)
                names_number = _NUMBER_NAME.search(m.group(0)[: m.start("v") - m.start()])
                ok = alnum >= 7 and digits >= (1 if names_number and not m.group("q") else 3)
            else:  # or letters and four digits (India's PAN, "BQMPK4721L")
                ok = digits >= 5 and alnum >= 6 or digits >= 4 and alnum - digits >= 4
            if not ok or _A_DATE.fullmatch(value) or (value.isdigit() and _is_yyyymmdd(value)):
                continue
            if m.group("label").lower() in _BOOKING_LABELS and not nordic_id_ok(value):
                continue  # "the train's PNR 4521...": a booking, not a personal number
            business_number = kind == "bank_account" or _TAX_LABEL.fullmatch(m.group("label"))
            if business_number and _a_companys(text, m.start(), m.group("q")):
                continue  # "şirketin vergi numarası ...": a business's, on its invoices
            ssn = _SSN_SHAPE.fullmatch(value)
            if ssn and _SSN_LABEL.fullmatch(m.group("label")) and not _ssn_ok(*ssn.groups()):
                continue  # a number the SSA never issues: an example, not a person's
            yield SecretFinding(kind, m.start("v"), m.end("v"))


# The answer to a security question: in a sentence about one ("my mother's maiden name
# is Kowalczyk", "svar på säkerhetsfrågan: ... hette Smulan"), what follows "is",
# "hette", "era", ":" and the like, when it is a name or holds a digit.
_SECURITY_MARK = re.compile(_phrases("security_answers", skip=("answer_verbs",)), re.IGNORECASE)
_ANSWER_VERBS = "|".join(
    re.escape(v).replace("'", "['’]")
    for v in sorted(_WORDS["security_answers"]["answer_verbs"], key=len, reverse=True)
)
_ANSWER = re.compile(
    rf"(?:(?<![^\W_])(?i:{_ANSWER_VERBS})(?![^\W_])|:|：)[ \t]+"
    rf"(?:(?i:{_ARTICLES})[ \t]+)?[\"'“«]?"
    r"(?P<v>[^\W_][\w'’\-]*(?:[ \t]+[^\W\d_][\w'’\-]*)?)"
)


# Japanese and Chinese give the answer with no blank: "秘密の質問の答え：...の名前はポチ",
# "密保问题的答案是旺财"; the answer runs to the end of its clause
_CJK_ANSWER = re.compile(
    r"(?:は|：|:|是|为|為)[ \t]*[「『\"“]?"
    r"(?P<v>[^\s。、，,.!！?？「」『』\"“”はがをの：:是为為]{1,16}?)[」』\"”]?"
    r"(?=です|でした|だよ|だ|。|、|，|,|！|!|？|\?|$|\s)"
)


def _security_answers(text: str) -> Iterator[SecretFinding]:
    if not _SECURITY_MARK.search(text):
        return
    if _CJK.search(text):
        for m in _CJK_ANSWER.finditer(text):
            if not _is_placeholder(m.group("v")):
                yield SecretFinding("security_answer", m.start("v"), m.end("v"))
    for m in _ANSWER.finditer(text):
        value = m.group("v")
        first, _, rest = value.partition(" ")
        if rest and not rest[:1].isupper():
            value = first  # "Biscuit2 then": only a name goes on
        if value.lower() in _NOT_A_VALUE or len(value) < 2:
            continue
        uncased = value[:1].isalpha() and not value[:1].islower() and not value[:1].isupper()
        if not (value[:1].isupper() or uncased or any(c.isdigit() for c in value)):
            continue  # a name (or a word of a script with no case: "바둑이"), or a digit
        if value.lower() in ("i", "my", "mine", "that", "what"):
            continue
        yield SecretFinding("security_answer", m.start("v"), m.start("v") + len(value))


# Payment cards are checked by Luhn and issuer prefix; a number labelled as something else
# that passes both (an IMEI, an order or tracking number) is not a card.
_NOT_CARD = re.compile("(?i)" + _bounded(_WORDS["not_card"]["all"]) + r"[^.!?\n\d]{0,24}$")
_CARD = re.compile(
    r"(?<![\w+])(?<!\d[.\-/])(?:\d{13,19}"
    r"|\d{4}(?P<s1>[ \-])\d{4}(?P=s1)\d{4}(?P=s1)\d{1,4}(?:(?P=s1)\d{1,3})?"
    r"|\d{4}(?P<s2>[ \-])\d{6}(?P=s2)\d{4,5})"
    r"(?!\w|[.\-/]\d)"
)


# A number said with a card's expiry or check digits ("4185 5410 0028 6312 exp 01/30 cvv
# 903") is a card even when it fails the checksum (mistyped, or made up for a form)
_CARD_CONTEXT = re.compile("(?i)" + _bounded(_WORDS["card_context"]["all"]))
_NOT_CARD_WORD = re.compile("(?i)" + _bounded(_WORDS["not_card"]["all"]))
_CARD_WORD = re.compile("(?i)" + _bounded(_WORDS["card_context"]["cards"]))


def _payment_cards(text: str) -> Iterator[SecretFinding]:
    for m in _CARD.finditer(text):
        if not _is_card_number(m.group(0)) and not _card_by_context(text, m):
            continue
        before = text[max(0, m.start() - 48) : m.start()]
        if _NOT_CARD.search(before) and not (
            _card_by_context(text, m) and _CARD_WORD.search(before)
        ):
            continue  # "IMEI 490154203237518", "order number 4111..."
        yield SecretFinding("payment_card", m.start(), m.end())


def _card_by_context(text: str, m: re.Match[str]) -> bool:
    digits = re.sub(r"[ \-]", "", m.group(0))
    if not 15 <= len(digits) <= 16 or not _card_prefix_ok(digits):
        return False
    sentence = _sentence_around(text, m.start(), m.end())
    if not _CARD_CONTEXT.search(sentence):
        return False
    # "4532 ... is the tracking id; it expires": a word saying what else the number is,
    # unless a card is named before the number ("my card for the booking: ...")
    before = text[max(0, m.start() - 48) : m.start()]
    return not _NOT_CARD_WORD.search(sentence) or bool(_CARD_WORD.search(before))


# --- secrets said in other shapes: names of settings, changes, codes, context ----------

# A setting whose name says it holds a secret: "PGPASSWORD=x", "SECRET_KEY_BASE=...",
# '"webhookSecret": "..."', "jwt_secret: ...", "otpauth://...?secret=BASE32". The name is
# cut into its parts (snake_case, kebab-case, camelCase, dotted); a part that names a
# secret counts unless another part says the value is about it, not it (a path, a length,
# an id, a public key).
_SETTING = re.compile(
    r"(?<![\w$.\-])(?:export[ \t]+|set[ \t]+|\$env:)?[\"']?"
    r"(?P<name>[A-Za-z][A-Za-z0-9]*(?:[_\-.][A-Za-z0-9]+)*)[\"']?"
    r"[ \t]*(?P<conn>:=|=|:)[ \t]*"
)
_VALUE_AT = re.compile(_VALUE)
_NAME_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_PASSWORD_PARTS = frozenset({"password", "passwd", "pwd", "pass", "passphrase", "pw", "pword"})
_SECRET_PARTS = frozenset({"secret", "token", "apikey", "credential", "credentials", "auth"})
_KEY_QUALIFIERS = frozenset(
    {"api", "access", "secret", "private", "encryption", "signing", "master", "auth", "client",
     "app", "webhook", "session", "hmac", "jwt", "crypto", "license", "licence", "service",
     "account", "admin", "root", "sign", "enc", "decryption", "cookie", "consumer", "dev",
     "prod", "live", "test", "shared", "storage", "subscription", "primary", "secondary"}
)  # fmt: skip
# Parts that make the setting about a secret rather than the secret: KEY_PATH, TOKEN_URL,
# PASSWORD_MIN_LENGTH, CLIENT_ID, PUBLIC_KEY, SECRET_NAME.
_NOT_SECRET_PARTS = frozenset(
    {"id", "ids", "name", "names", "path", "file", "files", "dir", "url", "uri", "endpoint",
     "host", "length", "len", "min", "max", "ttl", "expiry", "expires", "expiration", "timeout",
     "type", "header", "field", "policy", "hint", "prompt", "label", "format", "algorithm",
     "alg", "regex", "pattern", "rotation", "count", "enabled", "enable", "required", "reset",
     "hash", "hashed", "public", "publishable", "pub", "fingerprint", "size", "bits", "version",
     "location", "ref", "arn", "env", "var", "provider", "manager", "store", "mode", "method",
     "strategy", "kind", "user", "username", "usage", "limit", "lifetime", "duration", "days",
     "source", "scope", "scopes", "audience", "issuer", "encoding", "cipher", "rounds", "salt",
     "sort", "primary", "foreign", "partition", "cache", "index", "column", "table", "prefix",
     "suffix", "region", "zone", "digits", "chars", "iterations", "cost", "strength",
     "validation", "validator", "error", "errors", "message", "expired", "age", "created",
     "updated", "changed", "last", "at", "date", "time", "interval", "period", "retries"}
)  # fmt: skip


def _setting_kind(name: str) -> str | None:
    """ "password" or "token" for a setting whose name says it holds one, else None."""
    parts = [p.lower() for p in _NAME_PARTS.findall(name)]
    if not parts or any(p in _NOT_SECRET_PARTS for p in parts):
        return None
    if len(parts) == 1:  # one word: PGPASSWORD, MYSQLPWD, apisecret, "password"
        word = parts[0]
        if word.endswith(("password", "passwd", "passphrase")):
            return "password"
        if word.endswith(("secret", "token", "apikey")):
            return "token"
        return None
    if any(p in _PASSWORD_PARTS or p.endswith(("password", "passwd")) for p in parts):
        return "password"
    if any(p in _SECRET_PARTS or p.endswith(("secret", "token")) for p in parts):
        return "token"
    if parts[-1] == "key" and parts[-2] in _KEY_QUALIFIERS:
        return "token"
    if parts[-1] == "key" and len(parts) >= 2:  # DATADOG_KEY, STRIPE_KEY: if it looks random
        return "key"
    return None


_BASE32_SECRET = re.compile(r"[A-Z2-7]{16,}={0,6}")


def _random_value(value: str, *, strict: bool) -> bool:
    """A value random enough to be a key: `_looks_like_token`, or base32 of 16 or more
    (a TOTP secret), or, where the name already says secret, 12 or more characters with
    letters and digits (and the symbols of generated keys: Django's hold brackets)."""
    if _looks_like_token(value) or _BASE32_SECRET.fullmatch(value):
        return True
    if strict or not 12 <= len(value) <= 512 or _is_placeholder(value):
        return False
    if re.fullmatch(r"[A-Za-z0-9_\-+/=.~!@#$%^&*()]+", value) is None or value[0] in "/.~(":
        return False
    if re.search(r"^[A-Za-z_][\w.]*\([^()]*\)?$", value):
        return False  # a call: "SECRET_KEY=env(SECRET_1)"
    return _has_letter_and_digit(value) and _shannon_entropy(value) >= 3.0


def _secret_settings(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _SETTING.finditer(text):
        kind = _setting_kind(m.group("name"))
        v = _VALUE_AT.match(text, m.end()) if kind is not None else None
        if v is None:
            continue
        span = _value_span(v)
        if span is None:
            continue
        value, start, end, quoted = span
        if not value.strip() or _is_placeholder(value) or _MASK_TAG_START.search(value):
            continue  # blank: a value masked before
        if value.lower() in ("true", "false", "none", "null", "yes", "no", "on", "off"):
            continue
        if kind == "password":
            if re.fullmatch(r"[a-z]+://\S*", value) or not _plausible_bare_password(
                value, text, end
            ):
                continue
            if not quoted and value.isalpha() and m.group("conn") == ":" and " " in text[end:]:
                continue  # prose after a colon: "Password: see the wiki"
            yield SecretFinding("password", start, end)
        elif _random_value(value, strict=kind == "key"):
            yield SecretFinding("generic_api_key", start, end)


# "the api key I got from them yesterday is Zq8L...": a label, a few words of the same
# sentence, then a value random enough that it can only be the key itself.
_LOOSE_TOKEN_LABEL = (
    r"(?:api|access|auth|secret|client|refresh|session|bot|bearer|webhook|app|personal|deploy)?"
    r"[ _\-]?(?:key|token|secret)s?|credentials?|schlüssel|schluessel|clé|cle|jeton|clave"
    r"|chiave|chave|sleutel|nyckel(?:n)?|avain(?:ta|ni|en|esi)?|klucz(?:a|em)?|ключ(?:а|ом)?"
    r"|токен(?:а|ом)?|トークン|キー|シークレット"
)
_LOOSE_TOKEN = re.compile(
    r"(?<![^\W_])(?i:" + _LOOSE_TOKEN_LABEL + r")(?![^\W_])"
    r"(?P<gap>[^.!?\n]{1,80}?)"
    r"(?<![A-Za-z0-9_\-+/=.~])(?P<v>[A-Za-z0-9_\-+/=.~]{20,512})(?![A-Za-z0-9_\-+/=~])"
)
_LOOSE_LABEL = re.compile(
    r"(?<![^\W_])(?i:" + _LOOSE_TOKEN_LABEL + r"|2fa|totp|mfa|otp|authenticator)(?![^\W_])"
)
_BASE32_WORD = re.compile(r"(?<![\w\-+/=.~])[A-Za-z2-7]{16,64}(?![\w\-+/=~])")
_HEX_OR_UUID = re.compile(
    r"[0-9a-f]+|[0-9A-F]+|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)


_PUBLIC_WORD = re.compile(
    r"(?i)(?<![^\W_])(?:public|publique|p[úu]blic[ao]|pubblica|öffentlich\w*|offentlig\w*"
    r"|julkinen|publiczn\w*|публичн\w*|открыт\w*|公開|fingerprint|host[ \t]+key|publishable"
    r"|address\w*|adresse|direcci[óo]n|indirizzo|endereço|adres|osoite|adress|адрес\w*)(?![^\W_])"
)
# a wallet's address (public): Bitcoin (legacy, segwit), Ethereum, and the like
_ADDRESS = re.compile(
    r"bc1[a-z0-9]{25,90}|[13][1-9A-HJ-NP-Za-km-z]{25,34}|0x[0-9a-fA-F]{40}|pk_(?:live|test)_\w+"
)


def _loosely_labelled_tokens(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _LOOSE_TOKEN.finditer(text):
        value = m.group("v").rstrip(_TRAILING_PUNCT)
        if len(m.group("gap").split()) > 10 or _HEX_OR_UUID.fullmatch(value):
            continue  # a commit, a digest or an id said near the word "key"
        if _PUBLIC_PREFIX.search(text[max(0, m.start("v") - 64) : m.start("v")]):
            continue  # "public key: ssh-ed25519 AAAA...", "fingerprint is SHA256:..."
        if _PUBLIC_WORD.search(m.group(0)[: m.start("v") - m.start()]):
            continue
        if _ADDRESS.fullmatch(value) or any(a <= m.start("v") < b for a, b in _public_spans(text)):
            continue  # a wallet's address, a certificate: public by design
        if _base32_key(value) or (_looks_like_token(value) and _shannon_entropy(value) >= 3.5):
            yield SecretFinding("generic_api_key", m.start("v"), m.start("v") + len(value))
    # a 2FA secret is shorter than a token: base32 of 16 or more, in the label's sentence
    for m in _LOOSE_LABEL.finditer(text):
        window = text[m.end() : m.end() + 100]
        stop = re.search(r"[.!?\n](?:\s|$)|\n", window)
        window = window[: stop.start()] if stop else window
        if _PUBLIC_WORD.search(text[m.start() : m.end()] + window):
            continue
        for w in _BASE32_WORD.finditer(window):
            if _base32_key(w.group(0)):
                yield SecretFinding("generic_api_key", m.end() + w.start(), m.end() + w.end())


def _base32_key(value: str) -> bool:
    """A TOTP or 2FA secret as an authenticator shows it: 16 to 64 characters of base32
    (A-Z and 2-7, one case), with digits and letters, random enough."""
    if not 16 <= len(value) <= 64 or not (value.isupper() or value.islower()):
        return False
    if re.fullmatch(r"[A-Z2-7]+", value.upper()) is None:
        return False
    digits = sum(c.isdigit() for c in value)
    return 1 <= digits <= len(value) - 8 and _shannon_entropy(value) >= 3.2


# "I changed my password to Kettle42!", "Passwort auf Fenster77! geändert", "j'ai changé
# le mot de passe en Lune2023!", "поменял пароль на Zima2024!": a verb of change in the
# sentence, the password's label, then the word for "to" and a made-up value.
_CHANGE_LABEL = (
    r"(?:password|passwd|passphrase|passcode|pin|pw|"
    + _WIFI_KEY
    + "|"
    + "|".join(lang.labels for lang in _LANGUAGES)
    + ")"
)
_CHANGE_TO = re.compile(
    _NOT_AFTER_LETTER
    + rf"(?i:{_CHANGE_LABEL})"
    + _NOT_BEFORE_LETTER
    + r"(?:[ \t]+(?i:for|of|on|to|für|fürs|vom|de|du|del|della|do|da|van|voor|till|för|do|od"
    r"|от|для|от)(?:[ \t]+[\w.@'’\-]+){1,3}?)?"
    r"[ \t]+(?i:to|as|into|auf|zu|in|en|à|a|por|como|para|naar|op|till|på|na|на|в|to:)[ \t]+"
    + _VALUE
)
_CHANGE_VERB = re.compile(
    r"(?i)(?<![^\W_])(?:chang|set|reset|updat|switch|rotat|made|make|änder|aender|geändert"
    r"|gesetzt|setz|umgestellt|gestellt|chang[ée]|mis|mets|modifi|défini|defini|cambi|pus[eo]"
    r"|actualic|establec|impostat|mess[oa]|mud[eo]i|troqu|troc|alter|coloqu|veranderd|gewijzigd"
    r"|wijzig|verander|gezet|bytt|bytte|byt|ändra|satt|satte|vaihdo|vaihto|zmieni|ustawi"
    r"|помен|смени|измени|постави|установи|změni|zmeni|nastavi)"
)


# "my PIN is the same as my birthday, 0412", "the password is my dog's name and 99:
# rex99", "der Türcode ist leicht zu merken: 2580": how the secret is made, then the
# secret itself at the end of the clause, after a comma or a colon
_EXPLAINED = re.compile(
    _NOT_AFTER_LETTER
    + rf"(?i:{_CHANGE_LABEL}|{_CODE_LABEL}|{_CODE_WORD})"
    + _NOT_BEFORE_LETTER
    + r"(?:[ \t]+[^\W\d_][\w'’\-]{0,14}){0,3}?"
    + rf"[ \t]+(?i:{_CODE_VERBS})(?![^\W_])"
    + r"(?:[ \t]+[\w'’\-]{1,15}){1,10}?[ \t]*[,:–—][ \t]*[\"'“«]?"
    + r"(?P<v>[^\s\"'`“”«»,;:]{3,64}?)[\"'”»]?(?=[ \t]*(?:[.!?;)]|$))",
    re.MULTILINE,
)


def _explained_secrets(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _EXPLAINED.finditer(text):
        value = m.group("v").rstrip(".!?")
        if _is_placeholder(value) or value.lower() in _NOT_A_VALUE:
            continue
        if _NOT_CODE.search(_sentence_around(text, m.start(), m.end())):
            continue  # "the promo code is on the back: SAVE20"
        made_up = _bare_value_ok(value) or (len(value) >= 4 and _has_letter_and_digit(value))
        if made_up or (value.isdigit() and 4 <= len(value) <= 8):
            yield SecretFinding("password", m.start("v"), m.start("v") + len(value))


_NETWORK = re.compile("(?i)" + _bounded(_WORDS["network_keys"]["networks"]))
_NETWORK_KEY = re.compile(
    rf"(?i:{_bounded(_WORDS['network_keys']['keys'])})[ \t]*[:=]?[ \t]+[\"'“«]?"
    r"(?P<v>[^\s\"'`“”«»,;]{4,64})"
)


def _network_keys(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    if not _NETWORK.search(text):
        return
    for m in _NETWORK_KEY.finditer(text):
        value = m.group("v").rstrip(_TRAILING_PUNCT + "!")
        if m.group("v").endswith("!") and _has_letter_and_digit(value):
            value = m.group("v").rstrip(_TRAILING_PUNCT)  # "gr33nTea!": the symbol is its own
        if _is_placeholder(value) or value.lower() in _NOT_A_VALUE:
            continue
        if not ((_bare_value_ok(value) and _has_letter_and_digit(value)) or _long_number(value)):
            continue  # "Key Roles**:" in a heading: a made-up key holds a digit
        if not _NETWORK.search(_sentence_around(text, m.start(), m.end())):
            continue
        if _FOLLOWED_BY_UNIT.match(text, m.start("v") + len(value)):
            continue
        yield SecretFinding("password", m.start("v"), m.start("v") + len(value))


def _changed_passwords(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _CHANGE_TO.finditer(text):
        span = _value_span(m)
        if span is None:
            continue
        value, start, end, quoted = span
        if not value.strip() or _is_placeholder(value) or _MASK_TAG_START.search(value):
            continue  # blank: a value masked before
        sentence = _sentence_around(text, m.start(), end)
        if not _CHANGE_VERB.search(sentence):
            continue
        if (quoted and len(value) >= 4) or (
            _bare_value_ok(value) and _plausible_bare_password(value, text, end)
        ):
            yield SecretFinding("password", start, end)


# A value given in groups ("app password: abcd efgh ijkl mnop", "WLAN-Schlüssel: 5521 0088
# 1123 4490", "secret key: jbsw y3dp ehpk 3pxp"): three or more groups of one length
# after a password's or a key's label, masked whole.
_GROUP_LABEL = (
    r"(?:password|passwd|passphrase|passcode|pwd|pw|pass|key|secret|token|setup[ \t]+key"
    r"|"
    + _WIFI_KEY
    + "|"
    + "|".join(lang.labels for lang in _LANGUAGES)
    + r"|"
    + _LOOSE_TOKEN_LABEL
    + ")"
)
_GROUPED = re.compile(
    _NOT_AFTER_LETTER
    + rf"(?i:{_GROUP_LABEL})"
    + _NOT_BEFORE_LETTER
    # what it is for: "the 2fa secret key from the setup page is ..."
    + r"(?:[ \t]+[^\W\d_][\w'’\-]{0,19}){0,5}?"
    + r"(?P<conn>[ \t]*(?::|=|-|–|—)[ \t]*|[ \t]+(?i:"
    + _ALL_VERBS
    + r"|is|was|ist|lautet)[ \t]*:?[ \t]*|[ \t]+(?=[A-Za-z]{0,5}\d))"
    + r"[\"'“«]?(?P<v>(?P<g>[A-Za-z0-9]{3,6})(?:[ \-][A-Za-z0-9]{3,6}){2,9})(?![A-Za-z0-9])"
)


def _grouped_values(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _GROUPED.finditer(text):
        groups = re.split(r"[ \-]", m.group("v"))
        if len({len(g) for g in groups}) != 1 or len(groups[0]) < 4:
            continue  # "is in drawer 4 of the desk": groups of one length only
        value = m.group("v")
        if value.isalpha() and (
            not all(g.islower() or g.isupper() for g in groups)
            or any(g.lower() in _NOT_A_VALUE for g in groups)
        ):
            continue
        if not m.group("conn").strip() and (len(groups) < 4 or not any(c.isdigit() for c in value)):
            continue  # no verb, no colon: four groups or more with digits ("recovery key
            # 123456-654321-...")
        yield SecretFinding("password", m.start("v"), m.end("v"))


# A code said first: "4821 is the door code", "4821 är portkoden", "2580 — код от домофона".
_CODES_FIRST = re.compile(
    r"(?<![\w.,:/\-])(?P<v>[*#]?\d(?:[ \-*#]?\d){2,9}[#*]?)[ \t]+"
    rf"(?:(?i:{_CODE_VERBS})|—|–|-)[ \t]+(?:(?i:{_DETERMINERS})[ \t]+){{0,2}}"
    rf"(?i:(?P<label>{_CODE_LABEL}"
    rf"|{_CODE_WORD}(?:[ \t]+[^\W\d_][\w'’\-]{{0,14}}){{0,3}}?[ \t]+{_LOCKED}"
    rf"|(?<![^\W_]){_LOCKED}(?:['’]s)?(?:[ \t\-]+[^\W\d_][\w'’]{{0,14}}){{0,2}}?[ \t\-]*"
    rf"{_CODE_WORD}))"
)
_NOT_CODE_WORDS = _bounded(_WORDS["not_codes"]["all"])
_NOT_CODE = re.compile("(?i)" + _NOT_CODE_WORDS)

# "código postal de casa", "code postal", "the postal code of the building": a code that
# names what it is right next to the word "code"
_NOT_CODE_NEXT = re.compile(
    rf"(?i)(?:{_NOT_CODE_WORDS})[ \t\-]+{_CODE_WORD}"
    rf"|{_CODE_WORD}[ \t\-]+(?:postal|postale|de[ \t]+(?:descuento|error|erro|rastreio)"
    r"|d['’]erreur|di[ \t]+errore|promo\w*|de[ \t]+promo\w*)(?![^\W_])"
)


def _codes_stated_first(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _CODES_FIRST.finditer(text):
        value = m.group("v")
        if sum(c.isdigit() for c in value) < 4 or _NOT_CODE.search(m.group("label")):
            continue
        yield SecretFinding("password", m.start("v"), m.end("v"))


# A code stated with nothing it opens: "the code is 5519", "koodi on 7781", "il codice è
# 5521", "Ihr Code lautet 482913". Four to eight digits after "code" and a verb or a colon,
# unless the sentence says what else the code is (a postcode, an error, a discount).
_BARE_CODE = re.compile(
    rf"(?<![^\W_])(?i:{_CODE_WORD}|kod|koodi|koden|código|codigo|codice|код|コード)(?![^\W_])"
    # what it is for: "the code to get in is 1234", "el código para entrar es 1234"
    r"(?P<gap>(?:[ \t]+[^\W\d_][\w'’\-]{0,14}){0,7}?)"
    rf"(?P<conn>[ \t]*(?::|=|：|は)[ \t]*|[ \t]+(?i:{_CODE_VERBS})"
    rf"(?:[ \t]+(?i:{_CODE_ADVERBS}))?(?:[ \t]+(?i:{_ARTICLES}))?[ \t]*:?[ \t]*)"
    r"[\"'“«]?(?P<v>[*#]?(?:\d{4,8}|\d{1,4}[*#]\d{2,6}|\d{1,2}(?:-\d{1,2}){2,7})[#*]?)(?![\w\-]|[.,:/]\d)"
)
_CODE_UNITS = re.compile(
    r"[ \t]*(?i:lines?|rows?|bytes?|kb|mb|ms|seconds?|errors?|times|mm|cm|m|km|kg|g|sq|square"
    r"|euros?|eur|usd|dollars?|pounds?|kr|px|ft|feet|inch(?:es)?|met(?:er|re)s?|€|\$|%|£)(?!\w)"
)


_OWNERS = re.compile(rf"(?i:{_DETERMINERS}|ihr|your|su|votre|sua|din|teidän|мой|наш)")


def _bare_codes(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _BARE_CODE.finditer(text):
        # the word before, less what a colon or a slash glues to it ("imported:el código")
        before = re.split(r"[\s:/]+", text[max(0, m.start() - 24) : m.start()].rstrip())
        if before and re.search(r"\w", before[-1]) and not _OWNERS.fullmatch(before[-1]):
            continue  # "zip code", "PIN code", "door code": not bare, or another rule's
        if _NOT_CODE.search(_sentence_around(text, m.start(), m.end())):
            continue
        if _postal_context(text, m.start(), m.end()):
            continue
        if _FOLLOWED_BY_UNIT.match(text, m.end("v")) or _CODE_UNITS.match(text, m.end("v")):
            continue
        if m.group("gap") and not m.group("conn").strip():
            continue  # words and then a number, with no verb: "code review 2024"
        yield SecretFinding("password", m.start("v"), m.end("v"))


# A code keyed in, or given after what it opens: "punch in 4821# at the gate", "marca 1234
# en el portal", "front door: 4821". The sentence must name a thing a code opens.
_KEYPAD_VERB = _phrases("keypad_verbs")
_KEYED = re.compile(
    rf"(?i:{_KEYPAD_VERB})[ \t]+(?:(?i:in|the|code|den|le|el|il|o|de|kod|код)[ \t]+){{0,2}}"
    r"[\"'“«]?(?P<v>[*#]?\d(?:[ \-]?\d){3,7}[#*]?)(?![\w\-]|[.,:/]\d)"
)
_OPENED_BY_CODE = re.compile(
    r"(?i)(?<![^\W_])(?:front[ \t]+door|door|gate|alarm|safe|padlock|garage|keypad|intercom"
    r"|lockbox|key[ \t]+safe|buzzer|haustür|tür|tor|alarmanlage|tresor|porte|portail|alarme"
    r"|coffre|interphone|puerta|portal|alarma|caja[ \t]+fuerte|portero|porta|portone|cancello"
    r"|allarme|cassaforte|citofono|portão|portao|alarme|cofre|deur|voordeur|poort|kluis"
    r"|porten|dörren|larmet|kassaskåpet|ovi|oven|portti|portin|hälytin|drzwi|bramy|brama"
    r"|domofon\w*|alarm\w*|дверь|двери|домофон\w*|подъезд\w*|ворот\w*|калитк\w*|сейф\w*"
    r"|сигнализаци\w*|"
    # a box or a safe for keys, and compound doors and gates ("Hintertür", "Kellertür",
    # "bakdörren"); Hindi and Turkish in Latin script
    + _phrases("key_boxes", boundary=False)
    + r"|[^\W\d_]*(?:tür|tuer|türe|deur|dörr|dörren|kluis|kluisje|tresor)"
    r"|darwaz\w*|darvaz\w*|tijori|taala|kapı\w*|kapi)(?![^\W_])"
)


def _keyed_codes(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _KEYED.finditer(text):
        sentence = _sentence_around(text, m.start(), m.end())
        if _OPENED_BY_CODE.search(sentence) and not _FOLLOWED_BY_UNIT.match(text, m.end("v")):
            yield SecretFinding("password", m.start("v"), m.end("v"))
    for m in _OPENED_AND_CODE.finditer(text):
        if _CODE_UNITS.match(text, m.end("v")):
            continue  # "the door is 1234 mm wide"
        alarm = m.group(0).lower().startswith(("alarm", "larm", "hälytin"))
        if alarm and ("is" in m.group(0)[:12] or (m.group("where") and _clock_time(m.group("v")))):
            continue  # "my alarm is 0630", "alarm for monday: 0630": a clock's alarm
        if m.group("where") and _NOT_CODE.search(m.group("where")):
            continue  # "gate at the airport: 2045"
        yield SecretFinding("password", m.start("v"), m.end("v"))
    for m in _CODE_THEN_DIGITS.finditer(text):  # "код 4471 от домофона", "code 4821 for the gate"
        yield from _code_of_a_door(text, m)


def _code_of_a_door(text: str, m: re.Match[str]) -> Iterator[SecretFinding]:
    """The digits `m` found (group "v"), a code when its sentence names what a code opens
    (and nothing that is no code) and no unit follows them ("4821 mm")."""
    sentence = _sentence_around(text, m.start(), m.end())
    if not _OPENED_BY_CODE.search(sentence) or _NOT_CODE.search(sentence):
        return
    if _FOLLOWED_BY_UNIT.match(text, m.end("v")) or _CODE_UNITS.match(text, m.end("v")):
        return
    yield SecretFinding("password", m.start("v"), m.end("v"))


# "the alarm is disarmed with 4821", "la alarma se desactiva con 373795", "die Haustür
# öffnet sich mit 4821": a verb that opens, "with", digits, in a sentence naming what
_OPENING_VERB = _phrases("opening_verbs", boundary=False, skip=("with",))
_WITH = _phrases("opening_verbs", skip=tuple(k for k in _WORDS["opening_verbs"] if k != "with"))
_OPENS_WITH = re.compile(
    rf"(?<![^\W_])(?i:{_OPENING_VERB})[^\W\d_]*"
    r"(?:[ \t]+[^\W\d_][\w'’\-]{0,14}){0,3}?"
    rf"[ \t]+(?i:{_WITH})"
    r"[ \t]+(?:(?i:the|code|den|le|el|il|o|de|der|kod|код|codice|código|codigo)[ \t]+){0,2}"
    r"[\"'“«]?(?P<v>[*#]?(?:\d{4,8}|\d{1,4}[*#]\d{2,6}|\d{1,2}(?:-\d{1,2}){2,7})[#*]?)(?![\w\-]|[.,:/]\d)"
)


def _codes_opening(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _OPENS_WITH.finditer(text):
        yield from _code_of_a_door(text, m)


def _clock_time(value: str) -> bool:
    return len(value) == 4 and value.isdigit() and int(value[:2]) < 24 and int(value[2:]) < 60


_CODE_THEN_DIGITS = re.compile(
    rf"(?<![^\W_])(?i:{_CODE_WORD}|kod|koodi|código|codigo|codice|код)(?![^\W_])[ \t:]+"
    r"(?P<v>[*#]?(?:\d{4,8}|\d{1,4}[*#]\d{2,6}|\d{1,2}(?:-\d{1,2}){2,7})[#*]?)(?![\w\-]|[.,:/]\d)"
)


_OPENED_AND_CODE = re.compile(
    _OPENED_BY_CODE.pattern[4:]
    # where it is, before a colon: "the safe in the hotel: 1471", "Tresor im Zimmer: 2580"
    + r"(?P<where>(?:[ \t]+[^\W\d_][\w'’\-]{0,14}){1,4}?(?=[ \t]*[:=]))?"
    + r"(?:[ \t]*[:=][ \t]*|[ \t]+(?:opens[ \t]+with|unlocks[ \t]+with|öffnet[ \t]+mit"
    r"|s['’]ouvre[ \t]+avec|se[ \t]+abre[ \t]+con|si[ \t]+apre[ \t]+con|abre[ \t]+com"
    r"|opent[ \t]+met"
    r"|öppnas[ \t]+med|öppnar[ \t]+med|aukeaa[ \t]+koodilla|открывается[ \t]+кодом|is)[ \t]+)"
    r"[\"'“«]?(?P<v>[*#]?(?:\d{4,8}|\d{1,4}[*#]\d{2,6}|\d{1,2}(?:-\d{1,2}){2,7})[#*]?)"
    r"(?![\w\-]|[.,:/]\d|[ \t]*(?:am|pm|h|uhr)\b)",
    re.IGNORECASE,
)


# "user anna@example.org pass Kettle42!", "user anna pw Kettle42!", "usuario mgarcia /
# clave Ronda#882": the user's label and name, then a password's label, in any language
_USER_WORDS = (
    r"user(?:name)?|login|e-?mail|account|usuario|usuário|utilizador|utente"
    r"|utilisateur|identifiant|benutzer(?:name)?|nutzer|käyttäjä(?:tunnus)?|tunnus"
    r"|användare|användarnamn|gebruiker(?:snaam)?|bruker(?:navn)?|brugernavn|użytkownik"
    r"|uživatel|kullanıcı(?:[ \t]+adı)?|логин|пользователь|юзер"
)
_USER_THEN_PASS = re.compile(
    rf"(?i)(?<![^\W_])(?:{_USER_WORDS})[ \t:=]+[^\s]{{2,64}}[ \t,;/|]+"
    r"(?:pass|pw|pwd|psw|mdp|"
    + "|".join(lang.labels for lang in _LANGUAGES)
    + r")[ \t:=]+(?P<v>[^\s\"'`;]{4,128})"
    # an e-mail address is the user: "gmail: anna@example.org pw Otter2023!"
    r"|(?<![\w.+\-])[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+[ \t,;/]+(?i:pass|pw|pwd|psw|mdp|password"
    r"|passwort|kennwort|mot[ \t]+de[ \t]+passe|contraseña|senha|wachtwoord|lösenord|salasana"
    r"|hasło|haslo|heslo|пароль)[ \t:=]+(?P<v2>[^\s\"'`]{4,128})"
)


def _user_then_pass(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _USER_THEN_PASS.finditer(text):
        group = "v" if m.group("v") is not None else "v2"
        value = m.group(group).rstrip(_TRAILING_PUNCT)
        if _bare_value_ok(value) and not _is_placeholder(value):
            yield SecretFinding("password", m.start(group), m.start(group) + len(value))


# A made-up word (letters, digits and a symbol: "hunter983*", "Summer2024!") in a sentence
# about logging in: "why does hunter983* not work on the router admin page?". A symbol
# that only ends the sentence does not count.
_LOGIN_CONTEXT = re.compile(
    r"(?i)(?<![^\W_])(?:log[ \-]?in|sign[ \-]?in|signin|admin[ \t]+(?:page|panel|interface|ui)"
    r"|router|wi-?fi|wlan|credentials?|unlock|anmeld\w*|einlogg\w*|connexion|se[ \t]+connecter"
    r"|iniciar[ \t]+sesi[óo]n|acced\w*|inlogg\w*|logga[ \t]+in|kirjaudu\w*|kirjautu\w*"
    r"|zaloguj\w*|logowan\w*|войти|вход\w*|логин\w*|роутер\w*|ログイン|ルーター|"
    + _ANY_PASSWORD_WORD
    + r")(?![^\W_])"
)
_MADE_UP = re.compile(
    r"(?<![\w@/:.\-#$%&*+=~!?])(?P<v>(?=[\w!@#$%^&*?+=~\-.]*[A-Za-z])(?=[\w!@#$%^&*?+=~\-.]*\d)"
    r"[A-Za-z0-9][A-Za-z0-9!@#$%^&*?+=~_\-.]{4,63})(?=[\s\"'),;]|$)"
)
_SYMBOLS = frozenset("!@#$%^&*?+=~")


def _contextual_passwords(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    if not _LOGIN_CONTEXT.search(text):
        return
    for m in _MADE_UP.finditer(text):
        value = m.group("v")
        core = value.rstrip(".,:;")
        if core[-1:] in "!?" and (m.end() >= len(text) or text[m.end() :].lstrip()[:1].isupper()):
            core = core.rstrip("!?")  # sentence punctuation, not the password's
        if not any(c in _SYMBOLS for c in core) or "@" in core and "." in core.split("@")[-1]:
            continue  # no symbol of its own, or an e-mail address
        if re.search(r"(?:https?|www)", core, re.I) or re.fullmatch(r"[A-Za-z_]\w*=\S*", core):
            continue  # a link, or a setting ("Id=app2") that another rule reads
        if core.startswith(("C#", "F#")):
            continue
        if not _LOGIN_CONTEXT.search(_sentence_around(text, m.start(), m.end())):
            continue
        yield SecretFinding("password", m.start(), m.start() + len(core))


# Ordered most specific first: on overlap the earlier detector's kind is kept.
DETECTORS: tuple[Detector, ...] = (
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
    _url_passwords,
    _regex_detector(
        "azure_key",
        r"(?<![A-Za-z0-9])(?i:AccountKey|SharedAccessKey|PrimaryKey|SecondaryKey)[ \t]*=[ \t]*"
        r"(?P<v>[A-Za-z0-9+/]{20,}={0,2})",
        group="v",
    ),
    _regex_detector(
        "azure_sas",
        r"(?:[?&;]|SharedAccessSignature=)sig=(?P<v>[A-Za-z0-9%+/]{20,}(?:%3[Dd]|=)*)",
        group="v",
    ),
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
        _NOT_AFTER_ALNUM + r"(?i:aws[_\-. ]?secret(?:[_\-. ]?access)?(?:[_\-. ]?key)?"
        r"|secret[_\-. ]?access[_\-. ]?key(?:[_\-. ]?id)?)"
        + _NOT_BEFORE_WORD
        + r"(?:"
        + _EN_CONNECTOR
        + r"|[ \t]+)"
        + r"[\"']?(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        group="v",
    ),
    _regex_detector(
        "github_token",
        r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})",
    ),
    _regex_detector(
        "gitlab_token",
        _NOT_AFTER_TOKEN
        + rf"(?:gl(?:pat|dt|rt|ptt|oas|cbt|imt|ffct|sot|agent|ft)-[{_TOKEN_CHARS}]{{20,}}"
        + rf"|GR1348941[{_TOKEN_CHARS}]{{20,}})",
    ),
    _regex_detector(
        "slack_webhook",
        r"https://hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/[A-Za-z0-9]+",
    ),
    _regex_detector(
        "slack_token",
        _NOT_AFTER_TOKEN + r"(?:xox[abposre]-[A-Za-z0-9\-]{10,}|xapp-\d-[A-Za-z0-9\-]{10,})",
    ),
    _regex_detector(
        "stripe_key",
        r"(?<![A-Za-z0-9_])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})",
    ),
    _regex_detector(
        "google_api_key", _NOT_AFTER_TOKEN + rf"AIza[{_TOKEN_CHARS}]{{35}}" + _NOT_BEFORE_TOKEN
    ),
    _regex_detector(
        "google_oauth",
        _NOT_AFTER_TOKEN
        + rf"(?:GOCSPX-[{_TOKEN_CHARS}]{{24,}}|ya29\.[{_TOKEN_CHARS}]{{20,}})"
        + _NOT_BEFORE_TOKEN,
    ),
    _regex_detector("huggingface_token", r"(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}"),
    _regex_detector("npm_token", r"(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36,}"),
    _regex_detector("pypi_token", _NOT_AFTER_TOKEN + rf"pypi-AgE[{_TOKEN_CHARS}]{{50,}}"),
    _regex_detector(
        "sendgrid_key",
        _NOT_AFTER_TOKEN + rf"SG\.[{_TOKEN_CHARS}]{{16,32}}\.[{_TOKEN_CHARS}]{{32,64}}",
    ),
    _regex_detector(
        "telegram_bot_token",
        r"(?<![\w:])\d{8,10}:AA[A-Za-z0-9_\-]{33}" + _NOT_BEFORE_TOKEN,
    ),
    _regex_detector("shopify_token", r"(?<![A-Za-z0-9_])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    _regex_detector("digitalocean_token", r"(?<![A-Za-z0-9_])do[opr]_v1_[a-f0-9]{64}"),
    _regex_detector("docker_token", r"(?<![A-Za-z0-9_])dckr_pat_[A-Za-z0-9_\-]{20,}"),
    _regex_detector("twilio_key", _NOT_AFTER_ALNUM + r"SK[0-9a-fA-F]{32}(?![A-Za-z0-9])"),
    _regex_detector("mailgun_key", _NOT_AFTER_TOKEN + r"key-[0-9a-f]{32}(?![A-Za-z0-9])"),
    _regex_detector("atlassian_token", _NOT_AFTER_TOKEN + r"ATATT3[A-Za-z0-9_\-=]{50,}"),
    _regex_detector("groq_api_key", r"(?<![A-Za-z0-9_])gsk_[A-Za-z0-9]{40,}"),
    _regex_detector("xai_api_key", _NOT_AFTER_TOKEN + r"xai-[A-Za-z0-9]{40,}"),
    _regex_detector(
        "vault_token",
        r"(?<![\w.])(?:hv[sbr]\.[A-Za-z0-9_\-]{20,}|[sb]\.[A-Za-z0-9]{24})(?![\w.\-])",
        check=lambda v: v[:1] == "h" or (_has_letter_and_digit(v[2:]) and not v[2:].islower()),
    ),
    # a Discord bot token: the user id in base64, a time, an HMAC
    _regex_detector(
        "discord_token",
        r"(?<![\w.\-])[MNO][A-Za-z\d_\-]{23,27}\.[A-Za-z\d_\-]{6}\.[A-Za-z\d_\-]{27,40}(?![\w.\-])",
    ),
    # an age identity (the private key of age encryption), and its plugins' identities
    _regex_detector(
        "private_key",
        r"(?<![A-Za-z0-9\-])AGE-(?:SECRET-KEY|PLUGIN-[A-Z0-9]+)-1[0-9A-Z]{20,}(?![A-Za-z0-9])",
    ),
    # a Nostr private key (bech32 "nsec1"), a BIP-32 extended private key (xprv, tprv...)
    _regex_detector(
        "crypto_private_key",
        r"(?<![A-Za-z0-9])(?:nsec1[02-9ac-hj-np-z]{58}|[xtyzuvYZUV]prv[1-9A-HJ-NP-Za-km-z]{100,112})"
        r"(?![A-Za-z0-9])",
    ),
    # the secret of an AWS key pair, given after its access key id with no label of its
    # own: "AKIA... / wJalrXUtnFEMI/K7MDENG/..."
    _regex_detector(
        "aws_secret_key",
        _NOT_AFTER_ALNUM + r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])"
        r"[^\n]{0,40}?(?<![A-Za-z0-9/+])(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        group="v",
        check=lambda v: _has_letter_and_digit(v) and _shannon_entropy(v) >= 4.0,
    ),
    # a Bitcoin private key in wallet import format (base58, 51-52 characters)
    _regex_detector(
        "crypto_private_key",
        r"(?<![A-Za-z0-9])(?:[KL][1-9A-HJ-NP-Za-km-z]{51}|5[HJK][1-9A-HJ-NP-Za-km-z]{49})"
        r"(?![A-Za-z0-9])",
    ),
    # 32 bytes in hex after "private key" in any language (an Ethereum account key)
    _regex_detector(
        "crypto_private_key",
        r"(?i:private[ _\-]?key|privkey|priv[ _]key|privater[ \t]+schlüssel|clé[ \t]+privée"
        r"|cle[ \t]+privee|clave[ \t]+privada|chiave[ \t]+privata|chave[ \t]+privada"
        r"|приватный[ \t]+ключ|закрытый[ \t]+ключ|yksityinen[ \t]+avain|privat[ \t]+nyckel"
        r"|privé[ \t]*sleutel|klucz[ \t]+prywatny|秘密鍵|私钥)"
        r"[^\n]{0,40}?(?<![0-9A-Za-z])(?P<v>(?:0x)?[0-9a-fA-F]{64})(?![0-9A-Za-z])",
        group="v",
    ),
    # the password of a Wi-Fi QR code: WIFI:S:name;T:WPA;P:password;;
    _regex_detector(
        "password",
        r"WIFI:(?:[STH]:(?:\\.|[^;\\])*;)*P:(?P<v>(?:\\.|[^;\\\s])+)",
        group="v",
    ),
    # a password given to a command: --password X, -p X after -u USER, mysql -pX
    _regex_detector(
        "password",
        r"(?<![\w\-])(?:--(?:password|passwd|pass|token|api-key|secret)(?:=|[ \t]+)"
        r"|-u[ \t]+\S+[ \t]+-p[ \t]*|(?:mysql|mysqldump|sshpass)\b[^\n]*?[ \t]-p)"
        r"[\"']?(?P<v>[^\s\"']{3,128})",
        group="v",
        check=lambda v: not _is_placeholder(v) and not v.startswith("-"),
    ),
    # curl -u user:password, --user user:password
    _regex_detector(
        "password",
        r"(?<![\w\-])(?:-u|--user)(?:=|[ \t]+)[\"']?[^\s:\"'@]{1,64}:(?P<v>[^\s\"']{3,128})",
        group="v",
        check=lambda v: not _is_placeholder(v),
    ),
    _regex_detector(
        "discord_webhook",
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/(?P<v>[\w\-]{20,})",
        group="v",
    ),
    _webhooks,
    _regex_detector(
        "jwt",
        _NOT_AFTER_TOKEN
        + rf"eyJ[{_TOKEN_CHARS}]{{8,}}\.eyJ[{_TOKEN_CHARS}]{{8,}}\.[{_TOKEN_CHARS}]*",
    ),
    _regex_detector(
        "bearer_token",
        _NOT_AFTER_ALNUM + r"(?i:bearer)[ \t]+(?P<v>[A-Za-z0-9\-._~+/]{15,}[A-Za-z0-9\-_~+/]=*)",
        group="v",
        check=_looks_like_bearer,
    ),
    _regex_detector(
        "basic_auth",
        r"(?i:authorization)[\"']?[ \t]*[:=][ \t]*[\"']?(?i:basic)[ \t]+"
        r"(?P<v>[A-Za-z0-9+/]{8,}={0,2})",
        group="v",
    ),
    _key_material,
    # blocks before the numbers they are made of: a list of codes is not a card
    _backup_codes,
    _seed_phrases,
    _ibans,
    _ssns,
    _payment_cards,
    _passport_numbers,
    _labelled_numbers,
    _grouped_values,
    _codes_stated_first,
    _stated_pins,
    _credential_pairs,
    _stated_passwords,
    _cjk_passwords,
    _security_answers,
    _passwords_stated_first,
    _passwords_used_as,
    _explained_secrets,
    _network_keys,
    _secret_settings,
    _changed_passwords,
    _labelled_tokens,
    _license_keys,
    _loosely_labelled_tokens,
    _bare_codes,
    _keyed_codes,
    _codes_opening,
    _user_then_pass,
    _contextual_passwords,
)
