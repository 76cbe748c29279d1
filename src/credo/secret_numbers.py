"""Identity, bank and card numbers: IBANs (their checksum and their country's length), US
social security numbers, passport numbers, payment cards (Luhn and an issuer's prefix, or
said with an expiry or check digits), and identity and account numbers after their label
in any language of `credo/data/secret_words.toml`. A business's own tax number, IBAN or
account (printed on its invoices) is not a secret. Numbers read by their country's check
digits anywhere in their label's sentence are `credo.secret_shapes`'s.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator

# `re`, with the compiled programs of the patterns below kept between processes when the
# command line enables credo.cache (compiling them is half a second of every cold start)
from . import cached_re as re
from .id_checksums import national_id_ok, nordic_id_ok
from .secret_base import (
    _A_DATE,
    _ARTICLES,
    _CODE_VERBS,
    _IBAN_LENGTHS,
    _WORDS,
    SecretFinding,
    _bounded,
    _card_prefix_ok,
    _is_card_number,
    _is_yyyymmdd,
    _luhn_ok,
    _passport_like,
    _phrases,
    _sentence_around,
    _ssn_ok,
    _without_mask_tags,
    iban_checksum_ok,
    label_then_value,
    stems,
)

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
    line_start = text.rfind("\n", 0, start) + 1
    if line_start and len(text[line_start:start].split()) <= 2:
        # a form's field ("Pay to: Studio Kalm BV" / "IBAN NL95 ..."): the payee is named
        # on the line before the number's
        previous = text[text.rfind("\n", 0, line_start - 1) + 1 : line_start]
        near += " " + " ".join(previous.split()[-3:])
        sentence += " " + previous
    return bool(_COMPANY.search(near)) and not _MINE.search(sentence + " " + between)


#: a business's name in brackets straight after a number ("52359169916 (Horvat d.o.o.)")
_NAMED_AFTER = re.compile(r"[ \t]*\(([^()\n]{1,80})\)")


def a_business_id(text: str, label_end: int, start: int, end: int) -> bool:
    """Whether the identity number at `text[start:end]`, its label ending at `label_end`,
    is a business's: a word for a company between the label and the number ("OIB tvrtke
    s računa: ...", "NIF de la empresa: ...") or a business's legal form in brackets
    after it ("... (Vodoinstalater Horvat d.o.o.)"), and no word of the speaker's in its
    sentence. Some countries give a company the same number as a person (Croatia's OIB,
    Portugal's NIF); a company prints its own on every invoice."""
    after = _NAMED_AFTER.match(text, end)
    # the brackets hold a business's name: they end in its legal form
    name = after.group(1).strip() if after is not None else ""
    named = _COMPANY.search(text, label_end, start) or any(
        f.end() == len(name) for f in _COMPANY.finditer(name)
    )
    if not named:
        return False
    sentence = re.split(r"[.!?;\n]", text[max(0, label_end - 120) : label_end])[-1]
    return not _MINE.search(sentence + " " + text[label_end:start])


# "it's printed on all my invoices anyway", "die steht eh auf jeder Rechnung": the sentence
# says the number is printed for anyone to read (`[published]`)
_PUBLISHED = re.compile(
    "(?i)" + _phrases("published", skip=("payments", "into", "invoices", "references"))
)


# "Rechnung Nr. 2024-0457: bitte überweisen Sie ... auf IBAN ...", "Рахунок №118 ...": the
# text is an invoice, or asks to pay one (`[published] invoices`); Russian and Ukrainian
# "счёт", "рахунок" are an account too, and name an invoice only with its number sign
_INVOICE = re.compile(
    "(?i)"
    + _phrases(
        "published",
        skip=("payments", "into", *_WORDS["published"].keys() - {"invoices", "references"}),
    )
    + r"|(?<![^\W_])(?:сч[её]т|рахунок)[ \t]*(?:№|N[o°]?\.?)[ \t]*\d"
)


# "transfer uang arisan ke rekening BCA ...", "pay the deposit into account ...": the
# listener is told to pay into the account, which is then the payee's
_PAY_INTO = re.compile(
    "(?i)"
    + _bounded(_WORDS["published"]["payments"])
    + r"[^.!?;\n]{0,40}?"
    + _bounded(_WORDS["published"]["into"])
    + r"[^.!?;\n]{0,40}$"
)


# "pay me back for the invoice to ...", "überweis mir ...": the speaker is paid, into theirs
_TO_ME = re.compile(
    r"(?i)(?<![^\W_])(?:me|mir|mich|moi|mij|mig|mnie|мне|мені|bana|minulle|nekem)(?![^\W_])"
)


def _on_an_invoice(text: str, start: int, end: int) -> bool:
    """Whether the IBAN at `text[start:end]` is an invoice's: the text names an invoice
    (or a bill to pay) and no word of the speaker's ("my", "mein") is in the IBAN's
    sentence. A business prints its IBAN on every invoice it sends; a person's own IBAN
    said for a refund or a salary names no invoice ("my IBAN for the invoice" is still
    the speaker's)."""
    if not _INVOICE.search(text):
        return False
    sentence = _sentence_around(text, start, end)
    left = max(text.rfind(c, 0, start) for c in ".!?\n") + 1
    clause = text[left:start] + re.split(r"[,;:.!?\n]", text[end : end + 80])[0]
    return not _MINE.search(sentence) and not _TO_ME.search(clause)


def _shared_to_be_paid(text: str, start: int, end: int, *, iban: bool = False) -> bool:
    """Whether the bank number at `text[start:end]` is given to be paid into: its sentence
    says it is printed for anyone to read ("it's on all my invoices anyway"), or, for an
    account number after its label, tells the listener to pay into it with no word of the
    speaker's in its clause ("transfer ... ke rekening BCA ... a.n. Siti"; not "transfer
    the rent to my account ..."). An IBAN said to pay into is still masked ("Pay the rent
    to DE44 ..."): its shape alone names it, with no label saying whose it is."""
    sentence = _sentence_around(text, start, end)
    if _PUBLISHED.search(sentence):
        return True
    if iban:
        return False
    left = max(text.rfind(c, 0, start) for c in ".!?\n") + 1
    before = text[left:start]
    clause = before + re.split(r"[,;:.!?\n]", text[end : end + 80])[0]
    return bool(_PAY_INTO.search(before)) and not _MINE.search(clause)


#: a stop and a blank, or a line break: where a sentence may end
_STOP = re.compile(r"[.!?](?=\s)|\n")


def _sentence_ends(text: str, start: int, end: int) -> Iterator[int]:
    """Where sentences end in `text[start:end]`: a line break, or a stop and a blank that
    closes no abbreviation (a dotted one, "A.Ş.", "d.o.o.", or a business's legal form,
    "Ltd. Şti. ile", "Sp. z o.o.")."""
    for m in _STOP.finditer(text, start, end):
        if m.group(0) != "\n":
            word = text[text.rfind(" ", 0, m.start()) + 1 : m.end()]
            if "." in word[:-1] or _COMPANY.fullmatch(word) or _COMPANY.fullmatch(word[:-1]):
                continue
        yield m.start()


#: "pay", "transfer", "for payment" in the languages of `[published] payments`
_PAYMENT = re.compile("(?i)" + _bounded(_WORDS["published"]["payments"]))


def _paid_to_a_business(text: str, start: int, end: int) -> bool:
    """Whether the IBAN at `text[start:end]` is a business's given to be paid into: its
    sentence names a business (`[companies]`: a word for one or its legal form, "A.Ş.",
    "S.L.", "d.o.o.") and a payment ("pay", "yatır", "za uplatu"), and no word of the
    speaker's ("my") nor the speaker as the one paid ("pay me"). A business's account is
    printed for whoever pays it; a person's own IBAN said to be paid into is masked."""
    left = max((i + 1 for i in _sentence_ends(text, 0, start)), default=0)
    right = next(_sentence_ends(text, end, len(text)), len(text))
    sentence = text[left:right]
    return (
        _COMPANY.search(sentence) is not None
        and _PAYMENT.search(sentence) is not None
        and not _MINE.search(sentence)
        and not _TO_ME.search(sentence)
    )


#: a gift to a charity, a parish, a food bank (`[donations]`)
_DONATIONS = re.compile(stems(_WORDS["donations"]["all"]))


def _given_to(text: str, start: int, end: int) -> bool:
    """Whether the IBAN at `text[start:end]` is where gifts go: its sentence says donations
    are paid into it, and no word of the speaker's ("my") nor the speaker as the one paid
    ("give me"). A charity publishes its account for whoever gives; a person's own IBAN
    for a collection among friends is masked ("donations for the party to my IBAN")."""
    sentence = _sentence_around(text, start, end)
    return (
        _DONATIONS.search(sentence) is not None
        and not _MINE.search(sentence)
        and not _TO_ME.search(sentence)
    )


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
        if not iban_checksum_ok("".join(compact)) or _a_companys(text, m.start()):
            continue
        if _on_an_invoice(text, m.start(), i):
            continue
        if _paid_to_a_business(text, m.start(), i) or _given_to(text, m.start(), i):
            continue
        if not _shared_to_be_paid(text, m.start(), i, iban=True):
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
        before = plain[max(0, m.start() - 48) : m.start()]
        after = plain[m.end() : m.end() + 32]
        labelled = _SSN_LABEL.search(before) or _SSN_LABEL.search(after)
        if m.group("s") != "-" and not labelled:
            continue
        if not labelled and _NOT_CARD_WORD.search(_SENTENCE_BREAK.split(before)[-1]):
            continue  # "customer number ... 400-77-1893": another number in an SSN's shape
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


# Identity and account numbers after their label, in any language of `secret_words.toml`:
# "my NI number is WE 66 77 57 D", "mój PESEL to 93120533929", "паспорт: 34 17 793212".
_NUMBER_WORD = (
    r"(?:[ \t]*(?i:number|no\.?|nr\.?|n\.|n[º°o]\.?|\#|nummer|numero|número|numéro|номер"
    r"|नंबर|संख्या|번호|号码|号))?"
)


_ID_NUMBER = r"(?P<v>[A-Z0-9]{1,24}(?:[ \-./][A-Z0-9]{1,12}){0,6})(?![A-Za-z0-9_\-]|[.,/]\d)"


def _labelled_number_pattern(table: str) -> re.Pattern[str]:
    return re.compile(
        label_then_value(
            rf"(?i:(?P<label>{_phrases(table)}))",
            _ID_NUMBER,
            # a colon, a dash, a Japanese, Chinese or Korean particle, a verb, or a blank
            r"[ \t]*(?::|=|-|–|—|：|は|是|为|는|은|이|가)[ \t]*"
            + rf"|[ \t]+(?i:{_CODE_VERBS}|are)"
            + rf"(?:[ \t]+(?i:{_ARTICLES}))?[ \t]*:?[ \t]*"
            # "the national insurance no. — it's ...", "tax id, that's ..."
            + r"|[ \t]*[,;:\-–—]*[ \t]+(?i:it['’]?s|it[ \t]+is|that['’]?s|which[ \t]+is)[ \t]+"
            # ... and in other languages, a demonstrative and its verb after a comma: "mijn
            # BSN, dat is ...", "meine Steuer-ID, das ist ...", "мой ИНН, это ..."
            + r"|[ \t]*[,;:\-–—]+[ \t]*(?i:dat|das|det|dies|ce|esto|eso|ese|questo|quello|isso"
            + r"|isto|это|то|tämä|se|to|bu|ito)[ \t]+(?:"
            + rf"(?i:{_CODE_VERBS})[ \t]+)?"
            + r"|[ \t]+",
            qualifier=_NUMBER_WORD,
            words=r"(?i:[^\W\d_][\w'’\-]{0,19})",
            most=3,
            words_group="q",
        )
    )


def _mykad_ok(value: str) -> bool:
    return national_id_ok(re.sub(r"[ \-./]", "", value), "ms")


#: identity labels that also name something else, and the check their number must pass:
#: a booking (an Indian railway's or an airline's PNR) a Nordic personal number's date and
#: check digit; a chip ("the IC on the board is ...") a MyKad number's date and place
_AMBIGUOUS_LABELS: dict[str, Callable[[str], bool]] = {
    "pnr": nordic_id_ok,
    "ic": _mykad_ok,
    "no ic": _mykad_ok,
    "no. ic": _mykad_ok,
}


_NUMBER_NAME = re.compile(r"(?i)(?:num|nr|no\b|n[º°]|\#|номер|番号)")


_LABELLED_NUMBERS = (
    ("national_id", _labelled_number_pattern("national_ids")),
    ("passport_number", _labelled_number_pattern("passports")),
    ("bank_account", _labelled_number_pattern("bank_accounts")),
)


_SSN_SHAPE = re.compile(r"(\d{3})[ \-]?(\d{2})[ \-]?(\d{4})")


def _an_iban(value: str) -> bool:
    """Whether `value` is an IBAN: its country's length and its check digits."""
    compact = re.sub(r"[ \t\-]", "", value).upper()
    return (
        re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", compact) is not None
        and _IBAN_LENGTHS.get(compact[:2]) == len(compact)
        and iban_checksum_ok(compact)
    )


def _labelled_numbers(text: str) -> Iterator[SecretFinding]:
    for kind, pattern in _LABELLED_NUMBERS:
        for m in pattern.finditer(text):
            value = m.group("v")
            q = m.group("q")
            if not m.group("conn").strip() and q and not _MINE.fullmatch(q.strip()):
                continue  # "social media 12000": words between, no verb, no colon (but a
                # possessive after its noun, "NIK aku ...", is the speaker's own number)
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
            if _an_iban(value):
                continue  # "... social: ES83 1490 ...": an IBAN, `_ibans` judges it
            check = _AMBIGUOUS_LABELS.get(" ".join(m.group("label").lower().split()))
            if check is not None and not check(value):
                continue  # "the train's PNR 4521...": a booking, not a personal number
            business_number = kind == "bank_account" or _TAX_LABEL.fullmatch(m.group("label"))
            if business_number and _a_companys(text, m.start(), m.group("q")):
                continue  # "şirketin vergi numarası ...": a business's, on its invoices
            if kind == "national_id" and a_business_id(
                text, m.end("label"), m.start("v"), m.end("v")
            ):
                continue  # "OIB tvrtke: ...": a company's number, printed on its invoices
            if kind == "bank_account" and (
                _shared_to_be_paid(text, m.start("v"), m.end("v"))
                or _on_an_invoice(text, m.start("v"), m.end("v"))
            ):
                continue  # "it's on all my invoices anyway", an invoice's: given to be paid
            ssn = _SSN_SHAPE.fullmatch(value)
            if ssn and _SSN_LABEL.fullmatch(m.group("label")) and not _ssn_ok(*ssn.groups()):
                continue  # a number the SSA never issues: an example, not a person's
            yield SecretFinding(kind, m.start("v"), m.end("v"))


# A US bank account said after its bank's routing number ("routing 0xxxxxxxx account
# 1xxxxxxxxx", "ABA: ... acct ..."), or before it: the routing number passes the ABA check
# (3-7-1 weights), and the account's number is the one next to it. A routing number alone
# is public (it names a bank, printed on every cheque); the account is not.
_ROUTING_WORD = r"(?:routing|aba|rtn|routing[ \t]+(?:no\.?|number|#))"
_ACCOUNT_WORD = r"(?:account|acct|acc|a/c)(?:[ \t]+(?:no\.?|number|nr\.?|#))?"
_ROUTING_AND_ACCOUNT = re.compile(
    rf"(?i)(?<![^\W_]){_ROUTING_WORD}[ \t]*[:#=]?[ \t]*(?P<r>\d{{9}})(?!\d)"
    rf"[ \t,;/&]*(?:and[ \t]+|plus[ \t]+)?{_ACCOUNT_WORD}[ \t]*[:#=]?[ \t]*"
    r"(?P<v>\d{4,17})(?![\w\-])"
    rf"|(?<![^\W_]){_ACCOUNT_WORD}[ \t]*[:#=]?[ \t]*(?P<v2>\d{{4,17}})(?!\d)"
    rf"[ \t,;/&]*(?:and[ \t]+|plus[ \t]+)?{_ROUTING_WORD}[ \t]*[:#=]?[ \t]*"
    r"(?P<r2>\d{9})(?![\w\-])"
)


def aba_routing_ok(number: str) -> bool:
    """Whether nine digits pass the ABA routing number's check (weights 3, 7, 1)."""
    if len(number) != 9 or not number.isdigit():
        return False
    weights = (3, 7, 1) * 3
    return sum(int(d) * w for d, w in zip(number, weights, strict=True)) % 10 == 0


def _accounts_by_routing(text: str) -> Iterator[SecretFinding]:
    for m in _ROUTING_AND_ACCOUNT.finditer(text):
        group = "v" if m.group("v") is not None else "v2"
        if not aba_routing_ok(m.group("r") or m.group("r2")):
            continue
        if _shared_to_be_paid(text, m.start(group), m.end(group)) or _on_an_invoice(
            text, m.start(group), m.end(group)
        ):
            continue  # a business's, given to be paid
        yield SecretFinding("bank_account", m.start(group), m.end(group))


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
    # an issuer's prefix, or the checksum (a card of an issuer not listed, a new range)
    if not 15 <= len(digits) <= 16 or not (_card_prefix_ok(digits) or _luhn_ok(digits)):
        return False
    sentence = _sentence_around(text, m.start(), m.end())
    if not _CARD_CONTEXT.search(sentence):
        return False
    # "4532 ... is the tracking id; it expires": a word saying what else the number is,
    # unless a card is named before the number ("my card for the booking: ...")
    before = text[max(0, m.start() - 48) : m.start()]
    return not _NOT_CARD_WORD.search(sentence) or bool(_CARD_WORD.search(before))
