"""Tokens and keys, by their format or their label: the formats of providers' keys (OpenAI,
AWS, GitHub, Stripe, Vault, Discord...), crypto private keys, JWTs, bearer tokens and basic
credentials, webhook URLs and the password of a connection string, settings whose name
holds a secret word (`PGPASSWORD=`, `webhookSecret:`), a random value after a key's or a
token's label or a few words after it in many languages, and licence keys.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable, Iterator

# `re`, with the compiled programs of the patterns below kept between processes when the
# command line enables credo.cache (compiling them is half a second of every cold start)
from . import cached_re as re
from .secret_base import (
    _A_DATE,
    _ANY_CONNECTOR,
    _EN_CONNECTOR,
    _MASK_TAG_START,
    _NOT_AFTER_ALNUM,
    _NOT_AFTER_TOKEN,
    _NOT_BEFORE_LETTER,
    _NOT_BEFORE_TOKEN,
    _NOT_BEFORE_WORD,
    _NOT_SECRET_PARTS,
    _PUBLIC_WORD,
    _QUALIFIER,
    _TOKEN_CHARS,
    _TRAILING_PUNCT,
    _VALUE,
    _WORDS,
    Detector,
    SecretFinding,
    _colon_words_ok,
    _has_letter_and_digit,
    _is_placeholder,
    _looks_like_bearer,
    _looks_like_token,
    _phrases,
    _plausible_bare_password,
    _regex_detector,
    _shannon_entropy,
    _value_span,
    _without_mask_tags,
)
from .secret_blocks import (
    _PUBLIC_PREFIX,
    _public_spans,
)

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
    r"(?:"
    + _NOT_AFTER_ALNUM
    + r"(?i:(?:api|access|auth|secret|client|refresh|session|bot|bearer|webhook|admin|master"
    r"|server|private|write|rest)[ _\-]?(?:key|token|secret|키|토큰)|token|secret"
    r"|密钥|秘钥|密鑰|令牌|シークレット|アクセスキー|시크릿|비밀[ \t]?키)"
    # a name in camel case that ends in the secret's word ("AppSecret", "clientSecret")
    r"|(?<=[a-z])(?:Secret|Token|Key))"
    + _NOT_BEFORE_LETTER
    # Chinese, Japanese and Korean say "is" between the label and its value ("secret 是
    # ...", "トークンは ...")
    + r"(?:[ \t]*(?:是|为|為|は|が|는|은|：|:)[ \t]*|[ \t]+)"
    + r"(?P<v>[A-Za-z0-9_\-+/=.~]{20,512})(?![A-Za-z0-9_\-+/=~])"
)


#: a word saying the key its label names is public, just before the label ("site key",
#: "publishable key", "public token")
_PUBLIC_JUST_BEFORE = re.compile(r"(?i)(?<![^\W_])(?:public|publishable|site|pub)[ \t\-]*$")


def _labelled_tokens(text: str) -> Iterator[SecretFinding]:
    for m in _GENERIC_LABEL.finditer(text):
        span = _value_span(m)
        if span is None:
            continue
        if _PUBLIC_JUST_BEFORE.search(text, max(0, m.start() - 16), m.start()):
            continue  # "site key for the form: ...", "publishable key: ...": public by design
        value, start, end, _ = span
        if m.group("vwords") and _HEX_OR_UUID.fullmatch(value):
            continue  # "the api key fix is <commit>": words between, then a digest
        if _looks_like_token(value) and _colon_words_ok(m):
            yield SecretFinding("generic_api_key", start, end)
    for m in _BARE_TOKEN.finditer(text):
        value = m.group("v").rstrip(_TRAILING_PUNCT)
        word = text[max(text.rfind(" ", 0, m.start()), 0) : m.start("v")]
        if re.search(r"(?i)public|publishable|pub(?=[A-Z_]|key)", word) or (
            _PUBLIC_JUST_BEFORE.search(text, max(0, m.start() - 16), m.start())
        ):
            continue  # "publicKey: ...", "site key: ...": a key named public
        # hex of a key's length straight after its label is a key (Twilio's auth token,
        # many APIs' keys), however its digits fall: hex is less random per character
        hex_key = len(value) >= 32 and _HEX_OR_UUID.fullmatch(value) is not None
        if _looks_like_token(value) and _shannon_entropy(value) >= (3.0 if hex_key else 3.5):
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
    r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{1,30}://(?P<user>[^\s:/@]*):"
    r"(?P<pw>[^\s/]*[^\s/@])@(?P<host>[^\s/@]+)"
)


#: what a template or a local default puts where the password goes
_PLACEHOLDER_PASSWORDS = frozenset(
    {"password", "passwd", "pass", "pwd", "secret", "changeme", "change_me", "changeit",
     "example", "yourpassword", "your_password", "your-password", "mypassword", "my_password",
     "dbpassword", "db_password"}
)  # fmt: skip


_PLACEHOLDER_USERS = frozenset({"user", "username", "your_user", "youruser", "dbuser", "db_user"})


_LOCAL_HOST = re.compile(r"(?i)(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::\d+)?")


def _template_credentials(user: str, password: str, host: str) -> bool:
    """A URL's credentials that are a template's or a local default's, not anyone's:
    "postgres://user:password@localhost/mydb", "postgres://postgres:postgres@localhost"
    (the user's name as its password, on this machine)."""
    user, password = user.lower(), password.lower()
    local = _LOCAL_HOST.fullmatch(host) is not None
    if password in _PLACEHOLDER_PASSWORDS:
        return local or user in _PLACEHOLDER_USERS
    return local and password == user


def _url_passwords(text: str) -> Iterator[SecretFinding]:
    for m in _URL_PASSWORD.finditer(text):
        if _is_placeholder(m.group("pw")):
            continue
        if _template_credentials(m.group("user"), m.group("pw"), m.group("host")):
            continue
        yield SecretFinding("connection_string", m.start("pw"), m.end("pw"))


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


# A setting whose name says it holds a secret: "PGPASSWORD=x", "SECRET_KEY_BASE=...",
# '"webhookSecret": "..."', "jwt_secret: ...", "otpauth://...?secret=BASE32". The name is
# cut into its parts (snake_case, kebab-case, camelCase, dotted); a part that names a
# secret counts unless another part says the value is about it, not it (a path, a length,
# an id, a public key).
_SETTING = re.compile(
    r"(?<![\w$.\-])(?:export[ \t]+|set[ \t]+|\$env:)?[\"']?"
    r"(?P<name>[A-Za-z][A-Za-z0-9]*(?:[_\-.][A-Za-z0-9]+)*)[\"']?"
    r"(?:[ \t]*(?P<conn>:=|=|:)[ \t]*|[ \t]+(?=[\"'][^\"'\s]))"  # Gradle: name 'value'
)


_VALUE_AT = re.compile(_VALUE)


_NAME_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


_PASSWORD_PARTS = frozenset(
    {"password", "passwd", "pwd", "pass", "passphrase", "pw", "pword", "psk", "presharedkey"}
)


#: words that say whose password a setting holds when the password's word ends its name
#: (`storePassword`, `DB_USER_PASSWORD`), not that the value is about one
_OWNER_PARTS = frozenset({"store", "user", "username", "key", "keystore", "truststore"})


_SECRET_PARTS = frozenset({"secret", "token", "apikey", "credential", "credentials", "auth"})


#: words that say what a secret is used for when a secret's word ends the name
#: (`vnp_HashSecret`, `HMAC_SECRET`, `CIPHER_KEY`: the key hashing or encrypting is done
#: with), not that the value is a digest (`SECRET_HASH` still is one)
_USE_PARTS = frozenset({"hash", "hashed", "cipher", "hmac"})


_KEY_QUALIFIERS = frozenset(
    {"api", "access", "secret", "private", "encryption", "signing", "master", "auth", "client",
     "app", "webhook", "session", "hmac", "jwt", "crypto", "license", "licence", "service",
     "account", "admin", "root", "sign", "enc", "decryption", "cookie", "consumer", "dev",
     "prod", "live", "test", "shared", "storage", "subscription", "primary", "secondary"}
)  # fmt: skip


def _setting_kind(name: str) -> str | None:
    """ "password" or "token" for a setting whose name says it holds one, else None."""
    parts = [p.lower() for p in _NAME_PARTS.findall(name)]
    owned = len(parts) >= 2 and parts[-1] in _PASSWORD_PARTS
    used = len(parts) >= 2 and parts[-1] in ("secret", "key", "token")
    voiding = [
        p
        for p in parts
        if p in _NOT_SECRET_PARTS
        and not (owned and p in _OWNER_PARTS)
        and not (used and p in _USE_PARTS)
    ]
    if not parts or voiding:
        return None
    if parts == ["psk"]:
        return "password"  # wpa_supplicant's and WireGuard's pre-shared key
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


def _short_secret(value: str) -> bool:
    """A value of a setting or a header named for a secret ("client_secret",
    "X-Naver-Client-Secret"): 8 to 64 letters, digits, "_" or "-", mixing cases or letters
    and digits, and no word in camel case ("ClientSecret")."""
    if not 8 <= len(value) <= 64 or _is_placeholder(value):
        return False
    if re.fullmatch(r"[A-Za-z0-9_\-]+", value) is None:
        return False
    if re.fullmatch(r"[a-z]*(?:[A-Z][a-z]{2,})*|[A-Z][A-Z_]*", value):
        return False  # "ClientSecret", "changeme", "MY_SECRET": words, not a secret
    mixed = any(c.islower() for c in value) and any(c.isupper() for c in value)
    return (mixed or _has_letter_and_digit(value)) and _shannon_entropy(value) >= 2.8


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
        elif _random_value(value, strict=kind == "key") or (
            _NAME_PARTS.findall(m.group("name"))[-1].lower().endswith("secret")
            and _short_secret(value)
        ):
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


# a wallet's address (public): Bitcoin (legacy, segwit), Ethereum, and the like
_ADDRESS = re.compile(
    r"bc1[a-z0-9]{25,90}|[13][1-9A-HJ-NP-Za-km-z]{25,34}|0x[0-9a-fA-F]{40}|pk_(?:live|test)_\w+"
    # bech32 public identities: a nostr profile's key (its secret is "nsec1"), an age
    # recipient (its secret is "AGE-SECRET-KEY-1")
    r"|(?:npub|nprofile|age)1[02-9ac-hj-np-z]{50,400}"
)


_LAST_WORD = re.compile(r"[^\W\d_][\w\-]*[ \t]*$")


def _word_before(text: str, at: int) -> str:
    """The word just before `at` (and the blanks after it), or nothing."""
    m = _LAST_WORD.search(text, max(0, at - 24), at)
    return m.group(0) if m else ""


_A_SETTING = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+=")


def _loosely_labelled_tokens(text: str) -> Iterator[SecretFinding]:
    text = _without_mask_tags(text)  # "[secret:x]" names no secret
    for m in _LOOSE_TOKEN.finditer(text):
        value = m.group("v").rstrip(_TRAILING_PUNCT)
        if len(m.group("gap").split()) > 10 or _HEX_OR_UUID.fullmatch(value):
            continue  # a commit, a digest or an id said near the word "key"
        if _A_SETTING.match(value):
            continue  # "API_KEY=your-key-here DATABASE_URL=...": the next setting, not a value
        if _PUBLIC_PREFIX.search(text[max(0, m.start("v") - 64) : m.start("v")]):
            continue  # "public key: ssh-ed25519 AAAA...", "fingerprint is SHA256:..."
        if _PUBLIC_WORD.search(_word_before(text, m.start()) + text[m.start() : m.start("v")]):
            continue  # "public key ...", "site key ..." (the word before "key" counts)
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


# The formats of providers' tokens and keys, crypto private keys, a Wi-Fi QR code's
# password, a password given to a command
TOKEN_FORMATS: tuple[Detector, ...] = (
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
    # Mapbox's secret and temporary tokens ("pk." is its public one)
    _regex_detector(
        "mapbox_token", r"(?<![\w.])[st]k\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{10,}"
    ),
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
    # Firebase Cloud Messaging's legacy server key: an instance id, a colon, "APA91b" and
    # its characters (134 of them as Firebase prints it)
    _regex_detector(
        "fcm_server_key",
        _NOT_AFTER_TOKEN + rf"AAAA[{_TOKEN_CHARS}]{{7}}:APA91b[{_TOKEN_CHARS}]{{120,}}",
    ),
    # Mollie's API keys: "live_" or "test_" and 30 letters and digits, made up (a key of
    # its test mode still reads the account's data)
    _regex_detector(
        "mollie_api_key",
        r"(?<![A-Za-z0-9_])(?:live|test)_(?P<v>[A-Za-z0-9]{30})(?![A-Za-z0-9_])",
        check=lambda v: _has_letter_and_digit(v) and v != v.lower() and v != v.upper(),
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
    # Databricks personal access token: "dapi" and 32 hex digits (a "-2" suffix on Azure)
    _regex_detector(
        "databricks_token", _NOT_AFTER_TOKEN + r"dapi[0-9a-f]{32}(?:-\d{1,2})?(?![A-Za-z0-9])"
    ),
    _regex_detector("docker_token", r"(?<![A-Za-z0-9_])dckr_pat_[A-Za-z0-9_\-]{20,}"),
    # Postman's API key: "PMAK-", 24 hex digits, "-", 34 hex digits
    _regex_detector(
        "postman_key", _NOT_AFTER_TOKEN + r"PMAK-[0-9a-f]{24}-[0-9a-f]{34}(?![A-Za-z0-9])"
    ),
    # 1Password's Secret Key (of its emergency kit): "A3-", then six groups of capitals
    # and digits (6-6-5-5-5-5)
    _regex_detector(
        "password_manager_key",
        r"(?<![A-Za-z0-9\-])A3-[A-Z0-9]{6}-[A-Z0-9]{6}(?:-[A-Z0-9]{5}){4}(?![A-Za-z0-9\-])",
        check=_has_letter_and_digit,
    ),
    _regex_detector("twilio_key", _NOT_AFTER_ALNUM + r"SK[0-9a-fA-F]{32}(?![A-Za-z0-9])"),
    _regex_detector("mailgun_key", _NOT_AFTER_TOKEN + r"key-[0-9a-f]{32}(?![A-Za-z0-9])"),
    _regex_detector("atlassian_token", _NOT_AFTER_TOKEN + r"ATATT3[A-Za-z0-9_\-=]{50,}"),
    _regex_detector("groq_api_key", r"(?<![A-Za-z0-9_])gsk_[A-Za-z0-9]{40,}"),
    # Notion's integration tokens ("ntn_" since 2024, "secret_" before), Grafana's service
    # account and cloud tokens ("glsa_", "glc_"), Flutterwave's secret key ("FLWSECK-" and
    # 32 hex, "-X"; "FLWPUBK-" is its public one), Midtrans's server key ("Mid-server-",
    # "SB-Mid-server-" in its sandbox; "Mid-client-" is the public one)
    _regex_detector(
        "notion_token",
        r"(?<![A-Za-z0-9_])(?:ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43})(?![A-Za-z0-9_])",
        check=lambda v: _has_letter_and_digit(v.partition("_")[2]),
    ),
    _regex_detector(
        "grafana_token",
        r"(?<![A-Za-z0-9_])(?:glsa_[A-Za-z0-9]{32}_[0-9a-f]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})"
        r"(?![A-Za-z0-9_])",
    ),
    _regex_detector(
        "flutterwave_key",
        r"(?<![A-Za-z0-9_\-])FLWSECK(?:_TEST)?-[0-9a-fA-F]{32}-X(?![A-Za-z0-9_\-])",
    ),
    _regex_detector(
        "midtrans_key",
        r"(?<![A-Za-z0-9_\-])(?:SB-)?Mid-server-[A-Za-z0-9_\-]{20,}(?![A-Za-z0-9_\-])",
    ),
    # DeepL's authentication key: a UUID, and ":fx" on its free plan's keys (a UUID alone
    # is an id; with the suffix it is only ever the key)
    _regex_detector(
        "deepl_api_key",
        r"(?<![A-Za-z0-9_\-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:fx"
        r"(?![A-Za-z0-9_\-])",
    ),
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
    # the auth token of a Twilio account, given after its account SID with no label of its
    # own: `Client("AC...", "d020...")`
    _regex_detector(
        "twilio_auth_token",
        _NOT_AFTER_ALNUM + r"AC[0-9a-f]{32}(?![A-Za-z0-9])"
        r"[^\n]{0,40}?(?<![A-Za-z0-9])(?P<v>[0-9a-f]{32})(?![A-Za-z0-9])",
        group="v",
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
)


#: a JWT's three parts, once a wrapped one's line breaks are taken out
_WRAPPED_JWT = re.compile(
    rf"eyJ[{_TOKEN_CHARS}]{{8,}}\.eyJ[{_TOKEN_CHARS}]{{8,}}\.[{_TOKEN_CHARS}]{{8,}}"
)


# Tokens in the shapes HTTP carries them: a JWT, a bearer token, basic credentials
HEADER_TOKENS: tuple[Detector, ...] = (
    # a JWT a terminal or a mail wrapped: its lines hold nothing but the token's characters
    _regex_detector(
        "jwt",
        _NOT_AFTER_TOKEN
        + rf"eyJ[{_TOKEN_CHARS}.]{{8,}}(?:\r?\n[{_TOKEN_CHARS}.]{{4,}}(?=\r?\n|$))+",
        check=lambda v: _WRAPPED_JWT.fullmatch(re.sub(r"\r?\n", "", v)) is not None,
    ),
    # its signature may be missing: a token cut at a line's end or a field's length still
    # gives its header and its claims away
    _regex_detector(
        "jwt",
        _NOT_AFTER_TOKEN
        + rf"eyJ[{_TOKEN_CHARS}]{{8,}}\.eyJ[{_TOKEN_CHARS}]{{8,}}(?:\.[{_TOKEN_CHARS}]*)?",
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
    # an Authorization header with a scheme of a service's own ("SSWS", "KakaoAK",
    # "Zoho-oauthtoken", "token", "Key"): the credential after the scheme (basic and bearer
    # credentials are read above, with what makes them public)
    _regex_detector(
        "authorization_token",
        r"(?i:authorization)[\"']?[ \t]*[:=][ \t]*[\"']?(?!(?i:basic|bearer)[ \t])"
        r"[A-Za-z][\w\-]{1,24}[ \t]+"
        r"(?P<v>[A-Za-z0-9\-._~+/]{15,}[A-Za-z0-9\-_~+/]=*)(?![\w\-.~+/=])",
        group="v",
        check=_looks_like_bearer,
    ),
)


# What a value found as a secret shows to be public by its own content or its place:
# a publishable key ("pk." / "pk_"), a JWT whose claims are documentation's or an
# anonymous role's, a public JSON Web Key's members, base64 of JSON text, a certificate
# authority's data, a test card of documentation.
_JWK_PUBLIC_MEMBER = re.compile(r'"(?:n|e|x|y|x5c|x5t|x5t#S256)"[ \t]*:[ \t]*\[?[ \t]*"$')
_CERTIFICATE_NAME = re.compile(r"(?i)(?:certificate|cert)[\w\-]*[\"']?[ \t]*[:=][ \t]*[\"']?$")


_TEST_MODE = re.compile(
    r"(?i)(?<![^\W_])(?:test[ \t\-]?mode|sandbox|test[ \t]+cards?|testkarte\w*"
    r"|carte[ \t]+de[ \t]+test|tarjeta[ \t]+de[ \t]+prueba|modo[ \t]+(?:de[ \t]+)?(?:prueba|teste)"
    r"|stripe[ \t]+test|dummy)(?![^\W_])"
)


def _b64_text(value: str) -> str | None:
    """`value` decoded from base64 (or base64url) as UTF-8 text, or None."""
    padded = value.replace("-", "+").replace("_", "/")
    padded += "=" * (-len(padded) % 4)
    try:
        return base64.b64decode(padded, validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


#: the HMAC secrets documentation signs its sample tokens with (jwt.io's debugger)
_PUBLISHED_JWT_SECRETS = tuple(s.encode() for s in _WORDS["public_values"]["jwt_secrets"])


def _signed_with_a_published_secret(parts: list[str]) -> bool:
    """Whether a JWT's three `parts` carry an HS256 signature made with a secret that
    documentation publishes: a sample whatever its claims say, forgeable by anyone."""
    if len(parts) != 3 or not parts[2]:
        return False
    header = _b64_text(parts[0])
    if header is None or not re.search(r'"alg"[ \t]*:[ \t]*"HS256"', header):
        return False
    signed = f"{parts[0]}.{parts[1]}".encode()
    for secret in _PUBLISHED_JWT_SECRETS:
        digest = hmac.new(secret, signed, hashlib.sha256).digest()
        if base64.urlsafe_b64encode(digest).rstrip(b"=").decode() == parts[2]:
            return True
    return False


def _prose(decoded: str, holds_secret: Callable[[str], bool]) -> bool:
    """Whether text decoded from base64 is a sentence of words: printable, three blanks or
    more, letters and blanks nearly all of it, and no secret of its own. Key material
    decodes to bytes that are no UTF-8 text at all."""
    if not decoded.isprintable() or decoded.count(" ") < 3:
        return False
    letters = sum(c.isalpha() or c == " " for c in decoded)
    if letters < 0.8 * len(decoded):
        return False
    return not holds_secret(decoded)


# A resource's name, not a secret inside it: an AWS ARN ("arn:aws:kms:...:key/<uuid>",
# "arn:aws:iam::<account>:user/ci"), an Azure resource id, a Google Cloud resource path
_RESOURCE_NAME = re.compile(
    r"(?:arn:aws[\w\-]*:[\w\-]+:[\w\-]*:\d{0,12}:|/?subscriptions/[\w\-]+/"
    r"|projects/[\w\-]+/(?:locations|secrets|keyRings|topics|subscriptions)/)\S*$"
)
# Where a secret is kept, not the secret: a secret manager's reference as a setting's value
# ("vault:secret/data/prod/db#password", "ref+vault://...", "op://Private/db/password",
# "awssm://...", "${{ secrets.DB }}" is a template's and read elsewhere)
_SECRET_REFERENCE = re.compile(
    r"(?i)(?:vault|ref\+[a-z0-9]+|op|awssm|awsssm|ssm|sm|gcpsm|gcsm|azkv|akv|keyvault|bws?"
    r"|doppler|secretsmanager|infisical|sops|file)(?::|://)[\w.\-]*(?:/[\w.\-]*)+"
    r"(?:#[\w.\-]+)?"
)
# a field whose name says it holds an identifier ("<RequestId>", "<HostId>", "traceId:",
# "x-amz-id-2:"): its value is a request's or a host's id, printed in every error response
_ID_FIELD = re.compile(
    r"(?:<(?P<tag>[A-Za-z][\w.\-]*)>|(?P<key>[A-Za-z][\w.\-]*)[\"']?[ \t]*[:=][ \t]*[\"']?)$"
)
# a file's path ("reports/2024/05/summary.pdf"): an object's key in a bucket, not a key
_FILE_PATH = re.compile(r"(?:[\w.\-]+/)+[\w\-]+\.[A-Za-z][A-Za-z0-9]{1,4}")
# documentation's credentials, in base64 of HTTP basic: a placeholder user and password
# ("username:password"), one word twice ("admin:admin"), RFC 7617's "Aladdin:open sesame"
_PLACEHOLDER_USERS = frozenset(
    {
        "user",
        "username",
        "login",
        "name",
        "email",
        "admin",
        "foo",
        "youruser",
        "your_username",
        "<user>",
        "<username>",
        "aladdin",
    }
)
_PLACEHOLDER_PASSWORDS = frozenset(
    {
        "password",
        "pass",
        "passwd",
        "pwd",
        "secret",
        "bar",
        "yourpassword",
        "your_password",
        "<password>",
        "<pass>",
        "open sesame",
    }
)


# what a device or a product ships with, said with a word for "default": known to anyone
# who reads its manual ("the default login is admin / password", "le mot de passe par
# défaut est admin")
_KNOWN_DEFAULTS = frozenset(
    {"admin", "administrator", "password", "root", "guest", "user", "1234", "12345",
     "123456", "0000", "changeme", "default", "ubnt", "raspberry", "pi", "toor", "support"}
)  # fmt: skip
_DEFAULT_WORD = re.compile(
    r"(?i)(?<![^\W_])(?:default|factory|out[ \t]+of[ \t]+the[ \t]+box|ships[ \t]+with"
    r"|standard\w*|voreingestellt\w*|werkseinstellung\w*|par[ \t]+d[ée]faut|por[ \t]+defecto"
    r"|predefinit\w*|predeterminad\w*|padr[ãa]o|standaard|по[ \t]+умолчанию|varsayılan"
    r"|domyśln\w*|oletus\w*|förvald\w*|기본|初期|默认|預設)(?![^\W_])"
)


def _a_known_default(text: str, start: int, end: int) -> bool:
    """Whether the password at `text[start:end]` (or a user and password pair) is what a
    product ships with, said so in its sentence."""
    parts = re.split(r"[ \t]*[/:][ \t]*", text[start:end].lower())
    if not parts or not all(p in _KNOWN_DEFAULTS for p in parts):
        return False
    left = max(text.rfind(c, 0, start) for c in ".!?\n") + 1
    right = [i for i in (text.find(c, end) for c in ".!?\n") if i >= 0]
    return _DEFAULT_WORD.search(text[left : min(right, default=len(text))]) is not None


def _an_id_field(before: str) -> bool:
    """Whether the value after `before` is a field's whose name's last part is "id"
    ("HostId", "request_id", "x-amz-id-2")."""
    m = _ID_FIELD.search(before)
    if m is None:
        return False
    name = m.group("tag") or m.group("key") or ""
    parts = [m.group(0) for m in re.finditer(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", name)]
    words = [p.lower() for p in parts if not p.isdigit()]
    if {"secret", "password", "token", "private"} & set(words):
        return False  # Vault's "secret_id" and a service account's "private_key_id" are kept
    return bool(words) and words[-1] in ("id", "ids")


def _documentations_credentials(value: str) -> bool:
    """Whether base64 of HTTP basic credentials decodes to documentation's placeholder."""
    decoded = _b64_text(value)
    if decoded is None or ":" not in decoded:
        return False
    user, _, password = decoded.partition(":")
    user, password = user.strip().lower(), password.strip().lower()
    return (user in _PLACEHOLDER_USERS and password in _PLACEHOLDER_PASSWORDS) or (
        bool(user) and user == password
    )


def shown_public(
    text: str,
    kind: str,
    start: int,
    end: int,
    *,
    holds_secret: Callable[[str], bool] = lambda _: True,
) -> bool:
    """Whether the value `text[start:end]`, found as a secret of `kind`, is public by what
    it holds or where it stands (see above). `holds_secret` says whether decoded text holds
    a secret of its own (the detectors that read this module, `credo.secrets`; passed in,
    so that this module does not import them); by default it is assumed to."""
    value = text[start:end]
    before = text[max(0, start - 60) : start]
    token_start = max(text.rfind(c, 0, start) for c in " \t\n\"'`(<[,") + 1
    if _RESOURCE_NAME.match(text, token_start, start) is not None:
        return True  # a part of an ARN or a cloud resource's path: a name, not a secret
    if kind not in ("private_key", "seed_phrase", "backup_codes") and _an_id_field(before):
        return True  # a request's or a host's id in an error response
    if kind in ("password", "generic_api_key") and (
        _SECRET_REFERENCE.fullmatch(value) or _FILE_PATH.fullmatch(value)
    ):
        return True  # a secret manager's reference, or a file's path
    if kind == "password" and re.fullmatch(r"([^\s/:]+)[ \t]*[/:][ \t]*(?i:\1)", value):
        return True  # one word as user and password ("admin / admin"): a device's default
    if kind == "password" and _a_known_default(text, start, end):
        return True  # "the default login is admin / password": the manual's
    if kind == "basic_auth" and _documentations_credentials(value):
        return True  # "dXNlcm5hbWU6cGFzc3dvcmQ=" is base64 of "username:password"
    if value.startswith(
        ("pk.", "pk_test_", "pk_live_", "FLWPUBK", "Mid-client-", "SB-Mid-client-")
    ):
        return True  # a publishable key (Mapbox, Stripe, Flutterwave), a client key (Midtrans)
    if kind == "jwt":
        parts = value.split(".")
        claims = _b64_text(parts[1]) if len(parts) > 1 else None
        if claims is not None and (
            "example" in claims.lower() or re.search(r'"role"[ \t]*:[ \t]*"anon"', claims)
        ):
            return True  # the RFC's example token, a Supabase anonymous key
        if _signed_with_a_published_secret(parts):
            return True  # jwt.io's sample: anyone can sign it, it guards nothing
    if (
        _JWK_PUBLIC_MEMBER.search(before)
        and '"kty"' in text
        and not re.search(r'"(?:d|p|q|dp|dq|qi|k)"[ \t]*:', text)
    ):
        return True  # the modulus of a public JSON Web Key
    if kind == "key_material":
        decoded = _b64_text(value)
        if decoded is not None and decoded.lstrip()[:1] in "{[" and decoded.isprintable():
            return True  # base64 of JSON text: stored preferences, not a key
        if decoded is not None and _prose(decoded, holds_secret):
            return True  # base64 of a sentence ("what does this decode to?"), not a key
        if _CERTIFICATE_NAME.search(before):
            return True  # "certificate-authority-data: ...": a CA's certificate
    if (
        kind == "private_key"
        and not re.search(r"[A-Za-z0-9+/=]{20,}", value)
        and not re.search(r"(?i)(?:Encryption|Public-Lines|Private-Lines):", value)
    ):
        return True  # a key file's first line named in prose, with no key after it (a
        # file's own fields after it are the file, cut short)
    if kind == "password" and (
        re.search(r"^[A-Z][A-Z0-9_]*=", value)
        or re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*_(?:password|passwd|secret|token)", value)
    ):
        return True  # the next setting of a flat .env, or a secret's name ("db_password")
    if kind == "payment_card" and re.search(
        r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}[ \t]?(?:[A-Z0-9]{4}[ \t]?){0,3}$", before
    ):
        # the digits of an IBAN (its country and check digits, and its bank's letters or
        # digits, before them), not a card
        return True
    # a test card of documentation ("4242 4242 4242 4242" in test mode)
    return (
        kind == "payment_card"
        and len(set(c for c in value if c.isdigit())) <= 3
        and _TEST_MODE.search(text) is not None
    )
