"""What every secret detector shares (`credo.secret_patterns` assembles the detectors;
`credo.secrets` is the way in): a finding and a detector, the grammar of a stated value
(quoted or bare, templates, the punctuation after it), the validators (entropy and
character classes, Luhn, the IBAN checksum, the SSA's ranges), and the words of
`credo/data/secret_words.toml` with the patterns built from them: a password's label in
each language, its verb, and what may stand between the two.
"""

from __future__ import annotations

import hashlib
import math
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

# `re`, with the compiled programs of the patterns below kept between processes when the
# command line enables credo.cache (compiling them is half a second of every cold start)
from . import cached_re as re


@dataclass(frozen=True)
class SecretFinding:
    """A secret value at `text[start:end]`; `kind` names what it looks like.

    Kinds: openai_api_key, anthropic_api_key, aws_access_key, aws_secret_key, github_token,
    gitlab_token, slack_token, slack_webhook, stripe_key, google_api_key, google_oauth,
    huggingface_token, npm_token, pypi_token, sendgrid_key, telegram_bot_token,
    shopify_token, digitalocean_token, docker_token, databricks_token, twilio_key, mailgun_key,
    atlassian_token, groq_api_key, xai_api_key, azure_key (AccountKey / SharedAccessKey),
    azure_sas (the signature of a shared access signature), gcp_private_key_id, jwt,
    bearer_token, basic_auth, private_key, connection_string (the password inside a URL),
    payment_card, iban, us_ssn, passport_number, password (stated passwords, passcodes and
    PINs, in any language of `credo/data/secret_words.toml`), license_key, generic_api_key
    (a random-looking value labelled as a key, token or secret).
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
    must should muss soll sollte doit devrait debe debería deberia deve dovrebbe moet
    måste bör skal skall bør oltava pitää pitaa täytyy tulee musi powinno powinien musí
    должен должна должно повинен повинна має gerekir olmalı olmali harus wajib
    scritta scritto scritte scritti annotata annotato segnata segnato stampata stampato
    attaccata escrita escrito anotada anotado apuntada apuntado impresa impreso pegada
    impressa impresso colada écrit écrite ecrit ecrite notée notee imprimé imprimee
    imprimée collée collee notiert aufgeschrieben aufgedruckt gedruckt geschrieben
    genoteerd gedrukt skriven skrivet tryckt kirjoitettu painettu zapisane zapisany
    zapisana napisane napisany napisana wydrukowane написан написана написано записан
    записана записано напечатан напечатана yazılı yazili
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


_MASK_TAG = re.compile(r"\[secret(?:-\d+)?:[a-z_0-9]+\]")


# a placeholder as an extractor may leave it, brackets dropped or not; without its "[",
# never a part of a name ("arn:...:secret:prod/db", "vault:secret/data"): no ":" or word
# before it, no "/", ":", "-" or ".name" after it
_MASK_TAG_KIND = re.compile(r"(?:\[|(?<![\w:]))secret(?:-\d+)?:([a-z_0-9]+)\b(?![/:\-]|\.\w)")


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


def _brand_length_ok(digits: str) -> bool:
    """Whether a number with a card's prefix has that card's length: a Mastercard has 16
    digits, an American Express 15, a Visa 13, 16 or 19 (other issuers' lengths vary). A
    15-digit number starting 54 (a parcel's tracking number) is no Mastercard, whatever its
    checksum says."""
    two, four = int(digits[:2]), int(digits[:4])
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return len(digits) == 16
    if two in (34, 37):
        return len(digits) == 15
    if digits[0] == "4":
        return len(digits) in (13, 16, 19)
    return True


def _is_card_number(raw: str) -> bool:
    digits = re.sub(r"[ \-]", "", raw)
    return (
        13 <= len(digits) <= 19
        and _card_prefix_ok(digits)
        and _brand_length_ok(digits)
        and _luhn_ok(digits)
    )


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
    """The per-language words of `credo/data/secret_words.toml` (parsed once and kept in
    `credo.cache` where the command line enables it)."""
    from . import cache

    raw = resources.files("credo").joinpath("data/secret_words.toml").read_bytes()
    digest = hashlib.sha256(raw).hexdigest()[:32]
    words: dict[str, Any] = cache.kept("secret_words", digest, lambda: tomllib.loads(raw.decode()))
    return words


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


def _inflected(word: str) -> str:
    """A regular expression for `word` with any ending of up to three letters in place of
    its own (its last letter, or two for a word of six or more): the forms a language
    gives a word by its case, number or gender ("záložní kódy" reads "záložní kód",
    "резервні коди" reads "резервний код"). Words of three letters or fewer, and words
    with a digit, are kept as they are."""
    if len(word) < 4 or not word.isalpha():
        return re.escape(word)
    stem = word[: -2 if len(word) >= 6 else -1]
    return re.escape(stem) + r"[^\W\d_]{0,3}"


def _phrases(
    table: str, *, boundary: bool = True, skip: tuple[str, ...] = (), inflected: bool = False
) -> str:
    """A regular expression for every word or phrase of one `secret_words.toml` table, in
    all its languages: longest first, a space matching any run of blanks or a hyphen; with
    `inflected`, each word of a phrase of two words or more in any of its forms
    (`_inflected`)."""
    phrases = {p.lower() for key, words in _WORDS[table].items() if key not in skip for p in words}
    parts: list[str] = []
    cjk: list[str] = []
    # longest first; phrases of one length in alphabetical order, so that the pattern
    # is the same in every process (a set's order is not: its cached program is reused)
    for phrase in sorted(phrases, key=lambda p: (-len(p), p)):
        split = re.split(r"[ \-]+", phrase)
        if inflected and len(split) >= 2 and not _CJK.search(phrase):
            pieces = [_inflected(piece) for piece in split]
        else:
            pieces = [re.escape(piece) for piece in split]
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
        # a longer one before a colon: "WLAN-Schlüssel von der Fritzbox im Keller: X"
        alternatives.append(rf"[ \t]+(?i:{lang.preps})(?:[ \t]+[\w@'’\-]+){{4,6}}?(?=[ \t]*:)")
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
#: a router's printed key: eight capitals or more, five consonants in a row somewhere (no
#: word of capitals is so: "GECMXNVF", "KTRWPLDZ")
_ROUTER_KEY = r"(?=[A-Z]{8,32}(?![\w]))[A-Z]*[BCDFGHJKLMNPQRSTVWXZ]{5}[A-Z]*"
_MADE_UP_AHEAD = rf"(?=[^\s\"'`]*(?:\d|[!@#$%^&*+=~_\-/\\])|{_ROUTER_KEY})"


def label_then_value(
    label: str,
    value: str,
    connector: str,
    *,
    qualifier: str = "",
    words: str = "",
    most: int = 0,
    words_group: str | None = None,
    remark: str = "",
    connector_group: str | None = "conn",
    before_value: str = r"[\"'“«]?",
) -> str:
    """The regular expression every label-then-value reading is written with: `label`,
    what qualifies it (`qualifier`: "number" after an identity's label, a password's "for
    the bank"), up to `most` of `words` (fewest first, each after blanks: "the code to get
    in is ..."; the group `words_group` if named), a `remark` (in brackets), the
    `connector` (a colon, a dash, a verb: the group `connector_group` if named), what may
    stand before the value (an opening quote, or what is asked of the value ahead), then
    `value` (which names its own group)."""
    between = ""
    if most:
        between = rf"(?:[ \t]+{words}){{0,{most}}}?"
        if words_group is not None:
            between = rf"(?P<{words_group}>{between})"
    if connector_group is not None:
        connector = rf"(?P<{connector_group}>{connector})"
    return label + qualifier + between + remark + connector + before_value + value


def _language_pattern(lang: _Language, *, bare: bool = False) -> re.Pattern[str]:
    adverbs = rf"(?:[ \t]+(?i:{lang.adverbs}))?" if lang.adverbs else ""
    connector = rf"(?:{_SYMBOLIC}|[ \t]+(?i:{lang.verbs}){adverbs}[ \t]*:?[ \t]+)"
    if bare:  # the value straight after the label: "пароль от почты Zx9kLm2"
        connector = r"[ \t]+" + _MADE_UP_AHEAD
    return re.compile(
        label_then_value(
            _NOT_AFTER_LETTER + rf"(?P<label>(?i:{lang.labels}))" + _NOT_BEFORE_LETTER,
            _VALUE,
            connector,
            qualifier=_language_qualifier(lang),
            # a remark in brackets before the colon: "WLAN-Passwort (Aufkleber, unten): X"
            remark="" if bare else r"(?:[ \t]*\([^()\n]{1,80}\)(?=[ \t]*[:=]))?",
            before_value="",
        )
    )


#: labels too short or too common to take a value with no verb or colon after them
_WEAK_LABELS = frozenset({"pass", "pw", "pwd", "mdp", "clave", "пасс", "ww"})


def _bare_value_ok(value: str) -> bool:
    """A value said straight after its label ("wifi password Blue-Fox-77"): it must look
    made up: six characters or more, a letter, and a digit or a symbol."""
    if re.fullmatch(_ROUTER_KEY, value):
        return True  # "password GECMXNVF", as printed on a router
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


#: a release's version, with a pre-release or local part ("2.5.1+cu121", "v1.4.0-rc2")
_VERSION = re.compile(r"v?\d+(?:\.\d+){1,3}(?:[+\-][A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)?", re.I)


_VERSION_OR_DATE = re.compile(r"v?\d+(?:[.\-/]\d+)+[a-z]*|\d+(?:st|nd|rd|th|x|s|h|m|am|pm)", re.I)


def _plausible_bare_password(value: str, text: str, end: int) -> bool:
    lowered = value.lower()
    if len(value) < 3 or lowered in _NOT_A_VALUE or _PARTICIPLE.fullmatch(lowered):
        return False
    return _FOLLOWED_BY_UNIT.match(text, end) is None


_ARTICLES = r"the|el|la|le|il|lo|o|a|den|det|de|der|die|das"


#: a PIN's or a code's "is" in every language of `secret_words.toml` (the password tables
#: and the verbs `[made_up_passwords]` reads in the languages that have no table)
_CODE_VERBS = rf"{_ALL_VERBS}|is|was|are|were|lautet|c['’]est|era|sind|será|sera|" + "|".join(
    re.escape(v) for v in _WORDS["made_up_passwords"]["verbs"]
)


# "the pin is now 2231", "der Code ist jetzt 4821"
_CODE_ADVERBS = (
    r"now|still|currently|also|always|just|simply|jetzt|nun|noch|immer|maintenant|toujours"
    r"|ahora|todavía|todavia|ancora|adesso|ora|agora|ainda|nu|nog|fortfarande|nyt|edelleen|yhä"
    r"|teraz|nadal|теперь|сейчас|всё|все"
)


def alternatives(words: Iterable[str], *, spaced: bool = False) -> str:
    """`words` as one regular-expression alternation, longest first (a longer word wins
    over one it starts with); with `spaced`, a blank inside a phrase matches any run of
    blanks."""
    escaped = (re.escape(w) for w in sorted(words, key=len, reverse=True))
    return "|".join(e.replace(r"\ ", r"[ \t]+") if spaced else e for e in escaped)


def _bounded(words: Iterable[str], *, longest_first: bool = True) -> str:
    """A regular expression for any of `words` as a whole word (no letter, digit or
    underscore either side), longest first unless told."""
    body = alternatives(words) if longest_first else "|".join(re.escape(w) for w in words)
    return r"(?<![^\W_])(?:" + body + r")(?![^\W_])"


def stems(words: Iterable[str], *, more: int = 4) -> str:
    """A regular expression for any of `words` as the start of a word (with up to `more`
    letters after it: "arriv" reads "arrived", "mand" reads "mandou"); a word of Chinese,
    Japanese or Korean anywhere, as those scripts put no blank between words."""
    listed = sorted(set(words), key=lambda w: (-len(w), w))
    latin = [w for w in listed if not _CJK.search(w)]
    cjk = [w for w in listed if _CJK.search(w)]
    body = "|".join(re.escape(w).replace(r"\ ", r"[ \t]+") for w in latin)
    parts = [rf"(?<![^\W_])(?:{body})[^\W\d_]{{0,{more}}}(?![^\W_])"]
    if cjk:
        parts.append("|".join(re.escape(w) for w in cjk))
    return "(?i:" + "|".join(parts) + ")"


def one_slip(*words: str) -> str:
    """A regular expression for any of `words` as typed with one slip of the fingers: a
    letter left out, doubled, or swapped with the next ("pasword", "pascode", "passwrod",
    "passwword"), longest first. Only for long words whose slips are no other word."""
    typed: set[str] = set()
    for word in words:
        typed.add(word)
        for i in range(len(word)):
            typed.add(word[:i] + word[i + 1 :])
            typed.add(word[:i] + word[i] + word[i:])
            if i + 1 < len(word):
                typed.add(word[:i] + word[i + 1] + word[i] + word[i + 2 :])
    # longest first, one length in alphabetical order: the same pattern in every process
    # (a set's order is not), so that its compiled program is kept in `credo.cache`
    return "|".join(re.escape(w) for w in sorted(typed, key=lambda w: (-len(w), w)))


def _sentence_around(text: str, start: int, end: int) -> str:
    left = max(text.rfind(c, 0, start) for c in ".!?\n")
    right = [i for i in (text.find(c, end) for c in "!?\n") if i >= 0]
    return text[left + 1 : min(right, default=len(text))]


_DETERMINERS = (
    r"my|the|our|his|her|their|its|[A-Za-z]+'s|mein|meine|dein|deine|das|unser|unsere|sein"
    r"|seine|ihr|ihre|mon|ma|le|la|notre|son|sa|mi|el|nuestra|nuestro|tu|su|il|mia|mio|a|o"
    r"|minha|meu|nossa|mijn|het|de|ons|onze|zijn|mitt|min|vårt|vart|det|den|mitt|mit|moje"
    r"|moja|moje"
)


_A_DATE = re.compile(
    r"\d{4}[\-./]\d{1,2}[\-./]\d{1,2}|\d{1,2}[\-./]\d{1,2}[\-./]\d{2,4}|v?\d+(?:\.\d+)+"
)


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


_PUBLIC_WORD = re.compile(
    r"(?i)(?<![^\W_])(?:public|publique|p[úu]blic[ao]|pubblica|öffentlich\w*|offentlig\w*"
    r"|julkinen|publiczn\w*|публичн\w*|открыт\w*|公開|fingerprint|host[ \t]+key|publishable"
    # a CAPTCHA's site key is put in every page's HTML by design
    r"|site[ \t\-]?key|sitekey"
    # a key's fingerprint, in the languages of `secret_words.toml`
    r"|empreinte|huella|impronta|impress[ãa]o[ \t]+digital|vingerafdruk|fingeravtryck\w*"
    r"|sormenjälj\w*|sormenjälki|odcisk\w*|otisk\w*|отпечат\w*|відбит\w*|parmak[ \t]+izi"
    r"|address\w*|adresse|direcci[óo]n|indirizzo|endereço|adres|osoite|adress|адрес\w*)(?![^\W_])"
)
