"""Passwords said in words, in each language of `[password.*]` in
`credo/data/secret_words.toml`: a label and its value (with a verb, a colon or nothing, a
qualifier between; in Japanese, Chinese and Korean with no blank), a password said first,
used as one, changed to, or explained; user / password pairs; a network's key; values in
groups; answers to security questions; a made-up word in a sentence about logging in.
"""

from __future__ import annotations

from collections.abc import Iterator

# `re`, with the compiled programs of the patterns below kept between processes when the
# command line enables credo.cache (compiling them is half a second of every cold start)
from . import cached_re as re
from .secret_base import (
    _ABOUT_WORDS,
    _ALL_VERBS,
    _ARTICLES,
    _CJK,
    _CJK_RANGES,
    _CODE_VERBS,
    _DETERMINERS,
    _EN_CONNECTOR,
    _FOLLOWED_BY_UNIT,
    _LANGUAGES,
    _MADE_UP_AHEAD,
    _MASK_TAG_START,
    _NOT_A_VALUE,
    _NOT_AFTER_LETTER,
    _NOT_BEFORE_LETTER,
    _NOT_BEFORE_WORD,
    _PARTICIPLE,
    _PUBLIC_WORD,
    _QUALIFIER,
    _TRAILING_PUNCT,
    _VALUE,
    _VERSION,
    _VERSION_OR_DATE,
    _WEAK_LABELS,
    _WORDS,
    SecretFinding,
    _bare_value_ok,
    _bounded,
    _colon_words_ok,
    _has_letter_and_digit,
    _is_placeholder,
    _language_pattern,
    _long_number,
    _phrases,
    _plausible_bare_password,
    _sentence_around,
    _value_span,
    _without_mask_tags,
    label_then_value,
    one_slip,
)
from .secret_codes import (
    _CODE_LABEL,
    _CODE_WORD,
    _NOT_CODE,
    _OPENING_VERB,
    _WITH,
)
from .secret_random import made_up as _random_value
from .secret_random import pieced
from .secret_tokens import (
    _LOOSE_TOKEN_LABEL,
)

# the key of a wireless network is its password; a code word or a secret word is one too
_WIFI_KEY = (
    r"(?:wi-?fi|wlan|wpa[23]?|wpa2-psk|network|wireless|router)[ \t\-]?(?:key|passkey|pass)"
    r"|code[ \t\-]?word|secret[ \t]+word|memorable[ \t]+word"
)
# English's long words for a password, and each as typed with one slip ("pascode")
_TYPED_LABELS = one_slip("password", "passcode", "passphrase")


_ENGLISH_PASSWORD = re.compile(
    label_then_value(
        _NOT_AFTER_LETTER
        + r"(?P<label>(?i:"
        + _TYPED_LABELS
        + r"|passwd|pass[ \-]phrase|pwd|pw|pass|paswd|pword|"
        + _WIFI_KEY
        + r"))"
        + _NOT_BEFORE_WORD,
        _VALUE,
        _EN_CONNECTOR,
        qualifier=_QUALIFIER,
        before_value="",
    )
)


# "wifi password Blue-Fox-77": the value with no verb, checked harder
_ENGLISH_BARE_PASSWORD = re.compile(
    label_then_value(
        _NOT_AFTER_LETTER
        + r"(?P<label>(?i:"
        + _TYPED_LABELS
        + r"|passwd|pass[ \-]phrase|"
        + _WIFI_KEY
        + r"))"
        + _NOT_BEFORE_WORD,
        _VALUE,
        r"[ \t]+",
        qualifier=_QUALIFIER,
        before_value=_MADE_UP_AHEAD,
    )
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
    label_then_value(
        r"(?:パスワード|パスコード|暗証番号|ログインパスワード|合言葉|ネットワークキー|暗号化キー"
        r"|セキュリティキー|(?i:pin)(?:コード|番号)|密码|密碼|口令|登录密码"
        r"|비밀번호|비번|패스워드|암호|(?i:pin)[ \t]?번호|핀[ \t]?번호)",
        r"(?P<v>[!-~]{3,64}?)"
        r"(?=[」』\"”]|です|でした|だよ|だ|。|、|,|，|\s|$|を|に|で|と|）|\)|，|[\u3400-\u9fff]"
        # Korean glues the copula and its endings to the value: "385102이고", "x7q이에요"
        r"|이(?:고|야|에요|예요|다|며|니까|라서|지만|거든|었|였)|입니다|예요|에요|였|인데|임(?!\w)"
        r"|(?<=\d)(?:야|요|고|라고)(?!\w))",
        # or nothing at all before a value in Latin letters or digits: "密码wangjia888"
        r"[ \t]*(?:は|が|を|：|:|=|是|为|為|는|은|이|가|를|을)[ \t]*|[ \t]+|(?=[!-~])",
        connector_group="p",
        before_value=r"[「『\"“]?",
        # a remark in brackets after the label: "暗号化キー（WPA2）は X", "密码(家里)是 X"
        remark=r"(?:[ \t]*[(（][^()（）\n]{1,24}[)）](?=[ \t]*(?:は|が|：|:|=|是|为|為|는|은)))?",
    )
)


# a phrase with no blank between the label and a colon ("パスワードを忘れないようにメモして
# おいて：X", "密码记一下：X"): the value after the colon, plainly made up
_CJK_PASSWORD_COLON = re.compile(
    label_then_value(
        r"(?:パスワード|パスコード|暗証番号|密码|密碼|口令|비밀번호|비번|패스워드|암호)",
        r"(?P<v>[!-~]{8,64}?)(?=[」』\"”（(、。，,\s]|$)",
        r"[：:][ \t]*",
        qualifier=r"[^\s。！？!?：:\n]{1,30}",
        connector_group=None,
        before_value=r"[「『\"“]?",
    )
)


def _cjk_passwords(text: str) -> Iterator[SecretFinding]:
    for m in _CJK_PASSWORD_COLON.finditer(text):
        if _plainly_made_up(m.group("v"), explicit=True):
            yield SecretFinding("password", m.start("v"), m.end("v"))
    for m in _CJK_PASSWORD.finditer(text):
        value = m.group("v")
        made_up = any(c.isdigit() or not c.isalnum() for c in value) or len(value) >= 6
        if not m.group("p").strip():  # no particle: "Wi-Fiのパスワード abc12345"
            made_up = _has_letter_and_digit(value) or bool(re.search(r"^[*#]?\d+[*#]?$", value))
        if made_up and not _is_placeholder(value):
            yield SecretFinding("password", m.start("v"), m.end("v"))


# Hebrew letters: a Hebrew speaker types a password in Latin letters and digits, a Hebrew
# word after the label says what the password is like ("חזקה", strong)
_HEBREW = re.compile(r"[\u0590-\u05ff]")


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
            if (
                not m.group("conn").strip()
                and m.end("label") < m.start("conn")
                and re.fullmatch(r"[^\W\d_]+(?:-[^\W\d_]+)+", value)
            ):
                continue  # "Passwort für das Steuer-Portal ändern": a compound noun
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
                if _HEBREW.search(label) and _HEBREW.search(value):
                    continue  # "הסיסמה שלי היא חזקה": a word of the sentence, not a value
                if label in ambiguous and value.isalpha():
                    continue
            if label in ambiguous and _PUBLIC_WORD.search(text, max(0, m.start() - 24), m.start()):
                continue  # "huella de la clave: 71BD ...": a key's fingerprint ("clave" is "key")
            if _in_a_story(text, m.start("label")):
                continue  # "the film where the password to the club is 'swordfish'"
            if _a_slogan(text, label, value, m.start(), end):
                continue  # "a kampány jelszava: 'Együtt a győzelemért'": a motto
            if _a_queue_ticket(text, label, value, m.start(), end):
                continue  # "minha senha no atendimento é B112": a queue's ticket
            yield SecretFinding("password", start, end)


_TICKET_LABEL = frozenset(_WORDS["queue_tickets"]["labels"])
_QUEUE_WORD = re.compile("(?i)" + _bounded(_WORDS["queue_tickets"]["words"]))
#: a queue's ticket: a letter or two, then two to four digits ("A047", "PR12")
_TICKET = re.compile(r"[A-Za-z]{1,2}-?\d{2,4}")


def _a_queue_ticket(text: str, label: str, value: str, start: int, end: int) -> bool:
    """Whether a "senha" (`[queue_tickets]`) is the ticket a queue calls: a ticket's shape
    and a word of waiting to be served in its sentence."""
    if label not in _TICKET_LABEL or not _TICKET.fullmatch(value):
        return False
    return _QUEUE_WORD.search(_sentence_around(text, start, end)) is not None


_SLOGAN_LABEL = frozenset(w.lower() for w in _WORDS["slogans"]["labels"])
_FIRST_PERSON = re.compile("(?i)" + _bounded(_WORDS["slogans"]["first_person"]))
#: plain words: letters, blanks, an apostrophe or a hyphen inside, a comma, a "!" at the end
_PLAIN_WORD = r"[^\W\d_]+(?:['’\-][^\W\d_]+)*"
_PLAIN_WORDS = re.compile(rf"{_PLAIN_WORD}(?:,?[ \t]+{_PLAIN_WORD})+!?")


def _a_slogan(text: str, label: str, value: str, start: int, end: int) -> bool:
    """Whether a "password" whose word also means a slogan (`[slogans]`) is one: several
    plain words, nobody's own ("my ...") and nothing to log in to (a network, an account)
    in its sentence."""
    if label not in _SLOGAN_LABEL or not _PLAIN_WORDS.fullmatch(value):
        return False
    sentence = _sentence_around(text, start, end)
    rest = re.sub("(?i)" + _bounded(_SLOGAN_LABEL), " ", sentence)
    return not _FIRST_PERSON.search(sentence) and not _LOGIN_CONTEXT.search(rest)


#: a work of fiction ("the film where the password is ...", "dans le roman le mot de passe
#: est ..."): a password said in its plot is a line of the story, nobody's
_STORY = re.compile("(?i)" + _bounded(_WORDS["stories"]["all"]))
_SENTENCE_END = re.compile(r"[.!?;](?:\s|$)|[\n\r]")
#: the speaker's or the listener's own ("my", "mein", "mon", "mi", "мой"...) just before a
#: label, a word or two between: then the password is theirs, whatever story is near
_OWNED = re.compile(
    r"(?i)(?<![^\W_])(?:my|our|your|mein\w*|unser\w*|dein\w*|mon|ma|mes|notre|ton|ta|mi|mis"
    r"|nuestr\w*|tu|mio|mia|mie|nostr\w*|meu|minha|nosso|nossa|mijn|onze|ons|min|mitt|mina"
    r"|vår|vårt|mo[jij]\w*|nasz\w*|мо[йяеи]\w*|наш\w*|benim|私の|我的|내)"
    r"(?:[ \t]+[\w.\-]+){0,2}[ \t]+$"
)


def _in_a_story(text: str, label_at: int) -> bool:
    """Whether the password labelled at `label_at` is told in a story: a word for a film, a
    novel or an episode earlier in its sentence, and nobody's own password ("my ...")."""
    before = _SENTENCE_END.split(text[max(0, label_at - 160) : label_at])[-1]
    if not _STORY.search(before):
        return False
    return _OWNED.search(text, max(0, label_at - 40), label_at) is None


# "hunter2 is my wifi password.", "Geheim2024 ist mein Passwort", "X on salasanani". The
# value must not be an ordinary word, so this form only counts when it holds a digit or a
# symbol.
_ANY_PASSWORD_WORD = (
    r"password|passcode|passphrase|pin|[^\W\d_]*passwort|[^\W\d_]*kennwort"
    r"|mot[ \t]+de[ \t]+passe|mdp|contraseña|contrasena|senha|[^\W\d_]*wachtwoord"
    r"|[^\W\d_]*(?:lösenord|losenord)(?:et)?|[^\W\d_]*salasana(?:ni|si|mme|nne|nsa)?"
    r"|[^\W\d_]*(?:passord|adgangskode|kodeord)(?:et|en|n)?|hasło|haslo|heslo"
)


# a conjunction that starts the next clause ("X is my netflix password and somebody ...")
_NEXT_CLAUSE = (
    r"and|but|so|because|since|though|although|und|aber|weil|et|mais|car|y|pero|porque|ma"
    r"|perché|mas|porque|en|maar|want|och|men|eftersom|ja|mutta|koska|og|fordi|i|ale|bo"
)


# "is" in the languages above, less the words that are also English ("to", "e").
_FIRST_VERBS = r"is|was|ist|war|est|es|era|on|oli|är|var|è|é|er|jest|je"


# ... or an arrow pointing back at it, "that's" ("X <- that's the new admin password"),
# or Polish "to" before a possessive ("X to moje hasło do allegro")
_FIRST_POINTERS = (
    r"(?:<-+|←|⬅)(?:[ \t]+(?:that['’]?s|thats|that[ \t]+is|this[ \t]+is|it['’]?s))?"
    r"|that['’]?s|thats|that[ \t]+is"
    r"|to(?=[ \t]+(?:moje|moja|mój|moj|nasze|nasza|twoje|twoja|jej|jego)[ \t])"
)
#: what the password is for, after its word ("... password for the wordpress site", "...
#: hasło do allegro")
_FIRST_FOR = r"for|to|of|do|na|für|fürs|zum|zur|pour|para|per|voor|för|till|til|для|от|до|od"


_PASSWORD_FIRST = re.compile(
    r"(?<![^\s\"'(“«])(?P<v>[^\s\"'`“”«»]{4,64})[\"'”»]?[ \t]+(?i:"
    + _FIRST_VERBS
    + "|"
    + _FIRST_POINTERS
    + r")[ \t]+(?:(?i:"
    + _DETERMINERS
    + r")[ \t]+){0,2}(?:[\w\-]+[ \t]+){0,2}(?i:"
    + _ANY_PASSWORD_WORD
    + r")(?=[ \t]*(?:[.,;!?)]|$)|[ \t]+(?i:"
    + _NEXT_CLAUSE
    + "|"
    + _FIRST_FOR
    + r")(?![^\W_]))",
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


# A passphrase of several words after its label and a colon or a dash ("Кодовая фраза к
# ключу — Медведь на велосипеде 1980", "passphrase for the backup disk: seven blue owls
# 1984"), or its "is" in any language ("the passphrase is tulip lemon orchid 70"): the
# words to the clause's end
_PASSPHRASE_LABEL = (
    r"(?i)(?<![^\W_])(?:passphrase|pass[ \t\-]phrase|kodowa[ \t]+fraza"
    r"|кодов(?:ая|ую)[ \t]+фраз[ау]|парольн(?:ая|ую)[ \t]+фраз[ау]"
    r"|ключев(?:ая|ую)[ \t]+фраз[ау]"
    r"|парольна[ \t]+фраза|passphrase[ \t]+secrète|frase[ \t]+de[ \t]+contraseña"
    r"|phrase[ \t]+de[ \t]+passe|frase[ \t]+de[ \t]+paso|frase[ \t]+segreta"
    r"|frase[ \t]+de[ \t]+acesso|passwortsatz|wachtwoordzin|lösenordsfras|fraza[ \t]+hasła"
    r"|parola[ \t]+chiave)(?![^\W_])"
)
_PASSPHRASE_VALUE = (
    r"(?P<v>[^\W_][^\s,;:.!?()]*(?:[ \t]+[^\s,;:.!?()]+){1,7})(?=[ \t]*(?:[,;.!?(—–]|$))"
)


def _passphrase_after(connector: str) -> re.Pattern[str]:
    """A passphrase's label, up to four words of what it is for, `connector`, then its
    phrase of words: after a colon or a dash (`_PASSPHRASE`), or after an "is"
    (`_PASSPHRASE_IS`)."""
    return re.compile(
        label_then_value(
            _PASSPHRASE_LABEL,
            _PASSPHRASE_VALUE,
            connector,
            words=r"[^\W\d_][\w'’\-]*",
            most=4,
            words_group="q",
            connector_group=None,
            before_value="",
        ),
        re.MULTILINE,
    )


_PASSPHRASE = _passphrase_after(r"[ \t]*(?:[:=：]|[ \t]—|[ \t]–|[ \t]-)[ \t]*")
_PASSPHRASE_IS = _passphrase_after(rf"[ \t]+(?i:{_CODE_VERBS})[ \t]+")


# a number and what it counts ("4 words", "20 characters", "12 слов")
_A_COUNT = re.compile(
    r"(?i)(?<![^\W_])\d+[ \t]*(?:words?|characters?|chars?|letters?|digits?|symbols?|wörter"
    r"|zeichen|mots|caractères|palabras|caracteres|parole|caratteri|woorden|tekens|ord|tecken"
    r"|слов\w*|символ\w*|знак\w*|букв\w*|цифр\w*|słów|znaków)(?![^\W_])"
)
#: a determiner or a possessive a passphrase of words may start with ("my cat eats ...")
_PHRASE_OPENER = re.compile(rf"(?i:{_DETERMINERS}|a|an|one|un|une|ein|eine|uno|una)")


def _plain_words(words: list[str]) -> bool:
    """Whether none of `words` is one that says something about a value rather than
    being part of one ("stored in the vault", "the same as the wifi", "required at
    boot")."""
    return not any(
        w.lower() in _NOT_A_VALUE or w.lower() in _ABOUT_WORDS or _PARTICIPLE.fullmatch(w)
        for w in words
    )


def _a_phrase(value: str, *, colon: bool) -> bool:
    """Whether `value`, the words after a passphrase's label, is the passphrase: words with
    a digit among them, or four plain words or more (`_plain_words`); after a colon, it
    may open with a determiner when five words or more follow it ("my cat eats 3 lemons
    every tuesday"). After an "is", every word must be plain."""
    words = value.split()
    if "://" in value or _is_placeholder(value) or _A_COUNT.search(value):
        return False  # a link; "passphrase — 4 words minimum": a rule, not a phrase
    digit = any(c.isdigit() for c in value)
    if not colon:
        return len(words) >= 3 and _plain_words(words) and (digit or len(words) >= 4)
    if words[0].lower() in _ABOUT_WORDS:
        return False  # "passphrase: manager v2"
    if words[0].lower() in _NOT_A_VALUE:
        # "passphrase: not set since 2019"; "passphrase: the quick orange ferret 1987 jumps"
        return (
            _PHRASE_OPENER.fullmatch(words[0]) is not None
            and len(words) >= 6
            and _plain_words(words[1:])
        )
    return digit or (len(words) >= 4 and _plain_words(words))


def _passphrases(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    for pattern, colon in ((_PASSPHRASE, True), (_PASSPHRASE_IS, False)):
        for m in pattern.finditer(text):
            if _a_phrase(m.group("v"), colon=colon):
                yield SecretFinding("password", m.start("v"), m.end("v"))


# "changed my amazon password to Copper kettle 4 paws (spaces included)": a password of
# words, said with a note that its blanks are part of it; the words between the label's
# verb (or colon) and the note are the value
_SPACED_NOTE = _bounded(_WORDS["passphrase_notes"]["all"])
_SPACED_PASSWORD = re.compile(
    r"(?i)(?<![^\W_])(?:"
    + _ANY_PASSWORD_WORD
    + r"|"
    + "|".join(
        re.escape(w)
        for lang, words in _WORDS["made_up_passwords"].items()
        if lang != "verbs"  # the table's copulas, not labels
        for w in words
    )
    + r")(?![^\W_])"
    r"(?:[ \t]+[^\s:=]{1,20}){0,4}?"
    r"(?:[ \t]*[:=：][ \t]*|[ \t]+(?:is|was|to|ist|auf|zu|es|est|à|a|é|è|era|para|naar"
    r"|till|är|on|jest|na|на|—|–|-)[ \t]+)"
    r"[\"'“‘«]?(?P<v>[^\s()\"”’»]+(?:[ \t]+[^\s()\"”’»]+){1,6}?)[\"'”’»]?"
    r"[ \t]*[(,\-—–]?[ \t]*(?:" + _SPACED_NOTE + r")"
)


def _spaced_passwords(text: str) -> Iterator[SecretFinding]:
    for m in _SPACED_PASSWORD.finditer(_without_mask_tags(text)):
        value = m.group("v")
        made_up = any(not c.isalpha() and not c.isspace() for c in value)
        if (made_up or len(value.split()) >= 4) and not _is_placeholder(value):
            yield SecretFinding("password", m.start("v"), m.end("v"))


# "my laptop login is literally 'blue moon over lisbon'" in a text that names a password:
# what is typed to sign in, quoted, a phrase of words or a value plainly made up
_QUOTED_LOGIN = re.compile(
    r"(?i)(?<![^\W_])(?:login|log-in|logon|sign-in|lock[ \t\-]?screen|unlock)[ \t]+(?:is|was)"
    r"(?:[ \t]+(?:literally|just|still|now|actually|simply))?[ \t]+[\"'“‘]"
    r"(?P<v>[^\"'”’\n]{4,64})[\"'”’]"
)
_A_PASSWORD_WORD = re.compile(r"(?i)(?<![^\W_])(?:" + _ANY_PASSWORD_WORD + r")(?![^\W_])")


def _quoted_logins(text: str) -> Iterator[SecretFinding]:
    if not _A_PASSWORD_WORD.search(text):
        return
    for m in _QUOTED_LOGIN.finditer(text):
        value = m.group("v")
        if _is_placeholder(value) or "@" in value or _A_PASSWORD_WORD.search(value):
            continue  # an e-mail address is the user; "'Forgot password?'" is a link
        if (len(value.split()) >= 2 and value.strip() == value) or _plainly_made_up(
            value, explicit=True
        ):
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


# The answer to a security question: in a sentence about one ("my mother's maiden name
# is Kowalczyk", "svar på säkerhetsfrågan: ... hette Smulan"), what follows "is",
# "hette", "era", ":" and the like, when it is a name or holds a digit.
_SECURITY_MARK = re.compile(
    _phrases("security_answers", skip=("answer_verbs", "answered", "questions")), re.IGNORECASE
)
_ANSWERED_VERBS = _phrases(
    "security_answers", skip=tuple(k for k in _WORDS["security_answers"] if k != "answered")
)


_ANSWER_VERBS = "|".join(
    re.escape(v).replace("'", "['’]")
    for v in sorted(_WORDS["security_answers"]["answer_verbs"], key=len, reverse=True)
)


_ANSWER = re.compile(
    rf"(?:(?<![^\W_])(?i:{_ANSWER_VERBS})(?![^\W_])|:|：)[ \t]+"
    rf"(?:(?i:{_ARTICLES})[ \t]+)?[\"'“«]?"
    r"(?P<v>[^\W_][\w'’\-]*(?:[ \t]+(?:(?i:am|an|im|von|van|der|de|del|da|di|du|of|the|la|le)"
    r"[ \t]+)?[^\W\d_][\w'’\-]*)?)"
)


# Japanese and Chinese give the answer with no blank: "秘密の質問の答え：...の名前はポチ",
# "密保问题的答案是旺财"; the answer runs to the end of its clause
_CJK_ANSWER = re.compile(
    r"(?:は|：|:|是|为|為)[ \t]*[「『\"“]?"
    r"(?P<v>[^\s。、，,.!！?？「」『』\"“”はがをの：:是为為]{1,16}?)[」』\"”]?"
    r"(?=です|でした|だよ|だ|。|、|，|,|！|!|？|\?|$|\s)"
)


#: a question quoted ("'what was your first school?'", «¿nombre de tu primer perro?»): its
#: words end with a question mark, or open with a Spanish one
_QUOTED_QUESTION = re.compile(
    r"[\"'“‘«„]¿?[^\n\"“”«»]{6,100}?\?[\"'”’»“]|[\"'“‘«„]¿[^\n\"“”«»?]{6,100}[\"'”’»“]"
    r"|[\"'“‘«„](?i:"
    + _bounded(_WORDS["security_answers"]["questions"])
    + r")[ \t][^\n\"“”«»?]{4,100}?[\"'”’»“](?=[ \t]*[—–\-:,])"
)
_ANSWERED = re.compile(
    rf"(?<![^\W_])(?i:{_ANSWERED_VERBS})" + r"[ \t]+[\"'“«]?"
    r"(?P<v>[^\W_][\w'’\-]*(?:[ \t]+(?:(?i:am|an|im|von|van|der|de|del|da|di|du|of|the|la|le)"
    r"[ \t]+)?[^\W\d_][\w'’\-]*){0,3})"
)


def _answers_to_a_quoted_question(text: str) -> Iterator[SecretFinding]:
    """The answer a person gave to a question quoted just before (within its sentence or
    the next words): "'which street did you grow up on?' - I replied Elm Row", "la
    pregunta era «¿...?» y contesté ...". A name, or words holding a digit."""
    for q in _QUOTED_QUESTION.finditer(text):
        m = _ANSWERED.search(text, q.end())
        if m is None or m.start() - q.end() > 40:
            continue
        if re.search(r"[.!?\n]", text[q.end() : m.start()]):
            continue
        value = m.group("v")
        words = value.split()
        while len(words) > 1 and not words[-1][:1].isupper():
            words.pop()  # "Elm Row on the form": a name's words, each capitalised
        value = " ".join(words)
        if value.lower() in _NOT_A_VALUE or len(value) < 2:
            continue
        if not (value[:1].isupper() or any(c.isdigit() for c in value)):
            continue
        start = m.start("v")
        yield SecretFinding("security_answer", start, start + len(value))


def _answers(text: str) -> Iterator[re.Match[str]]:
    """Every match of `_ANSWER`, each looked for again from its value's start: "— I put
    Biscuit" reads "I put" after the dash, then "Biscuit" after "put"."""
    pos = 0
    while (m := _ANSWER.search(text, pos)) is not None:
        yield m
        pos = m.start("v") if m.start("v") > m.start() else m.end()


# words that start the question, not its answer: a pronoun, a question word, a possessive
_NOT_AN_ANSWER = frozenset(
    {"i", "my", "mine", "that", "what", "your", "yours", "ihre", "ihr", "ihrer", "dein",
     "deine", "deiner", "votre", "ton", "ta", "tu", "su", "tuo", "tua", "seu", "sua", "je",
     "jouw", "uw", "din", "ditt", "sinun", "twoja", "twój", "ваш", "ваша", "твой", "твоя"}
)  # fmt: skip


_CLOSING = {"'": "'", '"': '"', "“": "”", "«": "»", "‘": "’"}
#: the words up to each opening quote's closing one, and no further than a word's end
_UP_TO_CLOSING = {
    opening: re.compile(r"[^\n\"“”«»]{1,60}?(?=" + re.escape(closing) + r"(?:\W|$))")
    for opening, closing in _CLOSING.items()
}


def _quoted_answer(text: str, start: int) -> str | None:
    """The words between quotes that open just before `start`, when they are an answer
    (up to four words, no question and no label of one: "'mother's maiden name'" is)."""
    opening = text[start - 1 : start]
    if opening not in _CLOSING:
        return None
    m = _UP_TO_CLOSING[opening].match(text, start)
    if m is None:
        return None
    words = m.group(0)
    if len(words.split()) > 4 or words.rstrip().endswith("?") or _SECURITY_MARK.search(words):
        return None
    return words.strip() or None


def _security_answers(text: str) -> Iterator[SecretFinding]:
    if not _SECURITY_MARK.search(text):
        yield from _answers_to_a_quoted_question(text)
        return
    if _CJK.search(text):
        for m in _CJK_ANSWER.finditer(text):
            if not _is_placeholder(m.group("v")):
                yield SecretFinding("security_answer", m.start("v"), m.end("v"))
    for m in _answers(text):
        value = m.group("v")
        first, _, rest = value.partition(" ")
        if rest and not rest.split()[-1][:1].isupper():
            value = first  # "Biscuit2 then": only a name goes on ("Schule am Markt" does)
        if value.lower() in _NOT_A_VALUE or len(value) < 2:
            continue
        uncased = value[:1].isalpha() and not value[:1].islower() and not value[:1].isupper()
        said = max(text.rfind(c, 0, m.start()) for c in ".!?\n") + 1
        # after a verb that opens its sentence, the quoted words are asked about ("is 'first
        # pet' a good question?"), not given
        quoted = _quoted_answer(text, m.start("v")) if text[said : m.start()].strip() else None
        if quoted:  # the answer as it was typed ("the answer I set was 'wichita falls'")
            value = quoted
        elif not (value[:1].isupper() or uncased or any(c.isdigit() for c in value)):
            continue  # a name (or a word of a script with no case: "바둑이"), or a digit
        if value.split()[0].lower() in _NOT_AN_ANSWER or value.lower().startswith(("i'", "i’")):
            continue  # "What was your ...", "Wie hieß Ihre erste Schule": the question
        yield SecretFinding("security_answer", m.start("v"), m.start("v") + len(value))


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


# "my password is my cat's name and 2019 ... the cat is called Biscuit": a password (or a
# PIN) made of a thing's name, the thing named later in the text; its name is the
# password's part that matters, and is masked
_MADE_OF_A_NAME = re.compile(
    rf"(?i)(?<![^\W_])(?:{one_slip('password', 'passcode')}|pin|pw|passphrase)(?![^\W_])"
    r"[^.!?\n]{0,40}?(?<![^\W_])(?:my|our|the)[ \t]+(?P<thing>[^\W\d_]{2,20})['’]s[ \t]+name"
    r"(?![^\W_])"
)


def _names_in_a_hint(text: str) -> Iterator[SecretFinding]:
    for m in _MADE_OF_A_NAME.finditer(text):
        thing = re.escape(m.group("thing"))
        named = re.compile(
            rf"(?i)(?<![^\W_])(?:the|my|our|her|his)[ \t]+{thing}(?:[ \t]+is|['’]s)[ \t]+"
            r"(?:called|named|name[ \t]+is)[ \t]+[\"'“]?"
            r"(?P<v>[A-Za-z][\w\-]{1,30})(?![\w\-])"
            rf"|(?<![^\W_])(?:the|my|our|her|his)[ \t]+{thing}['’]s[ \t]+name[ \t]+is[ \t]+"
            r"[\"'“]?(?P<v2>[A-Za-z][\w\-]{1,30})(?![\w\-])"
        )
        found = named.search(text, m.end(), m.end() + 160)
        if found is None:
            continue
        group = "v" if found.group("v") is not None else "v2"
        if found.group(group).lower() in _NOT_A_VALUE:
            continue
        yield SecretFinding("password", found.start(group), found.end(group))


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


# "FRITZ!Box-Kennwort hab ich geändert, ist jetzt X", "changed the wifi password, it's now
# X", "cambié la contraseña del banco, ahora es X": the label, a clause saying it was
# changed (`_CHANGE_VERB` among its words), then after a comma its new value with an "is"
# (a pronoun for it before, "now" after)
_CHANGED_THEN_IS = re.compile(
    _NOT_AFTER_LETTER
    + rf"(?i:{_CHANGE_LABEL})"
    + _NOT_BEFORE_LETTER
    + r"(?P<words>(?:[ \t]+[^\W\d_][\w'’\-]{0,14}){0,4}?)[ \t]*[,;–—][ \t]*"
    r"(?:(?i:it|es|das|det|den|het|ce|c['’]|to|це|это|ahora|agora|now|jetzt|nun|maintenant"
    r"|adesso|ora|nu|teraz|nyt|sada|acum)[ \t]*)?"
    rf"(?:['’]s|(?<![^\W_])(?i:{_CODE_VERBS})(?![^\W_]))"
    r"(?:[ \t]+(?i:now|jetzt|nun|maintenant|ahora|agora|adesso|ora|nu|teraz|nyt|acum|sada"
    r"|теперь|тепер))?[ \t]*:?[ \t]+" + _VALUE
)


def _changed_passwords(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _CHANGED_THEN_IS.finditer(text):
        said_before = text[max(0, m.start() - 40) : m.start()]
        said_before = re.split(r"[.!?\n,;]", said_before)[-1]
        if not _CHANGE_VERB.search(m.group("words")) and not _CHANGE_VERB.search(said_before):
            continue
        span = _value_span(m)
        if span is None:
            continue
        value, start, end, _quoted = span
        if _is_placeholder(value) or _MASK_TAG_START.search(value):
            continue
        if _bare_value_ok(value) and _plausible_bare_password(value, text, end):
            yield SecretFinding("password", start, end)
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
    label_then_value(
        _NOT_AFTER_LETTER + rf"(?i:{_GROUP_LABEL})" + _NOT_BEFORE_LETTER,
        r"(?P<v>(?P<g>[A-Za-z0-9]{3,6})(?:[ \-][A-Za-z0-9]{3,6}){2,9})(?![A-Za-z0-9])",
        r"[ \t]*(?::|=|-|–|—)[ \t]*|[ \t]+(?i:"
        + _ALL_VERBS
        + r"|is|was|ist|lautet)[ \t]*:?[ \t]*|[ \t]+(?=[A-Za-z]{0,5}\d)",
        # what it is for: "the 2fa secret key from the setup page is ..."
        words=r"[^\W\d_][\w'’\-]{0,19}",
        most=5,
        # a remark after a comma, just before the colon ("..., falls wieder jemand fragt:")
        remark=r"(?:,(?:[ \t]+[^\W\d_][\w'’\-]{0,19}){1,5}(?=[ \t]*:))?",
    )
)


def _grouped_values(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _GROUPED.finditer(text):
        groups = re.split(r"[ \-]", m.group("v"))
        if len({len(g) for g in groups}) != 1 or len(groups[0]) < 4:
            continue  # "is in drawer 4 of the desk": groups of one length only
        value = m.group("v")
        if text[m.start("v") - 1 : m.start("v")] in ("-", "_", "."):
            continue  # the middle of a longer id ("bd0adfe2-8f47-4fbb-..."): a UUID's groups
        if value.isalpha() and (
            not all(g.islower() or g.isupper() for g in groups)
            or any(g.lower() in _NOT_A_VALUE for g in groups)
        ):
            continue
        if not m.group("conn").strip() and (len(groups) < 4 or not any(c.isdigit() for c in value)):
            continue  # no verb, no colon: four groups or more with digits ("recovery key
            # 123456-654321-...")
        if _PUBLIC_WORD.search(text, max(0, m.start() - 24), m.start("v")):
            continue  # "my PGP key fingerprint is 0132 F96A ...": a public key's digest
        yield SecretFinding("password", m.start("v"), m.end("v"))


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
    r"|hasło|haslo|heslo|пароль)(?P<is>[ \t]+(?i:is)[ \t]+|[ \t:=]+)(?P<v2>[^\s\"'`]{4,128})"
    # "hulu = anna@example.org + Otter2023": an e-mail address, a plus or a slash, a made-up
    # word
    r"|(?<![\w.+\-])[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+[ \t]*[+/|][ \t]*(?P<v3>[^\s\"'`]{6,128})"
)


def _user_then_pass(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _USER_THEN_PASS.finditer(text):
        group = next(g for g in ("v", "v2", "v3") if m.group(g) is not None)
        value = m.group(group).rstrip(_TRAILING_PUNCT)
        if _is_placeholder(value):
            continue
        # "anna@example.org pass is purplemonkey": after an address and "pass is", a
        # password of letters alone is still one (not a word of prose)
        stated = group == "v2" and m.group("is").strip() == "is"
        worded = stated and len(value) >= 8 and value.isalpha() and value.islower()
        if (_bare_value_ok(value) or worded) and value.lower() not in _NOT_A_VALUE:
            if group == "v3" and not _has_letter_and_digit(value):
                continue  # "anna@example.org / Marketing": a name, not a password
            yield SecretFinding("password", m.start(group), m.start(group) + len(value))


# A made-up word (letters, digits and a symbol: "hunter983*", "Summer2024!") in a sentence
# about logging in: "why does hunter983* not work on the router admin page?". A symbol
# that only ends the sentence does not count.
_LOGIN_CONTEXT = re.compile(
    r"(?i)(?<![^\W_])(?:log[ \-]?in|sign[ \-]?in|signin|admin[ \t]+(?:page|panel|interface|ui)"
    r"|router|wi-?fi|wlan|credentials?|unlock"
    r"|(?:online|internet|net|home|e-?|mobile)[ \t\-]?banking"
    r"|anmeld\w*|einlogg\w*|connexion|se[ \t]+connecter"
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
    if not _LOGIN_CONTEXT.search(text) and not ("?" in text and _ASKED_LABEL.search(text)):
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
        if core.startswith(("C#", "F#")) or _VERSION.fullmatch(core):
            continue  # a language's name, a package's version
        if not _LOGIN_CONTEXT.search(_sentence_around(text, m.start(), m.end())) and not (
            _answers_a_question(text, m.start())
        ):
            continue
        yield SecretFinding("password", m.start(), m.start() + len(core))


def _answers_a_question(text: str, start: int) -> bool:
    """Whether the value at `start` opens the answer to a question about logging in or a
    password, asked just before: "can you keep my work email password? Xy#12ab", "la
    contraseña de netflix? es Xy#12ab" (at most two words between the question mark and
    the value)."""
    left = max(text.rfind(c, 0, start) for c in ".!?\n")
    if left < 0 or text[left] != "?" or len(text[left + 1 : start].split()) > 2:
        return False
    asked = text[max(text.rfind(c, 0, left) for c in ".!?\n") + 1 : left]
    return _LOGIN_CONTEXT.search(asked) is not None or _ASKED_LABEL.search(asked) is not None


#: a password's label in any language of `secret_words.toml` (the question may be asked in
#: any of them: "me guardas la clave del banco?")
_ASKED_LABEL = re.compile(
    _NOT_AFTER_LETTER
    + "(?i:"
    + "|".join(lang.labels for lang in _LANGUAGES)
    + ")"
    + _NOT_BEFORE_LETTER
)


# A password's label in any language (`[made_up_passwords]`), then, in its clause, up to
# five words, a remark in brackets, a colon or a verb, and a value that is plainly made up:
# "nenosiri la akaunti ya benki: Twiga#Arusha55", "ο κωδικός του eBanking της
# γιαγιάς είναι Lemoni!Patra42", "kata sandi BNI mobile punyaku: Sate#Madura99", Thai's label
# glued to what it is for ("รหัสผ่านอีเมลงาน: Durian_Hot77"), Amharic's and Persian's
# verb after the value. Words that say the value is about the secret (manager, hint,
# public...) end the search, and so does the end of the clause.
_MADE_UP_LABEL = re.compile(
    rf"(?i)(?<![^\W\d_{_CJK_RANGES}\u0e00-\u0e7f])(?:"
    + _phrases("made_up_passwords", boundary=False, skip=("verbs",))
    + r")"
    r"(?:[\u0e00-\u0e7f]*)"  # Thai: no blank between the label and what it is for
    r"(?![^\W\d_])"
)


# a word between the label and its value: no blank, no colon or clause punctuation
_MADE_UP_WORD = re.compile(r"[\(\[]?[^\s:=：;,،，。()\[\]]{1,64}[\)\]]?|\([^()\n]{1,40}\)")


# what ends a label's clause before its value is reached
_CLAUSE_END = re.compile(r"[.!?。！？;；\n]\s|[\n;；。！？]|,\s")


# a contrast after a comma: the label's clause goes on with what else the password is for
# ("Passwort fürs Portal weiß ich nicht, aber fürs Mail — X")
_CONTRAST = re.compile(
    r"(?i)(?:but|aber|doch|mais|pero|sino|ma|mas|maar|men|mutta|ale|а|але|но|ama|fakat"
    r"|tapi|namun|nhưng|αλλά|όμως|אבל|لكن|ولكن|لیکن|اما|แต่|लेकिन|하지만|但是|但|でも)(?![^\W_])"
)


# a value straight after a user's word is a user name ("password for user j.doe84")
_USER_WORD = re.compile(
    r"(?i)(?:user(?:name)?|login|account|e-?mail|benutzer(?:name)?|usuario|utilisateur"
    r"|compte|cuenta|conta|konto|akun|utente|пользовател\w*|логин)[:]?"
)


# a word, then a number of two to four digits
_WORD_THEN_NUMBER = re.compile(r"[^\W\d_]{3,}\d{2,4}")


# the symbols a made-up value may hold; "." "-" "_" alone need both cases too
_STRONG_SYMBOLS = frozenset("!@#$%^&*?+=~")


def _plainly_made_up(value: str, *, explicit: bool) -> bool:
    """A value no word, name, path, address or date is: 8 to 64 characters, a lower-case
    letter and a digit, and (after a colon or a verb) an upper-case letter or a symbol,
    (with nothing between) a symbol of `_STRONG_SYMBOLS`, or "_" and both cases (a
    product's "Huawei-B535" is no password)."""
    if not 8 <= len(value) <= 64 or _is_placeholder(value) or _VERSION_OR_DATE.fullmatch(value):
        return False
    if "://" in value or value[0] in "/~.\\" or re.fullmatch(r"[^@\s]+@[^@\s]+\.\w+", value):
        return False
    if not any(c.isdigit() for c in value) or not any(c.islower() for c in value):
        return False
    upper = any(c.isupper() for c in value)
    if explicit:
        # a word and a number, the way most people make one up: "vovo1950", "mahalkita14"
        made_up = upper or any(not c.isalnum() for c in value)
        return made_up or _WORD_THEN_NUMBER.fullmatch(value) is not None
    return (upper and "_" in value) or any(c in _STRONG_SYMBOLS for c in value) or pieced(value)


# the verbs of `[made_up_passwords]` and of every `[password.*]` table: a value after one
# is given as the password, as after a colon
_MADE_UP_VERB = re.compile(
    rf"(?i:{_ALL_VERBS}|is|was|are|"
    + "|".join(re.escape(v) for v in _WORDS["made_up_passwords"]["verbs"])
    + ")"
)


# "pass" is a password's only after "my", "your" or "our" and a word or two ("my gmail
# pass is ..."; not "boarding pass")
_POSSESSED = re.compile(
    r"(?i)(?<![^\W_])(?:my|your|our)(?:[ \t]+(?!boarding|bus|train|season|ski|day|gym|travel"
    r"|hall|press|park|museum|rail|transit|metro)[\w.\-]+){0,2}[ \t]+$"
)


def _latin_among_other_script(label: str, value: str) -> bool:
    """Whether a label of another script (Arabic, Thai, Greek...) has a value in Latin
    letters after it: in such a sentence a Latin word with a digit is given, not said, and
    reads as after a colon ("كلمة سر الواي فاي qamar-noor-42")."""
    return not re.search(r"[A-Za-z]", label) and value.isascii()


def _made_up_passwords(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    for m in _MADE_UP_LABEL.finditer(text):
        weak = m.group(0).lower() == "pass"
        if weak and not _POSSESSED.search(text, max(0, m.start() - 40), m.start()):
            continue
        end = _CLAUSE_END.search(text, m.end(), m.end() + 200)
        rounds = 8
        if end is not None and end.group(0).startswith(",") and _CONTRAST.match(text, end.end()):
            # "the password for A I forget, but for B — X": the label's clause goes on
            end = _CLAUSE_END.search(text, end.end(), m.end() + 200)
            rounds = 14
        stop = end.start() if end else min(len(text), m.end() + 200)
        pos, explicit, previous = m.end(), False, ""
        for _ in range(rounds):
            gap = re.compile(r"[ \t\u00a0\u3000]*(?:[,،][ \t]+|[:=：→][ \t]*|[ \t]+|(?=\())").match(
                text, pos
            )
            if gap is None or gap.end() >= stop:
                break
            # a colon, or a verb just before the value, gives it as the password
            explicit = any(c in gap.group(0) for c in ":=：→")
            explicit = explicit or _MADE_UP_VERB.fullmatch(previous) is not None
            word = _MADE_UP_WORD.match(text, gap.end())
            if word is None or word.end() > stop + 1:
                break
            token = word.group(0)
            core = token.strip("\"'“”«»「」").rstrip(".,)]}:")
            if core[-1:] in "!?" and core[:-1][-1:].isalpha():
                core = core[:-1]  # the sentence's "!", not the password's
            lowered = core.lower().strip("()[]")
            if lowered in _ABOUT_WORDS or _PUBLIC_WORD.fullmatch(lowered):
                break  # "password manager: x", "public key: x": about the secret
            if weak and not explicit and not _MADE_UP_VERB.fullmatch(lowered):
                break  # "my pass is X": the value straight after its verb or colon
            if weak and explicit and lowered in ("now", "still", "currently"):
                pos, previous = word.end(), "is"
                continue
            latin = _latin_among_other_script(m.group(0), core)
            made_up = _plainly_made_up(core, explicit=explicit or latin)
            if made_up and not _USER_WORD.fullmatch(previous):
                start = word.start() + token.index(core)
                yield SecretFinding("password", start, start + len(core))
                break
            pos, previous = word.end(), lowered


# --- a value that opens something, or lets one in ------------------------------------

#: what getting in is called, besides the verbs that open (`[opening_verbs]`)
_GETTING_IN = (
    r"get[ \t]+in(?:to)?|log[ \t]*in(?:to)?|log[ \t]+on|sign[ \t]+in|access|decrypt|unzip"
    r"|extract|reinkommen|reinzukommen|einloggen|anmelden|entrar|acceder|accéder|accedere"
    r"|entrer|inloggen|logga[ \t]+in|kirjautua|zalogować|wejść|войти|зайти"
)
_OPENING = rf"(?i:(?<![^\W_])(?:{_OPENING_VERB})[^\W\d_]*|(?<![^\W_])(?:{_GETTING_IN})(?![^\W_]))"
#: "use X to get in", "nimm X zum Einloggen": a use-verb, the value, what it lets one do a
#: few words on, in its clause
_USE_TO_OPEN = re.compile(
    rf"(?<![^\W_])(?i:{_bounded(_WORDS['use_as']['verbs'])})[ \t]+[\"'“«]?"
    r"(?P<v>[^\s\"'`“”«»,;]{8,64}?)[\"'”»]?"
    rf"(?:[ \t]+[^\W\d_][\w'’]*){{0,3}}?[ \t]+{_OPENING}"
)
#: "the pdfs open with X", "s'ouvre avec X": a verb that opens, "with", the value
_OPEN_WITH_VALUE = re.compile(
    rf"{_OPENING}(?:[ \t]+[^\W\d_][\w'’\-]{{0,14}}){{0,2}}?[ \t]+(?i:{_WITH})[ \t]+[\"'“«]?"
    r"(?P<v>[^\s\"'`“”«»,;]{8,64}?)[\"'”»]?(?=[\s,;.!?)]|$)"
)


#: what may follow a value of capitals and digits that opens something: its clause's end
_VALUE_ENDS = re.compile(r"[ \t]*(?:[,;.!?)]|[ \t][\-–—]|$)")


def _an_opening_value(value: str, *, ends_clause: bool) -> bool:
    """Whether `value` is what a person types to open something: made up as after a
    colon (`_plainly_made_up`) or by its randomness (`_random_value`), or, ending its
    clause, eight capitals and digits or more, three of each (a document's password;
    never only digits: a code's detectors read those; not "RFID2024 badges")."""
    if _is_placeholder(value) or "@" in value or "://" in value:
        return False
    if _plainly_made_up(value, explicit=True) or _random_value(value):
        return True
    letters = sum(c.isalpha() for c in value)
    digits = sum(c.isdigit() for c in value)
    return ends_clause and value.isalnum() and value.isascii() and letters >= 3 and digits >= 3


def _values_that_open(text: str) -> Iterator[SecretFinding]:
    """A value used to open something or to get in ("use X to get in to the laptop", "the
    zip opens with X"): what opens is a password, whatever it is called."""
    text = _without_mask_tags(text)
    for pattern in (_USE_TO_OPEN, _OPEN_WITH_VALUE):
        for m in pattern.finditer(text):
            value = m.group("v").rstrip(".!?")
            ends = _VALUE_ENDS.match(text, m.start("v") + len(value)) is not None
            if _an_opening_value(value, ends_clause=ends) and not _PUBLIC_WORD.search(
                text, max(0, m.start() - 40), m.start("v")
            ):
                yield SecretFinding("password", m.start("v"), m.start("v") + len(value))


# --- a word and a number in a password's clause --------------------------------------

#: a word and a number of two to four digits, the way most passwords are made up
_WORD_AND_NUMBER = re.compile(r"(?<![\w\-.@/#])(?P<v>[A-Za-z]{4,}\d{2,4})(?![\w\-@/]|\.\w)")
#: a preposition just before a value: what the password is for ("the password for
#: office365"), not the password
_FOR_BEFORE = re.compile(
    r"(?i)(?<![^\W_])(?:for|of|to|on|in|at|from|with|für|fur|zum|zur|von|pour|de|du|para"
    r"|per|di|del|voor|van|för|til|till|dla|do|для|от|к|untuk)[ \t]+"
    r"(?:the|my|your|[^\W\d_]{1,3}[ \t]+)?$"
)
_WORD_NUMBER_REACH = 90
#: a command's option after a word ("keygen2025 -v")
_AN_OPTION = re.compile(r"[ \t]+-")


def _words_and_numbers_near_a_password(text: str) -> Iterator[SecretFinding]:
    """A word and a number ("Mittens2019") in the sentence of a password's label, at most
    90 characters from it: "is Mittens2019 a strong enough password?", "... password,
    it's Harbor2024"; never what the password is for ("the password for office365"), nor
    a word with a number just before the label that names it ("my windows10 password")."""
    text = _without_mask_tags(text)
    for label in _MADE_UP_LABEL.finditer(text):
        if label.group(0).lower() in ("pass", "psk"):
            continue  # "boarding pass2024"
        left = max(0, label.start() - _WORD_NUMBER_REACH)
        right = min(len(text), label.end() + _WORD_NUMBER_REACH)
        for stop in re.finditer(r"[.!?。！？](?=\s|$)|\n", text[left:right]):
            if left + stop.end() <= label.start():
                left = left + stop.end()
            else:
                right = left + stop.start()
                break
        for m in _WORD_AND_NUMBER.finditer(text, left, right):
            value = m.group("v")
            letters = value.rstrip("0123456789").lower()
            if len(value) < 8 or letters in _NOT_A_VALUE or letters in _ABOUT_WORDS:
                continue  # "sha256", "utf8": a name
            if _A_PASSWORD_WORD.fullmatch(letters) or _AN_OPTION.match(text, m.end()):
                continue  # "password99": the word itself; "keygen2025 -v": a command
            if _FOR_BEFORE.search(text, max(0, m.start() - 30), m.start()):
                continue
            if m.end() <= label.start() and len(text[m.end() : label.start()].split()) <= 2:
                continue  # "my windows10 password", "the Office2019 admin password"
            if _PUBLIC_WORD.search(text, left, right) or _FOLLOWED_BY_UNIT.match(text, m.end()):
                continue
            yield SecretFinding("password", m.start("v"), m.end("v"))
