"""Secrets in the shapes of code and configuration files (issue 24's eighth round), read
after `credo.secret_patterns`' detectors:

- a `.pgpass` line (`host:port:database:user:password`): its last field;
- a password passed by position to a call that connects or logs in
  (`DriverManager.getConnection(url, user, password)`, `new PDO(dsn, user, password)`,
  `mysqli_connect(host, user, password)`, `smtp.login(user, password)`,
  `HTTPBasicAuth(user, password)`, `auth=(user, password)`): the literal in the
  password's place;
- a key given as a literal to a cipher's or a MAC's constructor (`Fernet(b"...")`,
  `AESGCM(...)`, `hmac.new(b"...", ...)`, `new SecretKeySpec("...".getBytes(), ...)`,
  `crypto.createHmac("sha256", "...")`);
- a wallet's private key (64 hex digits) in a list or a setting of accounts, signers or
  deployers (`accounts: ["0x..."]` of a Hardhat or Truffle configuration);
- a random value said to be what a key file holds or what a secret's setting is set to
  ("config/master.key contains ...", "... do I set that as RAILS_MASTER_KEY?").
"""

from __future__ import annotations

from collections.abc import Iterator

from . import cached_re as re
from .secret_base import (
    SecretFinding,
    _has_letter_and_digit,
    _is_placeholder,
    _looks_like_token,
    _shannon_entropy,
    _without_mask_tags,
)

__all__ = ["DETECTORS"]


# host (a name, an address or "*"), a port or "*", a database, a user, then the password
# (a line of its own, or among blanks where the lines were joined); the host holds a letter,
# a dot or "*" (no time or address of digits alone reads as one)
_PGPASS_LINE = re.compile(
    r"(?<!\S)(?=[^:\s]*[A-Za-z.*])(?:[A-Za-z0-9*][\w.\-]*|\[[0-9A-Fa-f:]+\]):(?:\d{1,5}|\*)"
    r":[^:\s]+:[^:\s]+:(?P<v>[^:\s]{3,128})(?!\S)"
)


def _pgpass_lines(text: str) -> Iterator[SecretFinding]:
    for m in _PGPASS_LINE.finditer(text):
        value = m.group("v")
        if _is_placeholder(value) or value.startswith(("$", "{", "<")):
            continue
        yield SecretFinding("password", m.start("v"), m.end("v"))


# one argument before the password: a string literal, or a name or an expression with no
# comma ("url", "cfg.user", "env['DB_USER']")
_ARGUMENT = r"(?:\"[^\"\n]*\"|'[^'\n]*'|[\w.\[\]'\"()]+)"
_LITERAL = r"(?:\"(?P<dq>[^\"\n]{3,128})\"|'(?P<sq>[^'\n]{3,128})')"

# the calls, each with how many arguments come before its password
_CREDENTIAL_CALLS = (
    (r"getConnection|mysqli_connect|mysqli|PDO|pymysql\.connect|MySQLdb\.connect", 2),
    (
        r"login|HTTPBasicAuth|HTTPDigestAuth|BasicAuth|NetworkCredential|PasswordAuthentication"
        r"|UsernamePasswordCredentials|simple_bind_s|simple_bind|bind_s|setCredentials"
        r"|withCredentials|auth",
        1,
    ),
)
_CREDENTIAL_CALL = [
    re.compile(
        rf"(?<![\w$])(?:new[ \t]+)?(?:[\w.]+\.)?(?:{names})[ \t]*\([ \t\n]*"
        + rf"(?:{_ARGUMENT}[ \t\n]*,[ \t\n]*){{{before}}}"
        + _LITERAL
        + r"[ \t\n]*[,)]"
    )
    for names, before in _CREDENTIAL_CALLS
]
# requests' and httpx's auth=(user, password)
_AUTH_TUPLE = re.compile(
    r"(?<![\w$])auth[ \t]*=[ \t]*\([ \t]*" + _ARGUMENT + r"[ \t]*,[ \t]*" + _LITERAL + r"[ \t]*\)"
)


def _value(m: re.Match[str]) -> tuple[str, int, int]:
    group = "dq" if m.group("dq") is not None else "sq"
    return m.group(group), m.start(group), m.end(group)


def _call_passwords(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    for pattern in (*_CREDENTIAL_CALL, _AUTH_TUPLE):
        for m in pattern.finditer(text):
            value, start, end = _value(m)
            if _is_placeholder(value) or value.startswith(("$", "{", "<", "%")) or " " in value:
                continue  # a template, a variable, words
            if value.lower() in ("password", "passwd", "secret", "pass", "changeme"):
                continue  # documentation's stand-in
            yield SecretFinding("password", start, end)


# a cipher's or a MAC's constructor, and the arguments before its key (an algorithm's name)
_CIPHER_CALL = re.compile(
    r"(?<![\w$])(?:new[ \t]+)?(?:[\w.]+\.)?(?:Fernet|MultiFernet|AESGCM|AESCCM|AESSIV|AESOCB3"
    r"|ChaCha20Poly1305|AES\.new|DES3\.new|ChaCha20\.new|Blowfish\.new|hmac\.new|HMAC"
    r"|SecretKeySpec|createHmac|createCipheriv|createDecipheriv|NewCipher|Hmac|HmacSHA256)"
    r"[ \t]*\([ \t]*(?:['\"][\w\-]{2,16}['\"][ \t]*,[ \t]*)?"
    r"(?:b|Buffer\.from\(|\[\]byte\()?['\"](?P<v>[A-Za-z0-9+/_\-=]{16,256})['\"]"
)


def _cipher_keys(text: str) -> Iterator[SecretFinding]:
    for m in _CIPHER_CALL.finditer(text):
        value = m.group("v")
        if _is_placeholder(value) or not _random(value):
            continue
        yield SecretFinding("encryption_key", m.start("v"), m.end("v"))


# a wallet's private key in a list or a setting of accounts, signers or deployers
_WALLET_SETTING = re.compile(
    r"(?i)(?<![\w])[\"']?(?:accounts|signers?|deployer(?:_key)?|wallet(?:_key)?|owner_key"
    r"|mnemonic|private[_\-]?keys?)[\"']?[ \t]*[:=][ \t]*\[?(?:[ \t\n]*[\"'][^\"'\n]*[\"'][ \t]*,)*"
    r"[ \t\n]*[\"']?(?P<v>(?:0x)?[0-9a-fA-F]{64})(?![0-9a-zA-Z])"
)


def _wallet_keys(text: str) -> Iterator[SecretFinding]:
    for m in _WALLET_SETTING.finditer(text):
        yield SecretFinding("crypto_private_key", m.start("v"), m.end("v"))


# a key file named ("config/master.key", "server.key", "secret.pem") or a secret's setting
# named in capitals ("RAILS_MASTER_KEY", "APP_SECRET") in the sentence of a random value
_KEY_HOLDER = re.compile(
    r"(?<![\w.])[\w./\-]*\.(?:key|pem|p8|jks|keystore|secret)(?![\w])"
    r"|(?<![\w])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:KEY|SECRET|TOKEN|PASSWORD|PASSPHRASE)(?![\w])"
)
# a digest, a fingerprint or a commit said of the file, or a public key: public, not a
# secret
_DIGEST_WORD = re.compile(
    r"(?i)(?<![^\W_])(?:sha\w*|md5|hash|checksum|digest|fingerprint|thumbprint|commit|etag"
    r"|crc\w*|id|uuid|kid|version|public|pub|publishable|anon|site)(?![^\W_])"
    r"|(?<![A-Za-z])(?:PUBLIC|PUB|PUBLISHABLE|ANON|SITE)_"
)
_RANDOM_VALUE = re.compile(r"(?<![\w\-+/=.~])(?P<v>[A-Za-z0-9_\-+/]{32,512}={0,2})(?![\w\-+/=~])")


def _random(value: str) -> bool:
    """A value random enough to be a key: `_looks_like_token`, or 32 hex digits or more."""
    if re.fullmatch(r"(?:0x)?[0-9a-fA-F]{32,}", value):
        return _shannon_entropy(value) >= 3.0
    return _looks_like_token(value) or (
        _has_letter_and_digit(value) and _shannon_entropy(value) >= 3.5
    )


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around `text[start:end]`: a full stop ends one only before a blank (a
    file's name holds dots)."""
    ends = [m.end() for m in re.finditer(r"[.!?。！？](?:\s|$)|\n", text[:start])]
    after = re.search(r"[.!?。！？](?:\s|$)|\n", text[end:])
    return text[ends[-1] if ends else 0 : end + after.start() if after else len(text)]


def _key_file_contents(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)
    for m in _RANDOM_VALUE.finditer(text):
        value = m.group("v")
        if not _random(value):
            continue
        sentence = _sentence(text, m.start(), m.end())
        if not _KEY_HOLDER.search(sentence) or _DIGEST_WORD.search(sentence):
            continue
        yield SecretFinding("generic_api_key", m.start("v"), m.end("v"))


DETECTORS = (_pgpass_lines, _call_passwords, _cipher_keys, _wallet_keys, _key_file_contents)
