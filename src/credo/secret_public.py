"""Why a value found as a secret is public: what it is, whatever words stand around it.

`credo.secrets` sets a finding aside when `public_value` says so. The reasons are about
the value and the syntax it sits in, not the wording of a sentence, so they hold in any
language:

- a reference to a value kept elsewhere, not the value: a template's `${...}`, `{{ ... }}`,
  `$(...)`, a name in code (`var.db_password`, `random_password.db.result`,
  `secrets.GITHUB_TOKEN`), a call (`getpass.getpass(`), a path of words
  (`secret/data/prod/postgres`), a part of an ARN;
- ciphertext made to be committed: SOPS's `ENC[...]`, Ansible Vault's `!vault` and
  `$ANSIBLE_VAULT`, the `encryptedData` of a SealedSecret;
- what documentation prints for everyone (`[public_values] examples`: test cards, the
  standard's example IBANs, the sample SSN) or any card number, in a text that says it
  is a test, an example or a sample (`[public_values] tests`; "my IBAN is" one of them is
  still the speaker's), and a template's placeholder (`change-me`);
- a seed phrase of one word over and over ("abandon abandon ... about"): the standard's
  test vectors; no wallet draws one;
- a router's network name (its maker's name and a hex suffix, "ACME-4F21A0") just after a
  word for a network, with no word for its key between;
- an address money or tokens are sent to: "0x" and forty hex digits (an Ethereum
  account's or contract's), a key a text calls a Pix key (Brazil's payment address);
- a word that is itself a label: a value followed by a colon and a blank (the next line
  of a log, "psql: error: ...") is a name, not what the label before it gives.
"""

from __future__ import annotations

from . import cached_re as re
from .secret_base import _WORDS, _bounded
from .secret_random import _LABEL as _SECRET_LABEL

__all__ = ["public_value"]

_TABLE = _WORDS["public_values"]
_EXAMPLES = frozenset(v.upper() for v in _TABLE["examples"])
_TESTS = re.compile("(?i)" + _bounded(_TABLE["tests"]))
#: one letter four times over where a bank's code or an account goes: a template's filler
_PLACEHOLDER_RUN = re.compile(r"([A-Z])\1{3}")
_PLACEHOLDERS = frozenset(_TABLE["placeholders"])
#: kinds a reference or a placeholder may have been read as
_VALUE_KINDS = frozenset(
    {"password", "generic_api_key", "bearer_token", "connection_string", "security_answer"}
)
_TEMPLATE = re.compile(r"\$\{|\{\{|\$\(|%\(|<%|\{%|!vault\b|ENC\[|\$ANSIBLE_VAULT")
#: a name in code: lower-case words joined by dots, or a call
_CODE_NAME = re.compile(
    r"(?:[a-z_][a-z0-9_]*\.){2,}[A-Za-z_][A-Za-z0-9_]*"  # random_password.db.result
    r"|(?:var|vars|secrets|env|local|data|process|os|config|settings|self|this|module"
    r"|inputs|params|values)\.[A-Za-z_][\w.]*"  # var.db_password, secrets.GITHUB_TOKEN
    r"|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\(.*|[A-Za-z_]\w*\((?:[\"')].*)?"  # a call
)
#: a path of words: each part letters (a digit or two), no part random
_WORD_PATH = re.compile(r"/?(?:[a-z][a-z0-9_\-]{1,30}/)+[a-z][a-z0-9_\-*]{0,30}/?")
_ARN = re.compile(r"arn:[\w\-]+:[\w\-]+:[\w\-]*:\d{0,12}:\S*$")
_CIPHERTEXT_CONTEXT = re.compile(
    r"(?i)encryptedData|kind:[ \t]*SealedSecret|\$ANSIBLE_VAULT|!vault|\bsops:"
)
#: a setting's name before its value, in the value ("JWT_SECRET=change-me") or before it
_SETTING_NAME = re.compile(r"([A-Za-z_][\w.\-]*)[ \t]*[=:][ \t]*")
_NAME_BEFORE = re.compile(r"(?:^|[\s\"'{,])([A-Za-z_][\w.\-]*)[\"']?[ \t]*[=:][ \t]*[\"']?$")
_PUBLIC_PART = re.compile(r"(?i)public|(?<![a-z])pub(?![a-z])|Pub(?=[A-Z_]|$)")
_CARD_KINDS = frozenset({"payment_card"})
#: an Ethereum address: "0x" and forty hex digits (a private key has sixty-four)
_AN_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")
#: Brazil's instant payments: a Pix key is the address money is sent to, given out to be
#: paid (a phone number, an e-mail address, a tax number or a random UUID)
_PIX = re.compile(r"(?i)(?<![^\W_])pix(?![^\W_])")
#: a test mode's keys (Stripe's, Flutterwave's), by their prefix
_TEST_MODE_PREFIXES = ("sk_test_", "rk_test_", "FLWSECK_TEST-")


#: a router's network name as printed: its maker's name in capitals, its last part four to
#: six hex digits, letters and digits ("ACMEHOME_b7e1", "NET-LINK_5G_9C1D")
_NETWORK_NAME = re.compile(
    r"[A-Z][A-Z0-9]+(?:[-_][A-Za-z0-9]+)*[-_]"
    r"(?=[0-9A-Fa-f]*[A-Fa-f])(?=[0-9A-Fa-f]*[0-9])[0-9A-Fa-f]{4,6}"
)
_NETWORK_WORD = re.compile("(?i)" + _bounded(_TABLE["networks"]))


def _a_networks_name(text: str, value: str, start: int) -> bool:
    """Whether `value` at `start` is a router's network name: its shape, just after a word
    for a network ("wifi at home: ACME_b7e1"), no word for a secret there."""
    if not _NETWORK_NAME.fullmatch(value):
        return False
    before = text[max(0, start - 40) : start]
    return bool(_NETWORK_WORD.search(before)) and not _SECRET_LABEL.search(before)


_WORD = re.compile(r"[^\W\d_]+")


def _a_test_vector(phrase: str) -> bool:
    """Whether a seed phrase is mostly one word (three words in four or more): BIP-39's
    test vectors ("abandon" eleven times, then "about"), never a wallet's own words."""
    words = _WORD.findall(phrase.lower())
    most = max((words.count(w) for w in set(words)), default=0)
    return len(words) >= 12 and most * 4 >= len(words) * 3


def _compact(value: str) -> str:
    return re.sub(r"[\s\-.]", "", value).upper()


def public_value(text: str, kind: str, start: int, end: int) -> bool:
    """Whether the finding of `kind` at `text[start:end]` is public by what it is (see the
    module's doc); False when no reason holds."""
    value = text[start:end]
    if kind == "seed_phrase":
        return _a_test_vector(value)
    compact = _compact(value)
    near = text[max(0, start - 200) : end + 200]
    example = compact in _EXAMPLES or value.rsplit(".", 1)[-1].upper() in _EXAMPLES
    # a key of a processor's test mode ("sk_test_..."), in a text that says it is
    # documentation's or an example: printed for everyone to try
    example = example or value.startswith(_TEST_MODE_PREFIXES)
    if (example or kind in _CARD_KINDS) and _TESTS.search(near):
        return True  # documentation's example, or a processor's test card, said as one
    if kind == "iban" and _PLACEHOLDER_RUN.search(compact[4:]) and _TESTS.search(near):
        return True  # a form's model IBAN ("RO49 AAAA ..."): a bank's code left as letters
    named = _NAME_BEFORE.search(text, max(0, start - 60), start)
    if named and _PUBLIC_PART.search(named.group(1)):
        return True  # "PublicKey = ...", "public_key:": a setting named public
    token_start = max(text.rfind(c, 0, start) for c in " \t\n\"'`(<[,") + 1
    if _ARN.match(text, token_start, end):
        return True  # a part of an ARN: a resource's name
    if kind not in _VALUE_KINDS and kind != "key_material":
        return False
    if _TEMPLATE.match(value) or _TEMPLATE.search(text, max(0, start - 3), start):
        return True  # a template's reference, or ciphertext
    if kind == "key_material" or len(value) >= 40:
        window = text[max(0, start - 400) : start]
        if _CIPHERTEXT_CONTEXT.search(window):
            return True  # encrypted to be committed: a SealedSecret, a vault file
    if kind == "key_material":
        return False
    if _AN_ADDRESS.fullmatch(value):
        return True  # "0x" and forty hex digits: an account's or a contract's address
    if _PIX.search(text, max(0, start - 40), start):
        return True  # a Pix key: where money is sent, given to be paid
    setting = _SETTING_NAME.match(value)
    if setting and _PUBLIC_PART.search(setting.group(1)):
        return True  # "PublicKey=...": the setting says the value is public
    if value[setting.end() if setting else 0 :].lower().strip("'\"") in _PLACEHOLDERS:
        return True
    if _a_networks_name(text, value, start):
        return True
    if _CODE_NAME.fullmatch(value) or _WORD_PATH.fullmatch(value):
        return True  # a name in code or a path: where the secret is, not the secret
    after = text[end : end + 2]
    return after[:1] == ":" and after[1:2] in (" ", "\t") and value.isalpha()
