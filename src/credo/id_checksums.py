"""Check digits of national identity numbers: a number that passes its country's check is
an identity number when its label is in the same sentence, whatever words lie between
(`credo.secret_shapes`), and a booking reference called "PNR" that fails the Nordic
checks is not a personal number (`credo.secret_numbers`).

Each function takes the number's digits (and letters) with blanks, dots and hyphens
removed, and says whether it has that number's shape and check digits.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

__all__ = ["national_id_ok", "nordic_id_ok"]


def _date_ok(year: int, month: int, day: int) -> bool:
    try:
        datetime.date(year, month, day)
    except ValueError:
        return False
    return True


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _turkish(n: str) -> bool:
    """T.C. kimlik numarası: 11 digits, two check digits."""
    if len(n) != 11 or not n.isdigit() or n[0] == "0":
        return False
    d = [int(c) for c in n]
    tenth = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    return d[9] == tenth and d[10] == sum(d[:10]) % 10


def _french(n: str) -> bool:
    """NIR (numéro de sécurité sociale): 13 digits and a key of 97 (Corsica's 2A/2B)."""
    n = n.upper().replace("2A", "19", 1).replace("2B", "18", 1)
    if len(n) != 15 or not n.isdigit() or n[0] not in "12378":
        return False
    return 97 - int(n[:13]) % 97 == int(n[13:])


def _polish(n: str) -> bool:
    """PESEL: 11 digits, weights 1 3 7 9."""
    if len(n) != 11 or not n.isdigit():
        return False
    total = sum(int(c) * w for c, w in zip(n[:10], (1, 3, 7, 9, 1, 3, 7, 9, 1, 3), strict=True))
    return (10 - total % 10) % 10 == int(n[10])


def _dutch(n: str) -> bool:
    """BSN: 9 digits passing the eleven test."""
    if len(n) != 9 or not n.isdigit() or n == "0" * 9:
        return False
    total = sum(int(c) * w for c, w in zip(n[:8], range(9, 1, -1), strict=True)) - int(n[8])
    return total % 11 == 0


def _swedish(n: str) -> bool:
    """Personnummer (or samordningsnummer): YYMMDDNNNC or YYYYMMDDNNNC, Luhn."""
    if len(n) == 12 and n.isdigit():
        n = n[2:]
    if len(n) != 10 or not n.isdigit() or not _luhn_ok(n):
        return False
    day = int(n[4:6])
    return _date_ok(2000, int(n[2:4]), day - 60 if day > 60 else day)


def _norwegian(n: str) -> bool:
    """Fødselsnummer: DDMMYYNNNKK, two mod-11 check digits."""
    if len(n) != 11 or not n.isdigit():
        return False
    d = [int(c) for c in n]
    w1, w2 = (3, 7, 6, 1, 8, 9, 4, 5, 2), (5, 4, 3, 2, 7, 6, 5, 4, 3, 2)
    k1 = (11 - sum(a * b for a, b in zip(d, w1, strict=False)) % 11) % 11
    k2 = (11 - sum(a * b for a, b in zip(d, w2, strict=False)) % 11) % 11
    return k1 == d[9] and k2 == d[10] and _date_ok(2000, int(n[2:4]), int(n[:2]) % 40)


def _danish(n: str) -> bool:
    """CPR-nummer: DDMMYY and four digits (no check digit since 2007: the date only)."""
    return len(n) == 10 and n.isdigit() and _date_ok(2000, int(n[2:4]), int(n[:2]))


_HETU_CHECK = "0123456789ABCDEFHJKLMNPRSTUVWXY"


def _finnish(n: str) -> bool:
    """Henkilötunnus: DDMMYY, a century sign, NNN and a check character (mod 31)."""
    n = n.upper()
    if len(n) == 10:  # its "-" read as a separator
        n = n[:6] + "-" + n[6:]
    if len(n) != 11 or not (n[:6] + n[7:10]).isdigit() or n[6] not in "+-ABCDEFUVWXY":
        return False
    ok_date = _date_ok(2000, int(n[2:4]), int(n[:2]))
    return ok_date and _HETU_CHECK[int(n[:6] + n[7:10]) % 31] == n[10]


_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def _spanish(n: str) -> bool:
    """DNI (8 digits and a letter) or NIE (X, Y or Z, 7 digits, a letter)."""
    n = n.upper()
    if len(n) != 9 or not n[-1].isalpha():
        return False
    body = n[:-1]
    if body[0] in "XYZ":
        body = str("XYZ".index(body[0])) + body[1:]
    return body.isdigit() and _DNI_LETTERS[int(body) % 23] == n[-1]


def _brazilian(n: str) -> bool:
    """CPF: 11 digits, two mod-11 check digits."""
    if len(n) != 11 or not n.isdigit() or len(set(n)) == 1:
        return False
    d = [int(c) for c in n]
    for k in (9, 10):
        total = sum(a * b for a, b in zip(d[:k], range(k + 1, 1, -1), strict=True))
        if (total * 10 % 11) % 10 != d[k]:
            return False
    return True


def _russian_snils(n: str) -> bool:
    """СНИЛС: 9 digits and a two-digit check."""
    if len(n) != 11 or not n.isdigit():
        return False
    total = sum(int(c) * w for c, w in zip(n[:9], range(9, 0, -1), strict=True))
    check = total % 101 % 100
    return check == int(n[9:])


def _dihedral(i: int, j: int) -> int:
    """The product of `i` and `j` in the dihedral group D5 (rotations 0-4, reflections
    5-9): Verhoeff's multiplication table."""
    if i < 5:
        return (i + j) % 5 if j < 5 else 5 + (i + j) % 5
    return 5 + (i - j) % 5 if j < 5 else (i - j) % 5


# the Verhoeff tables (Aadhaar's check digit): D5's multiplication, and the powers of the
# permutation (0 1 5 8 9 4 2 7)(3 6) applied position by position
_V_D = [[_dihedral(i, j) for j in range(10)] for i in range(10)]
_V_P = [list(range(10)), [1, 5, 7, 6, 2, 8, 3, 0, 9, 4]]
while len(_V_P) < 8:
    _V_P.append([_V_P[-1][k] for k in _V_P[1]])


def _indian(n: str) -> bool:
    """Aadhaar: 12 digits, not starting with 0 or 1, Verhoeff check digit."""
    if len(n) != 12 or not n.isdigit() or n[0] in "01":
        return False
    c = 0
    for i, ch in enumerate(reversed(n)):
        c = _V_D[c][_V_P[i % 8][int(ch)]]
    return c == 0


_CN_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def _chinese(n: str) -> bool:
    """居民身份证号码: a region, a birth date (YYYYMMDD), a sequence, and an ISO 7064
    MOD 11-2 check character (X for ten)."""
    n = n.upper()
    if len(n) != 18 or not n[:17].isdigit() or not (n[17].isdigit() or n[17] == "X"):
        return False
    if not _date_ok(int(n[6:10]), int(n[10:12]), int(n[12:14])):
        return False
    total = sum(int(c) * w for c, w in zip(n[:17], _CN_WEIGHTS, strict=True))
    return "10X98765432"[total % 11] == n[17]


def _korean(n: str) -> bool:
    """주민등록번호: YYMMDD, a digit for sex and century, six more (the last was a check
    digit until 2020, and is random since: the date and the century digit only)."""
    if len(n) != 13 or not n.isdigit() or n[6] not in "12345678":
        return False
    century = 1900 if n[6] in "1256" else 2000
    return _date_ok(century + int(n[:2]), int(n[2:4]), int(n[4:6]))


def _canadian_sin(n: str) -> bool:
    """Social Insurance Number: nine digits, Luhn, never starting with 0 or 8."""
    return len(n) == 9 and n.isdigit() and n[0] not in "08" and _luhn_ok(n)


def _indonesian_nik(n: str) -> bool:
    """NIK: sixteen digits, a province (11-94), a district, then the birth date DDMMYY
    (40 added to a woman's day), then a serial (no check digit)."""
    if len(n) != 16 or not n.isdigit() or not 11 <= int(n[:2]) <= 94:
        return False
    day, month, year = int(n[6:8]) % 40, int(n[8:10]), int(n[10:12])
    return _date_ok(1900 + year, month, day) or _date_ok(2000 + year, month, day)


def _vietnamese_cccd(n: str) -> bool:
    """Căn cước (CCCD): twelve digits, a province code (001-096), a digit for sex and
    century (0-3: born 1900-2099), then the year (no check digit)."""
    return len(n) == 12 and n.isdigit() and 1 <= int(n[:3]) <= 96 and n[3] in "0123"


def _saudi(n: str) -> bool:
    """Saudi national (1...) or resident (2...) identity number: ten digits, Luhn."""
    return len(n) == 10 and n.isdigit() and n[0] in "12" and _luhn_ok(n)


def _greek_amka(n: str) -> bool:
    """ΑΜΚΑ: eleven digits, the birth date DDMMYY first, Luhn."""
    if len(n) != 11 or not n.isdigit() or not _luhn_ok(n):
        return False
    day, month, year = int(n[:2]), int(n[2:4]), int(n[4:6])
    return _date_ok(1900 + year, month, day) or _date_ok(2000 + year, month, day)


def _israeli(n: str) -> bool:
    """Teudat zehut: nine digits (shorter ones are written with leading zeros), Luhn."""
    return len(n) == 9 and n.isdigit() and int(n) > 0 and _luhn_ok(n)


def _romanian_cnp(n: str) -> bool:
    """CNP (cod numeric personal): 13 digits, a sex and century digit, the birth date
    YYMMDD, a county, a sequence and a check digit of weights 279146358279 (mod 11, 10
    written 1)."""
    if len(n) != 13 or not n.isdigit() or n[0] == "0":
        return False
    total = sum(int(c) * int(w) for c, w in zip(n[:12], "279146358279", strict=True))
    check = total % 11
    return (1 if check == 10 else check) == int(n[12]) and _date_ok(
        2000, int(n[3:5]) or 13, int(n[5:7]) or 32
    )


def _hungarian_taj(n: str) -> bool:
    """TAJ szám: nine digits, the first eight weighted 3 and 7 in turn, their sum's last
    digit the ninth."""
    if len(n) != 9 or not n.isdigit() or len(set(n)) == 1:
        return False
    total = sum(int(c) * (3 if i % 2 == 0 else 7) for i, c in enumerate(n[:8]))
    return total % 10 == int(n[8])


def _iranian(n: str) -> bool:
    """کد ملی (Iran's national code): ten digits, weights 10 down to 2, a mod-11 check."""
    if len(n) != 10 or not n.isdigit() or len(set(n)) == 1:
        return False
    rest = sum(int(n[i]) * (10 - i) for i in range(9)) % 11
    return int(n[9]) == (rest if rest < 2 else 11 - rest)


def _thai(n: str) -> bool:
    """เลขประจำตัวประชาชน (Thai identity number): thirteen digits, weights 13 down to 2,
    a mod-11 check."""
    if len(n) != 13 or not n.isdigit() or n[0] in "09":
        return False
    total = sum(int(n[i]) * (13 - i) for i in range(12))
    return (11 - total % 11) % 10 == int(n[12])


def _croatian_oib(n: str) -> bool:
    """OIB (Croatia's personal identification number): eleven digits, ISO 7064's MOD 11,10
    check."""
    if len(n) != 11 or not n.isdigit() or len(set(n)) == 1:
        return False
    rest = 10
    for c in n[:10]:
        rest = (rest + int(c)) % 10 or 10
        rest = rest * 2 % 11
    return (11 - rest) % 10 == int(n[10])


def _jmbg(n: str) -> bool:
    """JMBG (the former Yugoslavia's citizen number, still Serbia's, Bosnia's, North
    Macedonia's and Montenegro's): thirteen digits, the birth date first, a mod-11 check."""
    if len(n) != 13 or not n.isdigit():
        return False
    day, month, year = int(n[:2]), int(n[2:4]), int(n[4:7])
    if not _date_ok(1000 + year if year >= 800 else 2000 + year, month, day):
        return False
    weights = (7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2)
    rest = 11 - sum(int(c) * w for c, w in zip(n[:12], weights, strict=True)) % 11
    return (0 if rest > 9 else rest) == int(n[12])


#: a Malaysian state's or a country's code of birth in a MyKad number (its 7th and 8th
#: digits): the states 01-16, the other codes 21-59, then 60-68, 71-72, 74-79, 82-99
_MYKAD_PLACES = frozenset(
    [*range(1, 17), *range(21, 60), *range(60, 69), 71, 72, *range(74, 80), *range(82, 100)]
)


def _malaysian_mykad(n: str) -> bool:
    """MyKad (Malaysia's identity card number): twelve digits, the birth date (YYMMDD) and
    the code of the state or country of birth; no check digit."""
    if len(n) != 12 or not n.isdigit():
        return False
    return _date_ok(2000, int(n[2:4]), int(n[4:6])) and int(n[6:8]) in _MYKAD_PLACES


_RNOKPP_WEIGHTS = (-1, 5, 7, 9, 4, 6, 10, 5, 7)


def _ukrainian_rnokpp(n: str) -> bool:
    """РНОКПП: ten digits, the first five the birth date (days since 1899-12-31, so at most
    about 47000 today); its check digit, or that date alone (numbers are quoted without
    their check often enough that the date is what is read)."""
    if len(n) != 10 or not n.isdigit():
        return False
    total = sum(int(c) * w for c, w in zip(n[:9], _RNOKPP_WEIGHTS, strict=True))
    return total % 11 % 10 == int(n[9]) or 0 < int(n[:5]) <= 47000


def _chilean_rut(n: str) -> bool:
    """RUT / RUN (Chile's tax and identity number): seven or eight digits and a mod-11
    check digit, "K" for ten."""
    body, check = n[:-1], n[-1].upper()
    if not 7 <= len(body) <= 8 or not body.isdigit() or len(set(body)) == 1:
        return False
    total = sum(int(c) * (2 + i % 6) for i, c in enumerate(reversed(body)))
    rest = 11 - total % 11
    return check == {11: "0", 10: "K"}.get(rest, str(rest))


def _bulgarian_egn(n: str) -> bool:
    """ЕГН (Bulgaria's civil number): ten digits, the birth date first (its month plus 20
    for the 1800s, plus 40 for the 2000s), a weighted mod-11 check."""
    if len(n) != 10 or not n.isdigit():
        return False
    year, month, day = int(n[:2]), int(n[2:4]), int(n[4:6])
    century = 2000 if month > 40 else 1800 if month > 20 else 1900
    if not _date_ok(century + year, month % 20, day):
        return False
    weights = (2, 4, 8, 5, 10, 9, 7, 3, 6)
    return sum(int(c) * w for c, w in zip(n[:9], weights, strict=True)) % 11 % 10 == int(n[9])


#: the number each first letter of a Taiwanese identity number stands for
_TAIWAN_LETTERS = {c: v for v, c in enumerate("ABCDEFGHJKLMNPQRSTUVXYWZIO", start=10)}


def _taiwanese(n: str) -> bool:
    """Taiwan's national identification number: a letter (where it was issued), 1 or 2
    (or 8 or 9 for a resident), eight digits, a weighted mod-10 check."""
    if len(n) != 10 or n[0].upper() not in _TAIWAN_LETTERS or not n[1:].isdigit():
        return False
    if n[1] not in "1289":
        return False
    tens, ones = divmod(_TAIWAN_LETTERS[n[0].upper()], 10)
    weights = (8, 7, 6, 5, 4, 3, 2, 1, 1)
    total = tens + ones * 9 + sum(int(c) * w for c, w in zip(n[1:], weights, strict=True))
    return total % 10 == 0


#: the characters of a German identity card's or passport's serial (no vowels, no B, D, Q, S)
_GERMAN_SERIAL = re.compile(r"[CFGHJKLMNPRTVWXYZ0-9]{9}[0-9]")


def _german_id_card(n: str) -> bool:
    """The serial number of a German identity card (Personalausweis) or passport: nine
    characters of its alphabet, then a check digit (weights 7, 3, 1; a letter counts as
    its place in the alphabet plus 9), a digit among the nine."""
    n = n.upper()
    if not _GERMAN_SERIAL.fullmatch(n) or not any(c.isdigit() for c in n[:9]):
        return False
    values = [int(c) if c.isdigit() else ord(c) - 55 for c in n[:9]]
    weights = (7, 3, 1) * 3
    return sum(v * w for v, w in zip(values, weights, strict=True)) % 10 == int(n[9])


def _german_tax_id(n: str) -> bool:
    """Germany's Steuer-ID: eleven digits, not starting with 0, one digit twice or three
    times among the first ten, an ISO 7064 MOD 11,10 check."""
    if len(n) != 11 or not n.isdigit() or n[0] == "0":
        return False
    counts = sorted((n[:10].count(d) for d in set(n[:10])), reverse=True)
    if counts[0] not in (2, 3) or counts[1:2] == [counts[0]]:
        return False
    product = 10
    for c in n[:10]:
        total = (int(c) + product) % 10 or 10
        product = (total * 2) % 11
    return (11 - product) % 10 == int(n[10])


#: the checks a label of each language of `[national_ids]` reads; a label of another
#: language reads those of 11 digits or more (a 9-digit SSN is no Dutch BSN)
_BY_LANGUAGE: dict[str, tuple[Callable[[str], bool], ...]] = {
    "tr": (_turkish,),
    "fr": (_french,),
    "pl": (_polish,),
    "nl": (_dutch,),
    "sv": (_swedish,),
    "da_no": (_norwegian, _swedish),
    "fi": (_finnish,),
    "es": (_spanish, _chilean_rut),
    "pt": (_brazilian,),
    "ru": (_russian_snils,),
    "hi": (_indian,),
    "zh": (_chinese, _taiwanese),
    "ko": (_korean,),
    "ca": (_canadian_sin,),
    "id": (_indonesian_nik,),
    "vi": (_vietnamese_cccd,),
    "uk": (_ukrainian_rnokpp,),
    "el": (_greek_amka,),
    "he": (_israeli,),
    "ro": (_romanian_cnp,),
    "hu": (_hungarian_taj,),
    "fa": (_iranian,),
    "th": (_thai,),
    "hr": (_croatian_oib, _jmbg),
    "ms": (_malaysian_mykad,),
    "bg": (_bulgarian_egn,),
    "ta": (_indian,),
}
_LONG = (_turkish, _french, _polish, _norwegian, _brazilian, _russian_snils, _indian, _chinese)
# Arabic labels: a Saudi number, or (Egypt's and others') those of 11 digits or more
_BY_LANGUAGE["ar"] = (_saudi, *_LONG)
# German labels: an identity card's serial, the tax id, or those of 11 digits or more
_BY_LANGUAGE["de"] = (_german_id_card, _german_tax_id, *_LONG)


def national_id_ok(compact: str, language: str) -> bool:
    """Whether `compact` passes the check of an identity number of `language` (a key of
    `[national_ids]` in `credo/data/secret_words.toml`)."""
    return any(check(compact) for check in _BY_LANGUAGE.get(language, _LONG))


_NORDIC_SHAPE = re.compile(r"(?:\d{2})?(\d{2})(\d{2})(\d{2})[-+]\d{4}")


def nordic_id_ok(value: str) -> bool:
    """Whether `value` is a Swedish, Norwegian or Danish personal number (its date and,
    where it has one, its check digit), or is written as one ("900314-2386"): "pnr"
    also names a booking reference."""
    shaped = _NORDIC_SHAPE.fullmatch(value)
    if shaped and _date_ok(2000, int(shaped.group(2)), int(shaped.group(3)) % 60 or 1):
        return True
    compact = re.sub(r"[ \-./+]", "", value)
    return _swedish(compact) or _norwegian(compact) or _danish(compact)
