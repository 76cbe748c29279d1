"""Secrets in the shapes of commands, key files and chat (issue 24's seventh round), read
after `credo.secret_patterns`' detectors:

- a password on a command line, after the option its tool reads it from (`sshpass -p`,
  the LDAP tools' `-w`, `mysql -pX`, `--bind-password`, PowerShell's
  `ConvertTo-SecureString "X" -AsPlainText`), or written into a file whose name
  says it holds one (`echo X > ~/.vault_pass`);
- a JSON Web Key's private members (`"d"`, `"p"`, `"q"`, `"dp"`, `"dq"`, `"qi"`, `"k"`);
- a login-shaped user name (`DOMAIN\\user`, `first.last`) before a slash and a plainly
  made-up password, with no label;
- a one-time code a bank or a service texted ("they texted me 123456 to confirm");
- a made-up value asked about as a password ("is X strong enough?") or given in the
  sentence after its label ("... my gpg passphrase. it's X").
"""

from __future__ import annotations

from collections.abc import Iterator

from . import cached_re as re
from .secret_base import SecretFinding, _is_placeholder, _without_mask_tags, label_then_value
from .secret_codes import _NOT_CODE
from .secret_passwords import _ANY_PASSWORD_WORD, _plainly_made_up

__all__ = ["DETECTORS"]


# the options a tool reads a password from, each after its tool's name on the line
_PASSWORD_OPTION_NAME = (
    r"(?i)(?<![\w\-])(?:sshpass(?:[ \t]+-\w+)*?[ \t]+-p|ldap\w+(?:[ \t]+\S+)*?[ \t]+-w"
    # the LDAP tools' bind DN, then its password, wherever the tool's name was cut off
    r"|(?-i:-D)[ \t]+\S+(?:[ \t]+-\w+)*[ \t]+(?-i:-w)"
    r"|(?:mysql|mysqldump|mariadb)(?:[ \t]+\S+)*?[ \t]+-p(?=\S)"
    r"|smbclient(?:[ \t]+\S+)*?[ \t]+-U[ \t]+[^%\s]+%"
    # the tools that take it after "-a" ("auth"): Redis's and KeyDB's clients, redis-benchmark
    r"|(?:redis-cli|redis-benchmark|keydb-cli|valkey-cli)(?:[ \t]+\S+)*?[ \t]+(?-i:-a)(?=[ \t])"
    # Windows' "net use" takes the password after "/user:NAME" ("*" asks for it)
    r"|net[ \t]+use(?:[ \t]+\S+)*?[ \t]+/user:\S+[ \t]+(?=[^\s/*])"
    # PowerShell makes a credential's password of the string it is given as plain text
    r"|ConvertTo-SecureString(?:[ \t]+-String)?(?=[ \t]+['\"][^'\"\n]+['\"][^\n]*-AsPlainText)"
    r"|--(?:bind-?pw|bind-password|db-password|password|passwd|pass|passphrase))"
)


_PASSWORD_OPTION = re.compile(
    label_then_value(
        _PASSWORD_OPTION_NAME,
        r"(?P<v>[^\s'\"]{3,128})(?P=q)",
        r"(?:[ \t]*=[ \t]*|[ \t]*)",
        connector_group=None,
        before_value=r"(?P<q>['\"]?)",
    )
)


# a value written into a file whose name says it holds a password, a token or a key
_INTO_SECRET_FILE = re.compile(
    r"(?i)(?:echo|printf)(?:[ \t]+-\w+)*[ \t]+(?P<q>['\"]?)(?P<v>[^\s'\"<>|]{4,256})(?P=q)"
    r"[ \t]*>>?[ \t]*\S*(?:pass|pwd|secret|token|credential|\.key\b|_key\b)"
)


def _command_passwords(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    for pattern in (_PASSWORD_OPTION, _INTO_SECRET_FILE):
        for m in pattern.finditer(text):
            value = m.group("v")
            if value.startswith(("$", "-", "%", "<", "{")) or _is_placeholder(value):
                continue  # a variable, the next option, a template
            yield SecretFinding("password", m.start("v"), m.end("v"))


# a JSON Web Key's private members: an EC or OKP key's "d", an RSA key's primes and
# exponents, a symmetric key's "k"
_JWK_PRIVATE = re.compile(r'"(?:d|p|q|dp|dq|qi|k)"[ \t]*:[ \t]*"(?P<v>[A-Za-z0-9_\-]{16,})"')


#: the members of any JSON Web Key, public or private: one next to "d" makes it a key
_JWK_MEMBER = re.compile(r'"(?:kty|crv|kid|use|alg|x|y|n|e)"[ \t]*:')


def _private_jwk_members(text: str) -> Iterator[SecretFinding]:
    if not _JWK_MEMBER.search(text):
        return
    for m in _JWK_PRIVATE.finditer(text):
        yield SecretFinding("private_key", m.start("v"), m.end("v"))


# a user name shaped like a login ("CORP\\svc_backup", "j.doe", "ops_admin"), a slash
# between blanks, and a password plainly made up
_LOGIN_PAIR = re.compile(
    r"(?<![\w.@/\\\-])(?P<user>[A-Za-z][\w\-]*\\\\?[\w.\-]+|[A-Za-z][A-Za-z0-9\-]*[._][\w.\-]*[A-Za-z0-9])"
    r"[ \t]+/[ \t]+(?P<v>[^\s/\"'`,;()]{8,64})(?=[\s\"'`,;()]|[.!?](?:\s|$)|$)"
)


def _login_pairs(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    for m in _LOGIN_PAIR.finditer(text):
        value = m.group("v").rstrip(".,!?")
        if _plainly_made_up(value, explicit=False):
            yield SecretFinding("password", m.start("v"), m.start("v") + len(value))


# a code a bank or a service sent by text: "they just texted me 481926", "j'ai reçu le
# code 739 204 par SMS", "mi è arrivato per sms il codice 5521 09"
_TEXTED = re.compile(
    r"(?i)(?<![^\W_])(?:texted|sms(?:-?e[ds])?|text[ \t]+message|по[ \t]+смс|смс|短信|mensaje"
    r"|messaggio)(?![^\W_])"
)
_TEXTED_CODE = re.compile(r"(?<![\w\-.,/+])(?P<v>\d{6}|\d{3}[ \t]\d{3}|\d{4})(?![\w\-]|[.,:/]\d)")
_CODE_OR_TEXTED_TO = re.compile(
    r"(?i)(?<![^\W_])(?:code|codes|codice|código|codigo|kod|kód|koodi|код|otp|texted[ \t]+me"
    r"|confirm\w*|verif\w*)(?![^\W_])"
)


def _texted_codes(text: str) -> Iterator[SecretFinding]:
    for clause in re.finditer(r"[^.!?\n]+", text):
        said = clause.group(0)
        if not _TEXTED.search(said) or not _CODE_OR_TEXTED_TO.search(said):
            continue
        if _NOT_CODE.search(said):
            continue  # a tracking, order or booking number sent by text
        codes = list(_TEXTED_CODE.finditer(said))
        if len(codes) == 1:
            at = clause.start()
            yield SecretFinding("password", at + codes[0].start("v"), at + codes[0].end("v"))


# a value asked about as a password: "is X strong enough", "ist X sicher genug"
_ASKED_STRONG = re.compile(
    r"(?i)(?<![^\W_])(?:is|ist|est|es|è|é|är|on)[ \t]+(?P<v>\S{8,64})[ \t]+(?:(?:strong|secure|safe"
    r"|good|sicher|stark|gut|assez|suficientemente|abbastanza|tarpeeksi|tillräckligt)[ \t]+)+"
    r"(?:enough|genug|fort|sûr|segur[ao]|fuerte|sicura|forte|vahva|starkt)?"
)


# "... my gpg passphrase each time. it's X": the value given in the sentence after its label
# (and "c'est", "es ist", "het is", "det är", "это": the same words in other languages)
_ITS = re.compile(
    r"(?i)(?<![^\W_])(?:it['’]s|it[ \t]+is|c['’]est|c['’]était|es[ \t]+ist|ist[ \t]+es|het[ \t]+is"
    r"|det[ \t]+är|det[ \t]+er|eso[ \t]+es|это|to[ \t]+jest|se[ \t]+on)[ \t]+(?P<v>[^\s,;]{8,64})"
)
_PASSWORD_WORD = re.compile(r"(?i)(?<![^\W_])(?:" + _ANY_PASSWORD_WORD + r")(?![^\W_])")
_STRONG = frozenset("!@#$%^&*?+=~")


def _joined_by_symbols(value: str) -> bool:
    """Words joined by a symbol of their own ("Oboe&Thistle&Cinder"): letters, a symbol
    inside, no path, address or link."""
    inner = value[1:-1]
    return (
        any(c in _STRONG for c in inner)
        and sum(c.isalpha() for c in value) >= 6
        and "://" not in value
        and "@" not in value
        and re.fullmatch(r"[\w!#$%^&*?+=~\-.]+", value) is not None
    )


def _asked_passwords(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    for m in _ASKED_STRONG.finditer(text):
        value = m.group("v")
        if _plainly_made_up(value, explicit=False):
            yield SecretFinding("password", m.start("v"), m.end("v"))
    for m in _ITS.finditer(text):
        value = m.group("v").rstrip(".!?")
        if not _PASSWORD_WORD.search(text, max(0, m.start() - 80), m.start()):
            continue
        if _plainly_made_up(value, explicit=False) or _joined_by_symbols(value):
            yield SecretFinding("password", m.start("v"), m.start("v") + len(value))


# an app password as Apple and Google print it: four groups of four small letters
# ("abcd-efgh-ijkl-mnop", "abcd efgh ijkl mnop") in a sentence about a password
_APP_PASSWORD = re.compile(
    r"(?<![\w\-])[a-z]{4}(?P<sep>[\- ])[a-z]{4}(?:(?P=sep)[a-z]{4}){2}(?![\w\-])"
)


def _app_passwords(text: str) -> Iterator[SecretFinding]:
    for m in _APP_PASSWORD.finditer(text):
        clause = re.search(r"[^.!?\n]*$", text[: m.start()])
        said = (clause.group(0) if clause else "") + m.group(0)
        if _PASSWORD_WORD.search(said):
            yield SecretFinding("password", m.start(), m.end())


# a dial lock's combination read with its turns: "R 34 - L 12 - R 77", "L12, R40, L8"
_LETTERED_DIAL = re.compile(
    r"(?i)(?<![^\W_])(?:combo|combination|combinaison|combinación|combinazione|kombination)"
    r"(?:[ \t]+(?:is|was|est|es|è|ist))?[ \t]*:?[ \t]*"
    r"(?P<v>[LR][ \t]*\d{1,2}(?:[ \t]*[\-–,][ \t]*[LR][ \t]*\d{1,2}){2,3})(?![\w])"
)


def _lettered_dials(text: str) -> Iterator[SecretFinding]:
    for m in _LETTERED_DIAL.finditer(text):
        yield SecretFinding("password", m.start("v"), m.end("v"))


DETECTORS = (
    _app_passwords,
    _lettered_dials,
    _command_passwords,
    _private_jwk_members,
    _login_pairs,
    _texted_codes,
    _asked_passwords,
)
