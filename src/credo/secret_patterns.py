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
Russian, Ukrainian, Turkish, Hindi (in Latin script and Devanagari) and Korean.
Beyond a label and its value, a secret is read in the other shapes people say it in: a
setting whose name holds a secret word (`PGPASSWORD=`, `webhookSecret:`), a password
changed to a value, a code said first, keyed in, or said with nothing it opens, a token a
few words after its label, a value in groups, a made-up word in a sentence about logging
in, a card said with its expiry, a code opened "with" digits, a value used as a password,
a network's key after its name (docs/security.md lists them with the corpus figures).
`credo.secret_shapes` adds detectors read after `DETECTORS` (session cookies, setters in
code, unlock patterns, identity numbers by their check digits).
The detectors live in modules named for what they find: `credo.secret_blocks` (keys, seed
phrases, code lists), `credo.secret_numbers` (identity, bank and card numbers),
`credo.secret_tokens` (token formats and labelled keys), `credo.secret_codes` (PINs and
codes), `credo.secret_passwords` (passwords said in words), on what
`credo.secret_base` shares; this module orders them.
The trade-off is deliberate: a missed secret ends up in long-term memory, a false alarm
costs one rejected or masked fact, so ambiguous provider-shaped tokens are flagged, while
plain prose that merely mentions passwords, keys or passports is not.
"""

from __future__ import annotations

from .secret_base import Detector, SecretFinding, iban_checksum_ok
from .secret_blocks import (
    KEY_FILES,
    _backup_codes,
    _key_material,
    _labelled_seed_runs,
    _seed_phrases,
    public_blocks,
)
from .secret_codes import (
    _bare_codes,
    _card_security_codes,
    _codes_in_clause,
    _codes_opening,
    _codes_set,
    _codes_stated_first,
    _dial_combinations,
    _keyed_codes,
    _starred_codes,
    _stated_pins,
)
from .secret_numbers import (
    _accounts_by_routing,
    _ibans,
    _labelled_numbers,
    _passport_numbers,
    _payment_cards,
    _ssns,
)
from .secret_passwords import (
    _changed_passwords,
    _cjk_passwords,
    _contextual_passwords,
    _credential_pairs,
    _explained_secrets,
    _grouped_values,
    _made_up_passwords,
    _names_in_a_hint,
    _network_keys,
    _passphrases,
    _passwords_stated_first,
    _passwords_used_as,
    _quoted_logins,
    _security_answers,
    _spaced_passwords,
    _stated_passwords,
    _user_then_pass,
    _values_that_open,
    _words_and_numbers_near_a_password,
)
from .secret_tokens import (
    HEADER_TOKENS,
    TOKEN_FORMATS,
    _labelled_tokens,
    _license_keys,
    _loosely_labelled_tokens,
    _secret_settings,
    _url_passwords,
    _webhooks,
)

__all__ = ["DETECTORS", "SecretFinding", "iban_checksum_ok", "public_blocks"]


# Ordered most specific first: on overlap the earlier detector's kind is kept.
DETECTORS: tuple[Detector, ...] = (
    *KEY_FILES,
    _url_passwords,
    *TOKEN_FORMATS,
    _webhooks,
    *HEADER_TOKENS,
    _key_material,
    # blocks before the numbers they are made of: a list of codes is not a card
    _backup_codes,
    _seed_phrases,
    _labelled_seed_runs,
    _ibans,
    _ssns,
    _payment_cards,
    _passport_numbers,
    _labelled_numbers,
    _accounts_by_routing,
    _grouped_values,
    _codes_stated_first,
    _card_security_codes,
    _stated_pins,
    # a phrase of words after its label, before a password's label reads its first word
    _passphrases,
    _credential_pairs,
    _stated_passwords,
    _cjk_passwords,
    _security_answers,
    _passwords_stated_first,
    _passwords_used_as,
    _explained_secrets,
    _names_in_a_hint,
    _network_keys,
    _secret_settings,
    _changed_passwords,
    _labelled_tokens,
    _license_keys,
    _loosely_labelled_tokens,
    _bare_codes,
    _keyed_codes,
    _codes_opening,
    _codes_set,
    _dial_combinations,
    _codes_in_clause,
    _starred_codes,
    _user_then_pass,
    _contextual_passwords,
    _made_up_passwords,
    _values_that_open,
    _words_and_numbers_near_a_password,
    _spaced_passwords,
    _quoted_logins,
)
