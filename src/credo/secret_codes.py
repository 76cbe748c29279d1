"""PINs and codes that open something, in every language of `credo/data/secret_words.toml`:
after their label (with what they open, where it is, or a verb), said first, said with
nothing they open, keyed in, or opening a thing "with" digits. A code of another kind (a
postcode, an error, a discount) and an Indian office's "PIN code" are not secrets.
"""

from __future__ import annotations

from collections.abc import Iterator

# `re`, with the compiled programs of the patterns below kept between processes when the
# command line enables credo.cache (compiling them is half a second of every cold start)
from . import cached_re as re
from .secret_base import (
    _ARTICLES,
    _CJK_RANGES,
    _CODE_ADVERBS,
    _CODE_VERBS,
    _DETERMINERS,
    _FOLLOWED_BY_UNIT,
    _WORDS,
    SecretFinding,
    _bounded,
    _phrases,
    _sentence_around,
    _without_mask_tags,
    label_then_value,
)

# A PIN or a code that opens something, in any language of `secret_words.toml`: a label
# of its own ("PIN", "Türcode", "portkoden", "digicode"), or a word for "code" next to the
# thing it opens ("the code for the gate", "le code de la porte", "код домофона").
_CODE_LABEL = _phrases("codes")


_CODE_WORD = _phrases("code_words")


#: what a code opens, and a compound of German and the Nordic languages that ends in one
#: of the lock's words ("Kellerschloss", "Gartentür", "förrådslås", "pyöränlukko")
_LOCKED = (
    "(?:"
    + _phrases("locked_things")
    + r"|(?<![^\W_])[^\W\d_]{3,}(?:schloss|schloß|tür|tresor|schließfach|schliessfach|lås"
    r"|låset|dörr|dörren|lukko|lukon|kluis)(?![^\W_]))"
)


_PIN = re.compile(
    label_then_value(
        rf"(?i:(?P<label>{_CODE_LABEL}"
        # "senha de 4 dígitos do cartão": a count of digits among the words
        rf"|{_CODE_WORD}(?:[ \t]+(?:[^\W\d_][\w'’\-]{{0,14}}|\d{{1,2}})){{0,6}}?[ \t]+{_LOCKED}"
        rf"|(?<![^\W_]){_LOCKED}(?:['’]s)?(?:[ \t\-]+[^\W\d_][\w'’]{{0,14}}){{0,2}}?[ \t\-]*"
        rf"{_CODE_WORD}))",
        # an intercom's code may hold the letter of its key button: "27К3810"
        r"(?P<v>\d{1,3}[^\W\d_]\d{2,7}(?![^\W_])"
        r"|[*#]?\d(?:[ \-*#]?\d){2,9}[#*]?"
        # a key button's letter in any script ("К2480" on a Russian intercom)
        r"|(?=[^\W\d_]{0,3}\d)[^\W_]{1,3}\d{2,7}[A-Za-z]?[#*]?)"
        r"(?![A-Za-z0-9_\-]|[.,:/]\d)",
        rf"[ \t]*(?::|=|-|–|—|：|は|が|、)[ \t]*|[ \t]*,?[ \t]+(?i:{_CODE_VERBS})"
        rf"(?:[ \t]+(?i:{_CODE_ADVERBS}))?"
        rf"(?:[ \t]+(?i:{_ARTICLES}))?[ \t]*:?[ \t]*|['’]s[ \t]+"
        # "the pin for the office copier, mine's 30417"; "暗証番号（1126）"
        r"|[ \t]*[,?]?[ \t]+(?i:mine['’]s|mine[ \t]+is|ours[ \t]+is|ours['’]s)[ \t]+"
        r"|[ \t]*\(|[ \t]+",
        # how many digits it has: "a senha de 4 dígitos do cartão", "PIN à 4 chiffres"
        qualifier=r"(?:[ \t]+(?:(?i:de|à|a|di|da|van|med|z|из)[ \t]+)?\d{1,2}[ \t\-]*"
        r"(?i:digits?|dígitos|digitos|chiffres|cifre|cijfers|siffror|stellige?n?|merkkiä|cyfr\w*"
        r"|цифр\w*))?",
        # what it is for: "of my debit card", "de la tarjeta del banco", "till kortet" (no
        # digits)
        words=r"(?i:[^\W\d_][\w.@'’\-]{0,19})",
        most=6,
        words_group="q",
        # a remark: "PIN für die EC-Karte (Sparkasse): 8153"
        remark=r"(?:[ \t]*\([^()\n]{1,40}\))?",
    )
)


_LOCKED_THING = re.compile(_LOCKED, re.IGNORECASE)


_LISTED_CODE = re.compile(_CODE_LABEL, re.IGNORECASE)


# where the thing a code opens is, or whose it is, said between its label and the code
# with no verb: "код от сейфа на даче 6-1-9-3", "PIN do karty w mBanku 8124", "the gate
# code at grandma's 4821"
_PLACE_WORDS = re.compile(
    r"(?i)[ \t]+(?:at|in|on|by|near|from|bei|im|am|an|auf|à|au|aux|chez|dans|en|nel|nella"
    r"|al|alla|em|no|na|bij|op|på|vid|hos|ved|w|we|u|у|на|в|во|при|возле"
    # Polish, Czech, Ukrainian, Romanian, Vietnamese: "od podwórka", "ve sklepě", "біля
    # дому", "de la birou", "ở văn phòng"
    r"|od|przy|pod|ze|v|ve|від|біля|із|de[ \t]+la|din|ở|o|tại|tai)[ \t]"
    # Hebrew glues "in" to its word: "הקוד של הכספת במשרד"
    r"|[ \t]+ב(?=[\u05d0-\u05ea]{2})"
)

#: a name of its own after what a code opens says whose it is: "код з поштомату Нової
#: пошти 2841", "the locker code at Kings Cross 4821" (each word capitalised)
_A_NAME = re.compile(r"(?:[ \t]+[^\W\d_][\w'’\-]*){1,3}")


def _names_its_place(label: str, q: str) -> bool:
    """Whether a code's label names what it opens (a listed label, or "code" first: not
    "building code") and the words after it say where that is or whose it is (a place's
    preposition, or a name of its own)."""
    if not _LOCKED_THING.search(label):
        return False
    if not _PLACE_WORDS.match(q) and not (_A_NAME.fullmatch(q) and q.split()[0][:1].isupper()):
        return False
    return _LISTED_CODE.fullmatch(label) is not None or not _LOCKED_THING.match(label)


_SHORT_CODE_WORDS = frozenset(w.lower() for w in _WORDS["short_codes"]["all"])


_POSTAL_WORDS = re.compile("(?i)" + _bounded(_WORDS["postal"]["all"]))


_MONEY_WORDS = re.compile("(?i)" + _bounded(_WORDS["postal"]["money"], longest_first=False))
#: postal words of India's scripts, as a word's start (their endings are glued on)
_POSTAL_STEMS = re.compile(
    r"(?<![^\W_])(?:" + "|".join(re.escape(w) for w in _WORDS["postal"]["stems"]) + ")"
)
_PIN_WORD = re.compile("(?i)" + "|".join(re.escape(w) for w in _WORDS["postal"]["pin"]))


def _indian_postcode(text: str, label: str, start: int, v_start: int, v_end: int) -> bool:
    """Whether the six digits at `v_start:v_end` after a "PIN" label (at `start`) are an
    Indian postal code: "the office PIN code is 560001", "mera pin code 110001 hai
    (Connaught Place, Delhi)", a place named in the sentence or after the number."""
    if not _PIN_WORD.search(label) or sum(c.isdigit() for c in text[v_start:v_end]) != 6:
        return False
    if _postal_context(text, start, v_end):
        return True
    sentence = _sentence_around(text, start, v_end)
    if _MONEY_WORDS.search(sentence):
        return False
    # a place after it, or a postal word of India's scripts ("அலுவலக பின் கோடு ...")
    return bool(_AN_ADDRESS_AFTER.match(text, v_end) or _POSTAL_STEMS.search(sentence))


def _stated_pins(text: str) -> Iterator[SecretFinding]:
    for m in _PIN.finditer(text):
        value, label = m.group("v"), m.group("label").lower()
        digits = sum(c.isdigit() for c in value)
        said = f"{label} {m.group('q')}".lower()
        short_ok = any(w in said for w in _SHORT_CODE_WORDS)
        if digits < (3 if short_ok or not value.isdigit() else 4):
            continue
        q = m.group("q")
        # a lock's dial read out in groups ("40-18-77") after a listed label, a word or two
        # between saying where ("kode brankas kantor 40-18-77")
        named = _LISTED_CODE.fullmatch(label) or _LOCKED_THING.search(label)
        # ... or keyed in with its "#" ("codice del cancello condominiale 31415#")
        dialled = (_DIAL.fullmatch(value) or value.endswith(("#", "*"))) and named
        dialled = dialled and len(q.split()) <= 2
        if not value.isdigit() and digits > 8:
            continue  # letters and nine digits or more: an identifier, not a code keyed in
        # an intercom's key button before the digits ("код домофона К2480"), straight after
        # a label that names what it opens
        buttoned = named and not q and re.fullmatch(r"[^\W\d_]\d{3,7}", value) is not None
        if not m.group("conn").strip() and (
            (not value[:1].isdigit() and not buttoned)
            or (
                q and not _LOCKED_THING.search(q) and not _names_its_place(label, q) and not dialled
            )
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
        if _indian_postcode(text, label, m.start(), m.start("v"), m.end("v")):
            continue
        yield SecretFinding("password", m.start("v"), m.end("v"))


# "I set the in-room safe to 050893", "we changed the garage door code to 4471": a code
# set on what it opens
_SET_ON_THING = re.compile(
    rf"(?i)(?<![^\W_])(?:set|changed|reset|programmed|switched)[ \t]+(?:the|my|our|its)?[ \t]*"
    rf"(?:[\w\-]+[ \t]+){{0,2}}?(?P<thing>{_LOCKED})(?:['’]s)?(?P<cw>[ \t]+(?:{_CODE_WORD}|pin))?"
    r"[ \t]+to[ \t]+(?P<v>[*#]?\d(?:[ \-]?\d){3,9}[#*]?)(?![\w\-]|[.,:/]\d)"
)


# "hotel room safe - I set it to 509173", "the padlock on the shed: changed it to 4417": the
# thing named first, then set with "it" standing for it, in the same sentence
_SET_IT = re.compile(
    rf"(?i)(?<![^\W_])(?P<thing>{_LOCKED})(?:['’]s)?(?P<cw>[ \t]+(?:{_CODE_WORD}|pin))?"
    # what is said of the thing between (where it is, its own number: "gym locker 12 is set
    # to ...", "the safe in the wardrobe at the rental, they set it to ...")
    r"(?![^\W_])[^.!?\n]{0,60}?(?<![^\W_])"
    r"(?:(?:set|changed|reset|programmed|switched)[ \t]+"
    r"(?:it|that|the[ \t]+(?:code|combination|combo|pin))"
    r"|(?:is|was|been|got|gets)[ \t]+(?:set|changed|reset|programmed|switched))[ \t]+to[ \t]+"
    r"(?P<v>[*#]?\d(?:[ \-]?\d){3,9}[#*]?)(?![\w\-]|[.,:/]\d)"
)


def _codes_set(text: str) -> Iterator[SecretFinding]:
    for m in (*_SET_ON_THING.finditer(text), *_SET_IT.finditer(text)):
        if not m.group("cw") and re.fullmatch(
            r"(?i)alarm|wecker|réveil|alarma|sveglia", m["thing"]
        ):
            continue  # "set the alarm to 0630": a clock's, unless its code is said
        if _FOLLOWED_BY_UNIT.match(text, m.end("v")) is None:
            yield SecretFinding("password", m.start("v"), m.end("v"))


# a lock's dial: three or four numbers of one or two digits, joined by dashes
_DIAL = re.compile(r"\d{1,2}(?:[\-–]\d{1,2}){2,3}")


# "gym locker 214, combo 22-8-31", "kombinasi gembok 12-30-7": a combination's word, then a
# dial's numbers, with no verb
_COMBINATION_WORDS = (
    r"combo|combination|kombination(?:en)?|kombi|combinaison|combinaci[óo]n|combinazione"
    r"|combina[çc][ãa]o|combinatie|kombinasjon(?:en)?|yhdistelm[äa]|kombinacja|kombinace"
    r"|комбинация|комбінація|kombinasyon|kombinasi|tổ[ \t]+hợp"
)


_DIAL_COMBINATION = re.compile(
    label_then_value(
        rf"(?i)(?<![^\W_])(?:{_COMBINATION_WORDS})(?![^\W_])",
        r"(?P<v>\d{1,2}(?:[\-–]\d{1,2}){2,3})(?![\w\-–]|[.,/]\d)",
        r"[ \t]*[:=]?[ \t]*",
        connector_group=None,
        before_value="",
    )
)


#: a turn of the dial said before its number (`[dial_turns]`)
_TURN = rf"(?i:{_phrases('dial_turns')})"
#: a dial's numbers: joined by dashes with blanks around them ("28 - 71 - 04"), or each
#: after the way the dial turns ("jobbra 14, balra 39, jobbra 7", "R 12 L 40 R 3")
_DIAL_SAID = (
    r"\d{1,2}(?:[ \t]+[\-–][ \t]+\d{1,2}){2,3}"
    rf"|{_TURN}[ \t]*\d{{1,2}}(?:[ \t]*[,;/]?[ \t]*"
    r"(?:then|dann|puis|luego|poi|depois|dan|rồi|majd|potem|потом|потім|sonra|apoi)?"
    rf"[ \t]*{_TURN}[ \t]*\d{{1,2}}){{2,3}}"
)
#: a combination's word, or the thing whose code it is, then within the clause a dial's
#: numbers said as `_DIAL_SAID` says them: "Kombination vom Tresor im Keller: 28 - 71 - 04",
#: "the gym locker, right 14, left 39, right 7"
_DIAL_IN_CLAUSE = re.compile(
    rf"(?i)(?<![^\W_])(?:(?P<cw>{_COMBINATION_WORDS}|kombináci\w*|kombinacj\w*|combinați\w*"
    rf"|combinati\w*)|{_LOCKED})(?![^\W_])"
    rf"[^.!?\n\d]{{0,48}}?(?<![\w\-])(?P<v>{_DIAL_SAID})(?![\w\-–]|[.,/]\d)"
)


def _dial_combinations(text: str) -> Iterator[SecretFinding]:
    for m in _DIAL_COMBINATION.finditer(text):
        yield SecretFinding("password", m.start("v"), m.end("v"))
    for m in _DIAL_IN_CLAUSE.finditer(text):
        if not m.group("cw") and m.group("v")[:1].isdigit():
            continue  # numbers joined by dashes near a thing's name alone: a score, a range
        yield SecretFinding("password", m.start("v"), m.end("v"))


# a place named after a number, as an address gives it: "110001 (Connaught Place, Delhi)",
# "560038, Koramangala, Bengaluru"
_AN_ADDRESS_AFTER = re.compile(
    r"[ \t]*(?:(?i:hai|है|is)[ \t]*)?[(,][ \t]*[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)*[ \t]*(?:[,)]|$)"
)


def _postal_context(text: str, start: int, end: int) -> bool:
    sentence = _sentence_around(text, start, end)
    return bool(_POSTAL_WORDS.search(sentence)) and not _MONEY_WORDS.search(sentence)


#: "that", "this" before a code's "is", in the languages of `[codes]`
_THAT = (
    r"that|this|it|dat|dit|das|dies|es|c['’]|ce|ça|eso|esto|esa|esta|quello|questo|isso|isto"
    r"|det|den|это|то|ez|az|to|tämä|se"
)


# A code said first: "4821 is the door code", "4821 är portkoden", "2580 — код от домофона".
# A one-time code sent by a service may carry its letter ("G-482913 is your Acme
# verification code") and name the service before its label.
_CODES_FIRST = re.compile(
    r"(?:(?<![\w.,:/\-])[A-Z]-|(?<![\w.,:/\-]))(?P<v>[*#]?\d(?:[ \-*#]?\d){2,9}[#*]?)[ \t]+"
    # a dash and "that is" between ("6604 — dat is de pincode", "4821 - that's the gate")
    rf"(?:(?:(?:—|–|-)[ \t]+)?(?:(?i:{_THAT})[ \t]+(?i:{_CODE_VERBS})|(?i:that['’]s|it['’]s))"
    rf"|(?i:{_CODE_VERBS})|—|–|-)[ \t]+(?:(?i:{_DETERMINERS}|your)[ \t]+){{0,2}}"
    r"(?:[A-Z][\w&'’\-]{1,20}[ \t]+)?"
    rf"(?i:(?P<label>{_CODE_LABEL}"
    rf"|{_CODE_WORD}(?:[ \t]+[^\W\d_][\w'’\-]{{0,14}}){{0,3}}?[ \t]+{_LOCKED}"
    rf"|(?<![^\W_]){_LOCKED}(?:['’]s)?(?:[ \t\-]+[^\W\d_][\w'’]{{0,14}}){{0,2}}?[ \t\-]*"
    rf"{_CODE_WORD}))"
)


_NOT_CODE_WORDS = _bounded(_WORDS["not_codes"]["all"])


_NOT_CODE = re.compile("(?i)" + _NOT_CODE_WORDS)


#: the adjectives for "postal" that follow the word "code" in the languages that put them
#: after it (Polish and Slavic neighbours, Romance ones): a code so named is an address's
_POSTAL_ADJECTIVES = (
    r"pocztow\w*|poštovn\w*|poštov\w*|почтов\w*|поштов\w*|postal\w*|postale|postais"
    # Romanian spells it with its own letter, with a comma or a cedilla ("codul poștal")
    r"|po[șş]tal\w*"
    # Vietnamese and Indonesian put "postal" after "code" too: "mã bưu chính", "kode pos"
    r"|bưu[ \t]+chính|buu[ \t]+chinh|bưu[ \t]+điện|buu[ \t]+dien|pos"
)


# "código postal de casa", "code postal", "the postal code of the building": a code that
# names what it is right next to the word "code"
_NOT_CODE_NEXT = re.compile(
    rf"(?i)(?:{_NOT_CODE_WORDS})[ \t\-]+{_CODE_WORD}"
    # ... or an adjective after it that says so ("kod pocztowy", "почтовый код")
    rf"|{_CODE_WORD}[ \t\-]+(?:{_POSTAL_ADJECTIVES})(?![^\W_])"
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


#: a code as it is keyed: four to eight digits, with "*" or "#" before, between or after,
#: or a dial's numbers ("40-18-77")
_A_KEYED_CODE = r"[*#]?(?:\d{4,8}|\d{1,4}[*#]\d{2,6}|\d{1,2}(?:-\d{1,2}){2,7})[#*]?"
#: ... or read one digit at a time, blanks between ("opens with 1 9 7 3")
_KEYED_OR_SPACED = rf"(?:{_A_KEYED_CODE}|\d(?:[ \t]\d){{3,7}})"


# A code stated with nothing it opens: "the code is 5519", "koodi on 7781", "il codice è
# 5521", "Ihr Code lautet 482913". Four to eight digits after "code" and a verb or a colon,
# unless the sentence says what else the code is (a postcode, an error, a discount).
_BARE_CODE = re.compile(
    label_then_value(
        rf"(?<![^\W_])(?i:{_CODE_WORD}|kod|koodi|koden|código|codigo|codice|код|コード)(?![^\W_])",
        rf"(?P<v>{_A_KEYED_CODE})"
        r"(?![\w\-]|[.,:/]\d)",
        rf"[ \t]*(?::|=|：|は)[ \t]*|[ \t]+(?i:{_CODE_VERBS})"
        rf"(?:[ \t]+(?i:{_CODE_ADVERBS}))?(?:[ \t]+(?i:{_ARTICLES}))?[ \t]*:?[ \t]*",
        # what it is for: "the code to get in is 1234", "el código para entrar es 1234"
        words=r"[^\W\d_][\w'’\-]{0,14}",
        most=7,
        words_group="gap",
    )
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
        if _NOT_CODE_NEXT.search(text, m.start(), m.start("v")):
            continue  # "mã bưu chính ... là 100000": the code's word says it is postal
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
        if _FOLLOWED_BY_UNIT.match(text, m.end("v")) or _CODE_UNITS.match(text, m.end("v")):
            continue  # "type 1920 px wide images for the door sign": a size
        if _OPENED_BY_CODE.search(sentence):
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
    rf"[\"'“«]?(?P<v>{_KEYED_OR_SPACED})(?![\w\-]|[.,:/]\d)"
)


def _codes_opening(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _OPENS_WITH.finditer(text):
        yield from _code_of_a_door(text, m)


def _clock_time(value: str) -> bool:
    return len(value) == 4 and value.isdigit() and int(value[:2]) < 24 and int(value[2:]) < 60


_CODE_THEN_DIGITS = re.compile(
    rf"(?<![^\W_])(?i:{_CODE_WORD}|kod|koodi|código|codigo|codice|код)(?![^\W_])[ \t:]+"
    rf"(?P<v>{_KEYED_OR_SPACED})(?![\w\-]|[.,:/]\d)"
)


_OPENED_AND_CODE = re.compile(
    _OPENED_BY_CODE.pattern[4:]
    # where it is, before a colon: "the safe in the hotel: 1471", "Tresor im Zimmer: 2580"
    + r"(?P<where>(?:[ \t]+[^\W\d_][\w'’\-]{0,14}){1,4}?(?=[ \t]*[:=]))?"
    + r"(?:[ \t]*[:=][ \t]*|[ \t]+(?:opens[ \t]+with|unlocks[ \t]+with|öffnet[ \t]+mit"
    r"|s['’]ouvre[ \t]+avec|se[ \t]+abre[ \t]+con|si[ \t]+apre[ \t]+con|abre[ \t]+com"
    r"|opent[ \t]+met"
    r"|öppnas[ \t]+med|öppnar[ \t]+med|aukeaa[ \t]+koodilla|открывается[ \t]+кодом|is)[ \t]+)"
    rf"[\"'“«]?(?P<v>{_KEYED_OR_SPACED})"
    r"(?![\w\-]|[.,:/]\d|[ \t]*(?:am|pm|h|uhr)\b)",
    re.IGNORECASE,
)


# A PIN's or a one-time code's label of `[codes_in_clause]`, then the first code in its
# sentence, other words and one comma between: the languages whose words for what it
# opens no other rule reads ("PIN yangu ya benki ni 7720", "ፒን ቁጥሬ 8824 ነው", "รหัส ATM
# ของผมคือ 583920", "নগদ পিন ৭৩৯২"), and a one-time code forwarded or asked for ("kod BLIK
# do sklepu, podaję: 731 204", "the code from the sms, it's 4410", "type the code we
# sent: 5 1 9 2", "验证码为482913"). Thai glues its words to the label.
_CLAUSE_CODE_LABEL = re.compile(
    rf"(?i)(?<![^\W\d_{_CJK_RANGES}\u0e00-\u0e7f])(?:"
    + _phrases("codes_in_clause", boundary=False)
    + r")"
    r"(?:[\u0e00-\u0e7f]*)"
    rf"(?![^\W\d_{_CJK_RANGES}\u0e00-\u0e7f])"  # "pin", never "pink" or "ping"
)


# the code: four to eight digits of any script, one at a time with blanks, or in two
# groups of three; a "*" or "#" keyed before or after
_CLAUSE_CODE = re.compile(
    r"(?<![A-Za-z0-9_\-.,/])"
    # an intercom's or a digicode's key letter may come first ("B4927")
    r"(?P<v>[*#]?(?:[A-D]?\d{4,8}|\d(?:[ \t]\d){3,7}|\d{3}[ \t]\d{3})(?:[ \t]?[*#])?)"
    r"(?![\w\-]|[.:/]\d|,\d{3}(?!\d))"  # not "4,500" (a sentence's "，10分钟" may follow)
)


#: how many digits a code has, said between its label and the code: "4-digit", "de 4
#: dígitos", "6-stellige", "à 4 chiffres", "4 цифры", "6 haneli", "4자리", "6桁", "6位"
_DIGIT_COUNT = re.compile(
    r"(?i)(?<!\d)\d{1,2}[ \t\-]*(?:digits?|dígitos|digitos|chiffres|cifre|cifras|stellig\w*"
    r"|stellen|cijfers|siffror|sifret|cyfr\w*|číslic\w*|цифр\w*|haneli|számjegy\w*|자리|桁|位)"
)
#: a number standing alone (not a digit inside a name: "Maybank2u", "e2e")
_A_NUMBER = re.compile(r"(?<![^\W\d_])\d+(?![^\W\d_])")


# what ends the search for a code: a sentence's end, or a second comma
_CLAUSE_STOP = re.compile(r"[.!?。！？](?:\s|$)|\n")


#: a sum of money: digits with their decimal part and a currency's sign or code after or
#: before them ("1.240,00 EUR", "$ 35.90", "₹1,500")
_AN_AMOUNT = re.compile(
    r"(?:[$€£¥₹₽][ \t]?)?\d{1,3}(?:[.,' \u00a0]\d{3})*(?:[.,]\d{2})?[ \t\u00a0]?"
    r"(?:€|EUR|USD|GBP|CHF|PLN|SEK|NOK|DKK|CZK|HUF|zł|kr|Kč|Ft|₽|руб\w*|грн|₹|¥|\$|£)"
    r"(?![^\W_])|[$€£¥₹₽][ \t]?\d{1,3}(?:[.,' ]\d{3})*(?:[.,]\d{2})?"
)


def _codes_in_clause(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    for m in _CLAUSE_CODE_LABEL.finditer(text):
        end = _CLAUSE_STOP.search(text, m.end())
        stop = min(end.start() if end else len(text), m.end() + 120)
        commas = [i for i in range(m.end(), stop) if text[i] in ",،，"]
        if len(commas) >= 2:
            stop = commas[1]
        code = _CLAUSE_CODE.search(text, m.end(), stop)
        if code is None:
            continue
        between = text[m.end() : code.start()]
        # an amount is no other number: a bank's message names the transfer it confirms
        # ("die TAN für die Überweisung über 1.240,00 EUR lautet ...")
        between = _AN_AMOUNT.sub(" ", between)
        # how long the code is names no other number ("la senha de 4 dígitos é ..."), nor
        # does a digit inside a name ("the TAC from Maybank2u")
        between = _DIGIT_COUNT.sub(" ", between)
        if _A_NUMBER.search(between) or _NOT_CODE.search(between):
            continue  # another number first, or a code of another kind
        if _FOLLOWED_BY_UNIT.match(text, code.end()):
            continue  # "OTP 6 digits", "验证码 5分钟"
        if _indian_postcode(text, m.group(0), m.start(), code.start("v"), code.end("v")):
            continue
        yield SecretFinding("password", code.start("v"), code.end("v"))


#: a card named ("card", "tarjeta", "Karte", a brand): where a count of digits "on the back"
#: is the card's
_A_CARD = re.compile("(?i)" + _bounded(_WORDS["card_context"]["cards"]))


_CARD_SECURITY = re.compile(
    "(?i)(?:"
    + _phrases("card_security", skip=("counts", "back"))
    + "|(?P<count>"
    + _phrases("card_security", skip=("all", "back"))
    + r"(?:[ \t]+[^\W\d_][\w'’]{0,14}){0,2}?[ \t]+"
    + _phrases("card_security", skip=("all", "counts"))
    + r"))[^.!?\n]{0,60}?(?:[ \t]+(?:are|is|sind|ist|son|es|sont|est|sono|è|são|é|zijn|is|är"
    r"|to|это)[ \t]+|[ \t]*[:=][ \t]*)(?P<v>\d{3,4})(?![\w\-]|[.,:/]\d)"
)


def _card_security_codes(text: str) -> Iterator[SecretFinding]:
    """A card's security code after its name or where it is printed, the card between:
    "the 3 digits on the back of the visa ending 4412 are 731"."""
    text = _without_mask_tags(text)
    for m in _CARD_SECURITY.finditer(text):
        if _FOLLOWED_BY_UNIT.match(text, m.end("v")) or _CODE_UNITS.match(text, m.end("v")):
            continue  # "the three houses at the back are 1200 years old"
        if m.group("count") and not _A_CARD.search(_sentence_around(text, m.start(), m.end())):
            continue  # "the four on the back row are 2024's graduates": no card named
        yield SecretFinding("password", m.start("v"), m.end("v"))


# A code keyed between "*" and "#" ("*4471#"), or with "#" after and what it is for next
# ("4471# for the side gate"), in a sentence naming what it opens or an entry: "the garage
# entry at dad's place is *8812#" (a phone's service code, "*123#", names none)
_STARRED_CODE = re.compile(r"(?<![\w*#])\*?\d{4,8}#(?![\w#*])")


_ENTRY_WORDS = re.compile(r"(?i)(?<![^\W_])(?:entry|entrance|building|door|gate|lobby)(?![^\W_])")


#: what a code keyed with "#" alone is for, straight after it ("4471# for the side gate")
_FOR_WHAT = re.compile(r"(?i)[ \t]+(?:for|at|to|on|für|fürs|pour|para|per|voor|för|на|до)[ \t]")


def _starred_codes(text: str) -> Iterator[SecretFinding]:
    for m in _STARRED_CODE.finditer(text):
        if not m.group(0).startswith("*") and not _FOR_WHAT.match(text, m.end()):
            continue  # "issue 4471# is ...": a number with "#", not a code said for a door
        sentence = _sentence_around(text, m.start(), m.end())
        if _LOCKED_THING.search(sentence) or _ENTRY_WORDS.search(sentence):
            yield SecretFinding("password", m.start(), m.end())
