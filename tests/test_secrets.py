"""Secret detection: every kind inside realistic facts, the false-positive list, masking.

Fake credentials are assembled at import time so that no credential-shaped literal sits in
the source for secret scanners to trip on. The larger recall and precision sets (60+
secrets of every kind, 100+ ordinary facts full of numbers) live in `data_secrets.py`.
"""

from __future__ import annotations

import base64
import json
import random
import string
from pathlib import Path

import pytest
from data_secrets import (
    IBAN_DE,
    IBAN_FI,
    IBAN_GB,
    ORDINARY_FACTS,
    SECRETS,
    SHAPE_LOOKALIKES,
    SHAPES,
    iban,
    with_wrong_check_digits,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.gate import Candidate, check
from credo.secrets import (
    SecretFinding,
    contains_secret,
    find_secrets,
    find_secrets_whole,
    iban_checksum_ok,
    mask_secrets,
)
from credo.testing import memory_for_tests


def _b64url(obj: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


def _random_token(n: int, seed: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(random.Random(seed).choices(alphabet, k=n))


OPENAI = "sk-proj-" + "a1B2" * 12
OPENAI_LEGACY = "sk-" + _random_token(48, 1)
ANTHROPIC = "sk-ant-api03-" + "Zq9_" * 20
AWS_ID = "AKIA" + "Q3ZL7XJ2" * 2
AWS_STS_ID = "ASIA" + "M4PK8WQ1" * 2
AWS_SECRET = _random_token(40, 2, string.ascii_letters + string.digits + "/+")
GITHUB = "ghp_" + _random_token(36, 3)
GITHUB_OAUTH = "gho_" + _random_token(36, 4)
GITHUB_PAT = "github_pat_" + _random_token(22, 5) + "_" + _random_token(59, 6)
GITLAB = "glpat-" + _random_token(20, 7)
SLACK = "xoxb-" + "1234567890-1234567890123-" + _random_token(24, 8)
STRIPE = "sk_" + "live_" + _random_token(24, 9)
STRIPE_RESTRICTED = "rk_" + "live_" + _random_token(24, 10)
GOOGLE = "AIza" + _random_token(35, 11)
JWT = (
    _b64url({"alg": "HS256", "typ": "JWT"})
    + "."
    + _b64url({"sub": "1234567890", "name": "Arttu"})
    + "."
    + _random_token(43, 12)
)
BEARER = _random_token(32, 13)
GENERIC = _random_token(32, 14)
HUGGINGFACE = "hf_" + _random_token(34, 15)
PRIVATE_KEY = (
    "-----BEGIN "
    + "RSA PRIVATE KEY-----\n"
    + "\n".join(_random_token(64, 16 + i) for i in range(4))
    + "\n-----END RSA PRIVATE KEY-----"
)

# (kind, text, the secret value that must be found and masked)
POSITIVES: list[tuple[str, str, str]] = [
    ("openai_api_key", f"Arttu's OpenAI key is {OPENAI}", OPENAI),
    ("openai_api_key", f"OPENAI_API_KEY={OPENAI_LEGACY}", OPENAI_LEGACY),
    ("anthropic_api_key", f"use {ANTHROPIC} for the Claude calls", ANTHROPIC),
    ("aws_access_key", f"the CI user's access key id is {AWS_ID}", AWS_ID),
    ("aws_access_key", f"temporary creds {AWS_STS_ID} expire hourly", AWS_STS_ID),
    ("aws_secret_key", f"aws_secret_access_key = {AWS_SECRET}", AWS_SECRET),
    ("aws_secret_key", f"The AWS secret key is {AWS_SECRET}.", AWS_SECRET),
    ("github_token", f"deploy bot uses {GITHUB} to push tags", GITHUB),
    ("github_token", f"oauth token {GITHUB_OAUTH}", GITHUB_OAUTH),
    ("github_token", f"fine-grained PAT: {GITHUB_PAT}", GITHUB_PAT),
    ("gitlab_token", f"GitLab runner token {GITLAB} is in CI", GITLAB),
    ("slack_token", f"the Slack bot token is {SLACK}", SLACK),
    ("stripe_key", f"Stripe live key {STRIPE} on the billing service", STRIPE),
    ("stripe_key", f"restricted key {STRIPE_RESTRICTED}", STRIPE_RESTRICTED),
    ("google_api_key", f"Maps key: {GOOGLE}", GOOGLE),
    ("jwt", f"session cookie was {JWT} yesterday", JWT),
    ("jwt", f"Authorization: Bearer {JWT}", JWT),
    ("bearer_token", f"call it with Authorization: Bearer {BEARER}", BEARER),
    ("huggingface_token", f"HF token {HUGGINGFACE}", HUGGINGFACE),
    ("private_key", f"Arttu's deploy key:\n{PRIVATE_KEY}\nkeep it safe", PRIVATE_KEY),
    ("password", "my password is hunter2", "hunter2"),
    ("password", "Arttu's gmail password is Tr0ub4dor&3.", "Tr0ub4dor&3"),
    ("password", "password: X9kq2mz", "X9kq2mz"),
    ("password", "pw=abc123", "abc123"),
    ("password", "the wifi password is correcthorsebattery", "correcthorsebattery"),
    ("password", "the password for the staging router is admin2024", "admin2024"),
    ("password", "my password was changed to Qwerty!9", "Qwerty!9"),
    ("password", 'config {"password": "two words", "user": "app"}', "two words"),
    ("password", "DB_PASSWORD=s3cr3t-value", "s3cr3t-value"),
    ("password", "Server=db;User Id=app;Password=S3cr3t;Database=x", "S3cr3t"),
    ("password", "the door passcode is 0451", "0451"),
    ("password", "Arttu's bank PIN is 1234", "1234"),
    ("password", "my PIN code: 987654", "987654"),
    ("password", "hunter2 is my wifi password.", "hunter2"),
    ("connection_string", "the prod DB is postgres://app:S3cr3t!@db.internal:5432/app", "S3cr3t!"),
    ("connection_string", "mysql://root:toor@127.0.0.1:3306/shop", "toor"),
    ("connection_string", "mongodb+srv://admin:Pa55word@cluster0.example.net/db", "Pa55word"),
    ("connection_string", "cache at redis://:r3dis-pw@cache.internal:6379/0", "r3dis-pw"),
    ("connection_string", "queue is amqp://guest:guestpw@rabbit:5672", "guestpw"),
    ("connection_string", "fetch from https://arttu:hunter22@git.example.com/repo", "hunter22"),
    ("connection_string", "postgres://app:p@ss@db:5432/app", "p@ss"),
    ("payment_card", "Arttu's card is 4111 1111 1111 1111, exp 12/29", "4111 1111 1111 1111"),
    ("payment_card", "billing card 5555555555554444", "5555555555554444"),
    ("payment_card", "amex 3782-822463-10005 for travel", "3782-822463-10005"),
    ("payment_card", "card 4111-1111-1111-1111.", "4111-1111-1111-1111"),
    ("generic_api_key", f"the Mistral api key is {GENERIC}", GENERIC),
    ("generic_api_key", f"x-api-key: {GENERIC}", GENERIC),
    ("generic_api_key", f'{{"client_secret": "{GENERIC}"}}', GENERIC),
    ("generic_api_key", f"WEBHOOK_SECRET={GENERIC}", GENERIC),
]

NEGATIVES: list[str] = [
    "Arttu deploys arttuan.com on Vercel",
    "Arttu lives in Berlin",
    "The deploy target is prod",
    "Postgres 16 on Neon",
    "I was born in 1990",
    "call me at +358 40 123 4567",
    "order #4111 arrived",
    "the repo is https://github.com/arttu/credo",
    "see https://docs.example.com:8443/path?q=1#frag",
    "fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "the key to success is patience",
    "my password manager is 1Password",
    "1Password is my password manager",
    "the password is in 1Password",
    "the password is stored in Vault",
    "the password is 12 characters long",
    "passwords are rotated every 90 days",
    "forgot password? use the reset link",
    "a password reset link was sent",
    "password: <your password>",
    "password=${DB_PASSWORD}",
    "password: ********",
    "the secret is out",
    "the API key is in the team vault",
    "token: YOUR_API_KEY_HERE",
    "the boarding pass is ready",
    "version 1.2.3 released on 2024-01-15",
    "timestamps 1700000000000 and 20240115123456",
    "4111111111111112 is not a valid card",
    "4111 1111 1111 1112",
    "invoice 1234567890123 was paid",
    "bearer bonds are a thing of the past",
    "ssh://git@github.com/arttu/credo.git",
    "the PIN pad is broken",
    "Arttu pinned numpy to 1.26",
]


@pytest.mark.parametrize(("kind", "text", "secret"), POSITIVES)
def test_detects_each_kind_inside_a_fact(kind: str, text: str, secret: str) -> None:
    findings = find_secrets(text)
    assert [(f.kind, text[f.start : f.end]) for f in findings] == [(kind, secret)]
    assert contains_secret(text)


@pytest.mark.parametrize(("kind", "text", "secret"), POSITIVES)
def test_mask_removes_the_value_and_keeps_the_rest(kind: str, text: str, secret: str) -> None:
    masked = mask_secrets(text)
    assert secret not in masked
    assert masked == text.replace(secret, f"[secret:{kind}]", 1)


@pytest.mark.parametrize(("kind", "text", "secret"), POSITIVES)
def test_masked_text_is_clean(kind: str, text: str, secret: str) -> None:
    masked = mask_secrets(text)
    assert not contains_secret(masked), find_secrets(masked)
    assert mask_secrets(masked) == masked


@pytest.mark.parametrize("text", NEGATIVES)
def test_ordinary_facts_are_not_secrets(text: str) -> None:
    assert find_secrets(text) == []
    assert not contains_secret(text)
    assert mask_secrets(text) == text


def test_masking_keeps_the_fact_readable() -> None:
    assert mask_secrets(f"Arttu's OpenAI key is {OPENAI}") == (
        "Arttu's OpenAI key is [secret:openai_api_key]"
    )
    assert mask_secrets("the prod DB is postgres://app:S3cr3t!@db.internal:5432/app") == (
        "the prod DB is postgres://app:[secret:connection_string]@db.internal:5432/app"
    )
    assert mask_secrets("my password is hunter2.") == "my password is [secret:password]."


@pytest.mark.parametrize(
    "number",
    [
        "4111 1111 1111 1111",
        "4111-1111-1111-1111",
        "4111111111111111",
        "5555555555554444",
        "5555 5555 5555 4444",
        "378282246310005",
        "6011111111111117",
        "3530111333300000",
        "2223003122003222",
        "4222222222222",
    ],
)
def test_luhn_valid_card_numbers_are_secrets(number: str) -> None:
    text = f"pay with {number} please"
    assert [(f.kind, text[f.start : f.end]) for f in find_secrets(text)] == [
        ("payment_card", number)
    ]


@pytest.mark.parametrize(
    "number",
    ["4111111111111112", "4111 1111 1111 1112", "5555555555554445", "378282246310006"],
)
def test_luhn_invalid_card_numbers_are_not(number: str) -> None:
    assert not contains_secret(f"pay with {number} please")


def test_several_secrets_are_found_in_order() -> None:
    text = f"key {OPENAI}, db postgres://u:pw123@h/db, card 5555555555554444"
    findings = find_secrets(text)
    assert [f.kind for f in findings] == ["openai_api_key", "connection_string", "payment_card"]
    assert findings == sorted(findings, key=lambda f: f.start)
    masked = mask_secrets(text)
    for secret in (OPENAI, "pw123", "5555555555554444"):
        assert secret not in masked
    assert masked.startswith("key [secret:openai_api_key], db postgres://u:")


def test_specific_kind_wins_over_labelled_generic() -> None:
    assert [f.kind for f in find_secrets(f"api_key: {GITHUB}")] == ["github_token"]
    assert [f.kind for f in find_secrets(f"password: {OPENAI}")] == ["openai_api_key"]


def test_finding_is_a_frozen_value() -> None:
    finding = SecretFinding("jwt", 1, 5)
    assert finding == SecretFinding("jwt", 1, 5)
    with pytest.raises(AttributeError):
        finding.start = 2  # type: ignore[misc]


def test_unterminated_private_key_is_masked_to_the_end() -> None:
    text = "pasted: -----BEGIN OPENSSH PRIVATE KEY-----\n" + _random_token(70, 30)
    assert mask_secrets(text) == "pasted: [secret:private_key]"


_FRAGMENTS = [
    "Arttu ",
    "password ",
    "is ",
    ": ",
    "=",
    "hunter2 ",
    OPENAI,
    " 4111 1111 1111 1111 ",
    "postgres://a:b@c/d ",
    "key ",
    GENERIC,
    "\n",
    "'",
    '"',
    "-----BEGIN EC PRIVATE KEY-----",
    "Passwort ",
    "ist ",
    "salasana ",
    "on ",
    "Geheim2024 ",
    IBAN_DE,
    " 536-22-8147 ",
    "SSN ",
    "287654321 ",
    "passport ",
    "X4829173 ",
    "AccountKey=",
    "?sig=",
    "PIN ",
    "1234 ",
    "[secret:us_ssn] ",
]


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS) | st.text(max_size=8), max_size=12))
def test_findings_are_ordered_disjoint_and_masking_removes_them(parts: list[str]) -> None:
    text = "".join(parts)
    findings = find_secrets(text)
    for f in findings:
        assert 0 <= f.start < f.end <= len(text)
    for a, b in zip(findings, findings[1:], strict=False):
        assert a.end <= b.start
    assert contains_secret(text) == bool(findings)
    masked = mask_secrets(text)
    assert masked.count("[secret:") >= len(findings)
    assert not contains_secret(masked), (masked, find_secrets(masked))
    assert mask_secrets(masked) == masked


# --- the recall and precision sets ------------------------------------------------------


def _covering(text: str, secret: str) -> list[SecretFinding]:
    at = text.index(secret)
    return [f for f in find_secrets(text) if f.start <= at and at + len(secret) <= f.end]


@pytest.mark.parametrize(("kind", "text", "secret"), SECRETS)
def test_every_listed_secret_is_found_with_its_kind(kind: str, text: str, secret: str) -> None:
    found = _covering(text, secret)
    assert [f.kind for f in found] == [kind], find_secrets(text)
    assert text[found[0].start : found[0].end] == secret  # the value, not its label
    assert contains_secret(text)


@pytest.mark.parametrize(("kind", "text", "secret"), SECRETS)
def test_masking_removes_every_listed_secret(kind: str, text: str, secret: str) -> None:
    masked = mask_secrets(text)
    assert secret not in masked
    assert f"[secret:{kind}]" in masked
    assert not contains_secret(masked), find_secrets(masked)
    assert mask_secrets(masked) == masked


@pytest.mark.parametrize("text", ORDINARY_FACTS)
def test_ordinary_facts_with_numbers_stay_storable(text: str) -> None:
    assert find_secrets(text) == [], [(f.kind, text[f.start : f.end]) for f in find_secrets(text)]
    assert mask_secrets(text) == text


def test_precision_and_recall_over_the_sets() -> None:
    assert len(SECRETS) >= 60 and len(ORDINARY_FACTS) >= 100
    assert len(set(ORDINARY_FACTS)) == len(ORDINARY_FACTS)
    false_positives = [t for t in ORDINARY_FACTS if contains_secret(t)]
    found = [t for _, t, secret in SECRETS if _covering(t, secret)]
    assert (len(false_positives), len(found)) == (0, len(SECRETS)), false_positives
    kinds = {kind for kind, _, _ in SECRETS}
    assert {"iban", "us_ssn", "passport_number", "password", "azure_key", "jwt"} <= kinds


@pytest.mark.parametrize(
    "text",
    [
        f"My IBAN is {IBAN_DE}",
        "Mein Passwort ist Geheim2024",
        "Social security: 536-22-8147",
        "passport X4829173",
    ],
)
def test_the_gate_refuses_them_as_secrets(text: str) -> None:
    verdict = check(Candidate(text=text, subject="arttu"))
    assert verdict.code == "secret"
    assert text.split()[-1] not in verdict.reason


def test_the_gate_refuses_every_listed_secret_as_a_secret() -> None:
    codes = {text: check(Candidate(text=text, subject="arttu")).code for _, text, _ in SECRETS}
    assert {t: c for t, c in codes.items() if c != "secret"} == {}


def test_rejections_are_logged_masked(tmp_path: Path) -> None:
    memory = memory_for_tests(tmp_path / "rejections.db", scope="arttu")
    for _, text, _ in SECRETS[:30]:
        memory.remember(text)
    logged = " ".join(r.text for r in memory.rejections(limit=100))
    for _, _, secret in SECRETS[:30]:
        assert secret not in logged
    assert "[secret:" in logged


# --- IBAN -------------------------------------------------------------------------------


def test_iban_check_digits_are_iso_13616() -> None:
    assert iban_checksum_ok(IBAN_DE.replace(" ", ""))
    assert iban_checksum_ok(IBAN_GB.lower())
    assert iban("GB", "WEST12345698765432") == "GB82WEST12345698765432"  # the registry's
    assert iban("DE", "370400440532013000") == "DE89370400440532013000"  # own examples
    assert not iban_checksum_ok("DE00370400440532013000")
    assert not iban_checksum_ok("DE89 3704")


@pytest.mark.parametrize("value", [IBAN_DE, IBAN_FI, IBAN_GB])
def test_an_iban_with_wrong_check_digits_is_not_one(value: str) -> None:
    wrong = with_wrong_check_digits(value)
    assert wrong != value.replace(" ", "")
    assert find_secrets(f"account {wrong} at the bank") == []


@pytest.mark.parametrize(
    "text",
    [
        "code DE8937040044053201300099 here",  # too long for Germany
        "code DE893704004405320130 here",  # too short
        "the ZZ12 3456 7890 1234 56 reference",  # no such country
        "DE89 3704 0044 0532 0130 00X7",  # runs into another token
    ],
)
def test_iban_shapes_that_are_not_ibans(text: str) -> None:
    assert [f for f in find_secrets(text) if f.kind == "iban"] == []


def test_an_iban_is_masked_whole_and_the_rest_kept() -> None:
    assert mask_secrets(f"Pay {IBAN_DE}, reference 4471.") == "Pay [secret:iban], reference 4471."


# --- US social security numbers -------------------------------------------------------


@pytest.mark.parametrize(
    "number",
    ["000-12-3456", "666-12-3456", "900-12-3456", "987-65-4321", "123-00-4567", "123-45-0000"],
)
def test_ssns_in_ranges_never_issued_are_not_secrets(number: str) -> None:
    assert find_secrets(f"My SSN is {number}") == []


@pytest.mark.parametrize("text", ["the code 301 48 2267 opens it", "customer 287654321"])
def test_an_unlabelled_ssn_needs_its_dashes(text: str) -> None:
    assert find_secrets(text) == []


# --- passports --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "the reference X4829173 was emailed",  # no passport word
        "My passport is at home. The locker number is X4829173",  # another sentence
        "I renewed my passport; the fee receipt is 583920174",
        "Faccio 12000000 passi all'anno",  # Italian "passi" are steps
        "My passport expires on 20310520",  # a date, not a number
    ],
)
def test_numbers_that_are_not_passport_numbers(text: str) -> None:
    assert [f for f in find_secrets(text) if f.kind == "passport_number"] == []


# --- passwords in other languages -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Das Passwort vom Router ist FritzBox!2024", "FritzBox!2024"),
        ("Das Passwort ist jetzt Winter2025", "Winter2025"),
        ("Adminpasswort: Xy7!pQ", "Xy7!pQ"),
        ("mdp: chat2019", "chat2019"),
        ("Le mot de passe d'accès est Xz9!kk", "Xz9!kk"),
        ("contraseña: hola1234", "hola1234"),
        ("Salasana palvelimelle on Root!234", "Root!234"),
        ("Lösenordet till wifi är Katt2020", "Katt2020"),
        ("la password dell'account è Sole!12", "Sole!12"),
        ("A senha do wifi é Praia2020", "Praia2020"),
        ("wachtwoord: welkom01", "welkom01"),
        ("Adgangskoden er Hygge2024", "Hygge2024"),
        ("Heslo je Praha2024", "Praha2024"),
        ('"Sommar2024!" är mitt lösenord.', "Sommar2024!"),
        ("Kissa123! on salasanani.", "Kissa123!"),
        ("PIN-Code ist 4711", "4711"),
        ("PIN-koodi on 8642", "8642"),
        ("the door code is 1234", "1234"),
        ("Le mot de passe est « Soleil 2023 »", "Soleil 2023"),
        ("Das Passwort lautet „Grüne Wiese 7“", "Grüne Wiese 7"),
    ],
)
def test_stated_passwords_in_other_languages(text: str, secret: str) -> None:
    assert [(f.kind, text[f.start : f.end]) for f in find_secrets(text)] == [("password", secret)]


@pytest.mark.parametrize(
    "text",
    [
        "Das Passwort ist das gleiche wie vorher",
        "Das Kennwort lautet wie der Hund",
        "Le mot de passe est le même que pour Jira",
        "Mi contraseña es la misma de siempre",
        "Salasana on sama kuin ennen",
        "Lösenordet är samma som förut",
        "La password è la stessa di prima",
        "A senha é a mesma de antes",
        "Het wachtwoord is hetzelfde als vroeger",
        "Hasło jest takie samo",
        "Heslo je stejné",
        "Kennwort vergessen? Klicken Sie hier",
        "The password on the router is the default one",
        "Passwordless login via passkeys is enabled",
        "pass=ok in the CI summary means the tests passed",
    ],
)
def test_talk_about_passwords_in_any_language_is_not_a_secret(text: str) -> None:
    assert find_secrets(text) == [], [(f.kind, text[f.start : f.end]) for f in find_secrets(text)]


def test_a_query_string_password_ends_at_the_next_parameter() -> None:
    text = "jdbc:postgresql://db:5432/app?user=app&password=Zq8!rT2w&sslmode=require"
    assert mask_secrets(text) == (
        "jdbc:postgresql://db:5432/app?user=app&password=[secret:password]&sslmode=require"
    )


@pytest.mark.parametrize(("text", "secret"), SHAPES)
def test_new_shapes_of_secrets_are_masked(text: str, secret: str) -> None:
    """Each class issue 24 added: the secret found, and nothing of it left once masked."""
    assert find_secrets_whole(text), text
    masked = mask_secrets(text)
    assert secret not in masked, masked
    assert find_secrets_whole(masked) == []


@pytest.mark.parametrize("text", SHAPE_LOOKALIKES)
def test_facts_like_the_new_shapes_stay_storable(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


# --- issue 24, second round: classes of secrets said in shapes not read before ----------
# One test per class, each with sentences of several languages written for it (none from
# the corpus), and the ordinary facts of the same shape that must stay storable.

_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
AGE_IDENTITY = "AGE-SECRET-KEY-1" + _random_token(58, 41, _BECH32.upper())
NOSTR_KEY = "nsec1" + _random_token(58, 42, _BECH32)
BIP32_KEY = "xprv9s21ZrQH143K" + _random_token(95, 43, "123456789ABCDEFGHJKLMNPQRSTUVWXYZ"
                                                     "abcdefghijkmnopqrstuvwxyz")  # fmt: skip
TOTP_UPPER = "KVQW" + "4ZT7" + "PLR2" + "MX6D"  # base32 of 16, as an authenticator shows it
TOTP_LOWER = "n3vq" + "kd5t" + "wzpa" + "7rmc" + "e2hy"


def _found(text: str, secret: str) -> None:
    assert find_secrets_whole(text), text
    masked = mask_secrets(text)
    assert secret not in masked, masked
    assert find_secrets_whole(masked) == [], masked


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # numbers that fail the checksum, said with a card's expiry or check digits
        ("Visa 4532 7788 1290 3345, valid thru 08/28", "4532 7788 1290 3345"),
        ("meine Karte fürs Hotel: 5412 7534 9910 2283, gültig bis 11/27", "5412 7534 9910 2283"),
        ("tarjeta 4024 0071 5533 9812 vence 03/29, cvv 118", "4024 0071 5533 9812"),
        ("my card for the deposit: 4916338506082834 exp 09/31", "4916338506082834"),
    ],
)
def test_a_card_number_said_with_its_expiry_is_a_card(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "4532 7788 1290 3345 is the tracking id; it expires in a week",
        "Bestellnummer 4532 7788 1290 3345, läuft ab Ende 2027",
        "the card expired in 2023, order 5412 7534 9910 2283 was cancelled",
    ],
)
def test_a_number_near_an_expiry_that_says_it_is_no_card_stays(text: str) -> None:
    assert [f for f in find_secrets_whole(text) if f.kind == "payment_card"] == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # the kind of account named instead of "bank account"
        ("my savings account is 8834120077 at the credit union", "8834120077"),
        ("Girokonto: 0532013000 bei der Sparkasse", "0532013000"),
        ("mon compte courant est le 12345678901", "12345678901"),
        ("il mio conto corrente è 000012345678", "000012345678"),
    ],
)
def test_an_account_named_by_its_kind_is_a_bank_account(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "my savings account has 12000 in it",
        "my checking account is 20 years old",
        "the savings account interest is 2.5% this year",
    ],
)
def test_talk_about_an_account_stays(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # abbreviated labels of identity numbers, and passport labels that name the number
        ("pnr 19900314-2386 för bostadskön", "19900314-2386"),
        ("fnr 12039012345", "12039012345"),
        ("aadhaar number 2345 6789 0123", "2345 6789 0123"),
        ("Reisepassnummer CFH7LKZRT", "CFH7LKZRT"),
        ("passport no. LKPZTRXV2 for the visa form", "LKPZTRXV2"),
    ],
)
def test_abbreviated_and_number_naming_labels(text: str, secret: str) -> None:
    _found(text, secret)


def test_an_aws_secret_after_its_key_id_is_found_without_a_label() -> None:
    aws_id = "AKIA" + _random_token(16, 44, string.ascii_uppercase + string.digits)
    secret = _random_token(40, 45, string.ascii_letters + string.digits + "/+")
    for text in (f"{aws_id} / {secret}", f"Zugang: {aws_id}, {secret} (prod)"):
        _found(text, secret)
    assert mask_secrets(f"the key {aws_id} was rotated, see OPS-2291") == (
        "the key [secret:aws_access_key] was rotated, see OPS-2291"
    )


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # a 2FA secret as an authenticator shows it: base32, shorter than a token
        (f"2FA-Schlüssel fürs Konto: {TOTP_UPPER}", TOTP_UPPER),
        (f"clé secrète de l'authentificateur : {TOTP_LOWER}", TOTP_LOWER),
        (f"the totp secret they showed me {TOTP_UPPER}", TOTP_UPPER),
    ],
)
def test_a_base32_2fa_secret_after_its_label(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "the key word in the title is LONDONPARISBERLIN",
        "the key to the shed is in drawer 4",
        "token ring networks were replaced by ethernet in 1998",
    ],
)
def test_words_after_a_key_label_that_are_no_base32_secret(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


def test_a_grouped_secret_after_a_longer_purpose() -> None:
    _found(
        "the recovery secret for the old work laptop is wq7r 2kpd zz4m 9ttx",
        "wq7r 2kpd zz4m 9ttx",
    )


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # a verb that opens or disarms, "with", the digits, and what they open
        ("the garage opens with 4417", "4417"),
        ("die Alarmanlage schaltet man mit 7723 aus", "7723"),
        ("l'alarme se désactive avec 5512 en entrant", "5512"),
        ("la alarma se apaga con 9031", "9031"),
        ("сигнализация отключается кодом 6620", "6620"),
        ("the shed padlock unlocks with 0417", "0417"),
    ],
)
def test_a_code_that_opens_or_disarms_something(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "the gate opens with 2 clicks of the remote",
        "the store opens with 2000 items on sale",
        "the alarm goes off at 0630 every weekday",
        "the door opens with 1500 mm of clearance",
    ],
)
def test_opening_with_a_number_that_is_no_code(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # a PIN, what it opens, the digits, with no verb; a longer purpose before the verb
        ("PIN zur Bankkarte 8812", "8812"),
        ("pin for the office door 7731", "7731"),
        ("el pin de la tarjeta de la empresa es 4410", "4410"),
        ("the code to open the shed at the back is 8841", "8841"),
    ],
)
def test_a_pin_with_what_it_opens_and_no_verb(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    ["the pin board in room 1204 is full", "PIN code section 4 of the manual", "pin 2 of 8"],
)
def test_a_pin_word_with_a_number_that_is_no_pin(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # a password with no verb, in languages whose table has no `bare`: letters and digits
        ("la contraseña del portátil Luna2024", "Luna2024"),
        ("la password del router Gatto77x", "Gatto77x"),
        ("a senha do email Praia2023", "Praia2023"),
        ("het wachtwoord van de laptop Fiets88", "Fiets88"),
        ("hasło do poczty Kot12345", "Kot12345"),
        ("пороль от почты Kot2024x", "Kot2024x"),  # a misspelt label
        ("salasana postiin on Kesa2025", "Kesa2025"),  # Finnish illative
        ("salasana tilillä on Lumi4455", "Lumi4455"),  # Finnish adessive
    ],
)
def test_a_password_with_no_verb_in_more_languages(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "le mot de passe de l'e-mail a changé",
        "la contraseña de Wi-Fi está en la nevera",
        "het wachtwoord van Netflix delen we",
        "la password del 2024 era scaduta",
    ],
)
def test_a_password_label_before_an_ordinary_word_stays(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # an answer given after an arrow or an equals sign, or with no blank (CJK)
        ("security question for the phone company: favourite teacher => Hobbs", "Hobbs"),
        ("Sicherheitsfrage der Bank: Lieblingsessen -> Lasagne", "Lasagne"),
        ("秘密の質問：母の出身地は函館", "函館"),
        ("密保问题的答案是旺财", "旺财"),
    ],
)
def test_a_security_answer_after_an_arrow_or_in_cjk(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # private keys with a fixed prefix: age, Nostr, BIP-32
        (f"backup identity: {AGE_IDENTITY}", AGE_IDENTITY),
        (f"mein nostr-Schlüssel {NOSTR_KEY}", NOSTR_KEY),
        (f"the wallet's master key is {BIP32_KEY}", BIP32_KEY),
    ],
)
def test_prefixed_private_keys(text: str, secret: str) -> None:
    _found(text, secret)


def test_an_age_recipient_is_public() -> None:
    recipient = "age1" + _random_token(58, 46, _BECH32)
    assert find_secrets_whole(f"encrypt the backups to {recipient}") == []


def test_a_label_glued_to_a_prefix_still_reads() -> None:
    """A metadata field ("imported:", "tool:") glued to the text by a colon: the word
    before "code" is the text's, not the prefix."""
    from credo.secrets import mask_field

    assert mask_field("imported:el código que me mandaron es 551903") == (
        "imported:el código que me mandaron es [secret:password]"
    )
    assert mask_field("tool:the code is 4821") == "tool:the code is [secret:password]"
    assert mask_field("imported:the zip code is 12345") == "imported:the zip code is 12345"


def test_a_public_block_is_one_statement_on_the_command_line(tmp_path: Path) -> None:
    """`remember_lines` (the command line) reads a certificate or public key block as one
    statement: a line of it alone would look like key material."""
    body = "\n".join(_random_token(64, 50 + i, string.ascii_letters + string.digits + "+/")
                     for i in range(4))  # fmt: skip
    text = (
        "the public cert of the home server:\n-----BEGIN CERTIFICATE-----\n"
        f"{body}\n-----END CERTIFICATE-----"
    )
    memory = memory_for_tests(tmp_path / "public.db", scope="arttu")
    numbered = memory.remember_numbered(text, keep_going=True)
    assert [n for n, _ in numbered] == [1, 2]
    assert all(r.code != "secret" for _, r in numbered), [r.why for _, r in numbered]
    private = text.replace("CERTIFICATE", "PRIVATE KEY")
    assert [r.code for r in memory.remember_lines(private)] == ["secret"]


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # a value used as a password or a PIN
        ("use Tulpe88x as the password for the guest account", "Tulpe88x"),
        ("nimm Sommer24! als neues Passwort", "Sommer24!"),
        ("utilise Lune77 comme mot de passe", "Lune77"),
        ("usa 4821 como pin de la tarjeta", "4821"),
    ],
)
def test_a_value_used_as_a_password(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # how the secret is made, then the secret at the end of the clause
        ("my bank PIN is the year my father was born, 1957", "1957"),
        ("der Türcode ist leicht zu merken: 2580", "2580"),
        ("the password is our street and the house number: Elm42", "Elm42"),
    ],
)
def test_a_secret_after_how_it_is_made(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "the code is valid until Friday, 11:59",
        "the password is written down somewhere, I think: Bitwarden",
        "the promo code is on the back: SAVE20",
        "the code is in the drawer, top shelf",
        "use your birthday as the PIN, they said",
    ],
)
def test_talk_about_how_a_secret_is_made_stays(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # a network named, a short word for its key, a made-up value; numbers and pairs
        ("SSID Kranich, WPA2 Heron-Lake-17", "Heron-Lake-17"),
        ("ssid FritzBox-7590 pw 55103388", "55103388"),
        ("red CasaAzul, clave Luna-2024", "Luna-2024"),
        ("Das WLAN heißt Kranich, das Passwort 50193746628810", "50193746628810"),
        ("wifi pass is 0712345678123", "0712345678123"),
        ("db creds are svc_app:Fjord77x", "Fjord77x"),
        ("bitlocker recovery key 402113-118690-557029-661144-208901", "402113-118690"),
    ],
)
def test_network_keys_numbers_and_colon_pairs(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "ssid Kranich-5G on channel 36",
        "the wifi key is on the back of the router",
        "the login page is at /admin",
        "login: 10:30 at the front desk",
        "the wpa2 standard dates from 2004",
        "our network has 12 access points",
        "2. **Key Steps**: build your network before you apply",
    ],
)
def test_networks_and_pairs_that_hold_no_secret(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # where the thing is, then a colon and its code; an arrow for "is"; an e-mail as
        # the user before a password; a card brand or a locker as what a PIN opens
        ("the safe in the holiday flat: 3392", "3392"),
        ("Tresor im Ferienhaus: 8817", "8817"),
        ("clave del banco → Gaviota21", "Gaviota21"),
        ("outlook: marta.k@example.org pw Heron2024!", "Heron2024!"),
        ("pin for visa 7710", "7710"),
        ("kod do szafki 6623", "6623"),
    ],
)
def test_codes_where_the_thing_is_arrows_and_mail_users(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "alarm for monday: 0630",
        "the gate at the airport: 2045",
        "door to the left: 12 steps",
        "write to marta.k@example.org about the password reset",
    ],
)
def test_a_thing_and_a_colon_with_no_code(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


def test_a_label_with_many_values_after_it_is_masked_value_by_value() -> None:
    """Masking reads the text again after each round; a label followed by several values
    gives up one a round and must not end in the whole text masked."""
    key = "sk-proj-" + "a1B2" * 12
    text = f"{key}Arttu password {key}postgres://a:b@c/d DE89 3704 0044 0532 0130 00Arttu hunter2 "
    masked = mask_secrets(text)
    assert masked.count("[secret:") >= len(find_secrets(text))
    assert "[secret:unmasked]" not in masked
    assert not contains_secret(masked)


# --- issue 24's third round: the blind set's misses, each fixed as a class -------------
# (identity numbers below pass their country's check digits; credo.id_checksums)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # an identity number that passes its check, anywhere in its label's sentence
        ("annemin TC kimlik numarası bankaya lazım olmuştu, 99751402614", "99751402614"),
        ("kimlik no: 997 514 026 14 (annemin)", "997 514 026 14"),
        (
            "mon numéro de sécurité sociale, pour remplir le dossier de la mutuelle : "
            "2 56 11 20 610 524 84",
            "2 56 11 20 610 524 84",
        ),
        ("PESEL córki do zapisu w przedszkolu to 94963666937", "94963666937"),
        ("mijn BSN voor de huisarts en de gemeente: 067349067", "067349067"),
        ("mera aadhaar number bank wale maang rahe the, 5443 6622 3562", "5443 6622 3562"),
        ("henkilötunnukseni kelaa varten on 050598-878V", "050598-878V"),
        ("СНИЛС жены для госуслуг: 523-843-823 92", "523-843-823 92"),
    ],
)
def test_identity_numbers_that_pass_their_check(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "train ka PNR 4521773090 hai, seat 42",
        "flight PNR 8ZK4QX for Lisbon, gate B12",
        "the TC kimlik office is open 0900-1700, phone 02125550199",
        "the social security office is at Calle Mayor 14, 28013 Madrid",
        "order 99751402615 shipped with the PESEL form",
        "the sécu reimbursed 23.50 euros on 12/03",
    ],
)
def test_numbers_near_identity_words_that_fail_their_check(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # a session's cookie: in a Cookie header, as a setting, after its label
        ("Cookie: PHPSESSID=k8v2m1q9x7c4n5b3z6l0p8r2t4; theme=dark", "k8v2m1q9x7c4n5b3z6l0p8r2t4"),
        ("Set-Cookie: SID=Q7fLx2Vn9KpR4tW8zYb3; Path=/; HttpOnly", "Q7fLx2Vn9KpR4tW8zYb3"),
        (
            "connect.sid=s%3Ab9Xk2LmQ7pV4rT8wZ1nC6yH3 from the staging browser",
            "b9Xk2LmQ7pV4rT8wZ1nC6yH3",
        ),
        (
            "le cookie de session du back-office : Zx81kQpL0vN7mR2tW5yB9cD4",
            "Zx81kQpL0vN7mR2tW5yB9cD4",
        ),
        (
            "Sitzungscookie aus dem Browser kopiert: 7fk2lq9xm4v8n1c6b3z5h0w2",
            "7fk2lq9xm4v8n1c6b3z5h0w2",
        ),
    ],
)
def test_session_cookies(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "Cookie: theme=dark; lang=en-GB; consent=accepted",
        "the session lasted 45 minutes",
        "session_timeout=1800 in the nginx config",
        "the sessionid cookie expires after two weeks",
        "cookie recipe: 250 g butter, 200 g sugar",
    ],
)
def test_cookies_that_hold_no_session(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # a secret passed to a setter, or put under a secret's name, in code
        ('client.setAuthToken("p9Lx2QvN7rK4tW8zYb3mC6dF");', "p9Lx2QvN7rK4tW8zYb3mC6dF"),
        ("db.set_password('Walrus!Moon84')", "Walrus!Moon84"),
        ('config.put("api_secret", "Hq7Zp2Lx9Vn4Rt8Wk3Ym6Cb1")', "Hq7Zp2Lx9Vn4Rt8Wk3Ym6Cb1"),
        ("os.environ['DB_PASSWORD'] = 'Gecko-Lamp-55'", "Gecko-Lamp-55"),
        ("$mail->setPassword('Fjord#Otter31'); // SMTP", "Fjord#Otter31"),
    ],
)
def test_secrets_passed_to_setters(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "setApiKey(process.env.API_KEY)",
        'getPassword("user_prompt")',
        'setTokenUrl("https://auth.example.org/token")',
        'config.put("api_key_path", "/etc/keys/api.txt")',
        'setPasswordLength("12")',
        'print("the password was wrong")',
    ],
)
def test_setters_that_hold_no_secret(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # a phone's unlock pattern: the dots joined, in order
        ("my tablet's unlock pattern: 7-4-1-5-9", "7-4-1-5-9"),
        ("Entsperrmuster vom alten Handy: 1 → 5 → 9 → 6 → 3", "1 → 5 → 9 → 6 → 3"),
        ("el patrón para desbloquear el móvil es 3-5-7-8-9", "3-5-7-8-9"),
        ("графический ключ на телефоне мамы: 1-4-7-8-9", "1-4-7-8-9"),
        ("le schéma de la tablette, un L : 1 4 7 8 9", "1 4 7 8 9"),
    ],
)
def test_unlock_patterns(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "the knitting pattern repeats 2-3-2-3 every row",
        "the tile pattern in the hall is 1-2-3-4",
        "Muster für den Stundenplan: 1-2-3-4",
        "the phone case with the pattern cost 1299",
    ],
)
def test_patterns_that_unlock_nothing(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # a 2FA secret in groups, a clause away from its label
        (
            "the 2fa secret for the router admin, in case my phone is lost: q4xz m7wp k2rt h5nv",
            "q4xz m7wp k2rt h5nv",
        ),
        (
            "clé secrète TOTP du compte OVH, à garder au coffre : JBXW 4Y2L MF3Q KZ7T",
            "JBXW 4Y2L MF3Q KZ7T",
        ),
        (
            "TOTP-Schlüssel fürs Firmen-VPN, falls das Telefon weg ist: nb4q 7xlm ep2w zk5r",
            "nb4q 7xlm",
        ),
    ],
)
def test_grouped_2fa_secrets_further_from_their_label(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "the 2fa secret is printed on the card from HR",
        "authenticator setup: scan the code at work then type the six digits",
        "the totp window is thirty seconds long",
    ],
)
def test_2fa_talk_without_a_secret(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # backup codes on the lines below a label with a remark
        (
            "GitHub recovery codes (printed a copy too)\n5512 0931\n7720 4418\n3391 8820",
            "7720 4418",
        ),
        ("códigos de respaldo de Google - guárdalos bien\n8841 2203\n1907 5530", "1907 5530"),
        ("Notfallcodes fürs Mailkonto, nicht wegwerfen!\na8k2-m4q9\nz7x1-p3w5", "z7x1-p3w5"),
        # the same list with its line breaks read as blanks (a label field on import)
        ("Dropbox backup codes (keep them offline) 3318 0412 7751 2290 6634 1187", "7751 2290"),
    ],
)
def test_backup_codes_below_a_remark(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "backup codes are in the blue folder\nmeeting at 14:30 in room 2041",
        "recovery codes (see the wiki)\nnext: call IT",
        "backup codes are kept offline. Call 0800 1234 5678 9012 3456",
        "recovery codes printed for room 2041 and 2042",
    ],
)
def test_a_remark_on_backup_codes_with_no_list(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # a password's label, the name of what it opens, its verb
        ("my password Spotify is lemon-tree-77", "lemon-tree-77"),
        ("mon mot de passe Orange c'est soleil2019", "soleil2019"),
        ("mein Passwort Sparkasse ist Ahorn!2021", "Ahorn!2021"),
        ("la contraseña Movistar es gato_azul8", "gato_azul8"),
        # Hindi and Urdu in Latin script
        ("mera netflix ka password hai aam_ras42", "aam_ras42"),
        ("wifi ka password ghar@2020 hai", "ghar@2020"),
        ("bank ka pin 4417 hai, kisi ko mat batana", "4417"),
        ("ghar ke darwaze ka code 7719 hai", "7719"),
        # Dutch "ww" for "wachtwoord"
        ("gebruiker: pietk / ww: Dijk&Molen44", "Dijk&Molen44"),
        ("ww van de NAS: Kaas-Schaaf-71", "Kaas-Schaaf-71"),
    ],
)
def test_passwords_after_a_name_in_hindi_and_as_ww(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "the password manager is 1Password",
        "my password hint is dog1",
        "the password database is keepass.kdbx",
        "Passwort Manager ist KeePassXC-2",
        "password manager bitwarden hai",
        "mera password yaad nahi hai",
        "mijn WW-uitkering is 1450 euro per maand",
        "the api key fix is in commit 04bdef2",
        "meine öffentliche Passwort-Datei ist auf dem NAS",
        "la clave pública ssh es ssh-ed25519 de mi portátil",
    ],
)
def test_names_and_abbreviations_that_hold_no_password(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # a box or a safe for keys, compound doors, and codes with * or # inside
        ("the key safe by the garage has code 3318", "3318"),
        ("boîte à clés du gîte, code 5520", "5520"),
        ("nyckelskåpet vid ytterdörren har kod 8841", "8841"),
        ("het sleutelkastje naast de schuur gaat open met code 2219", "2219"),
        ("la caja de llaves del apartamento tiene el código 4402", "4402"),
        ("Kellertür geht mit Code 7093 auf", "7093"),
        ("код от домофона 21*5580", "21*5580"),
        ("interphone : 14#2207", "14#2207"),
        ("the gate code is 3*1947#", "3*1947#"),
    ],
)
def test_key_boxes_compound_doors_and_starred_codes(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "the key safe was fitted in March by the landlord",
        "5*4 = 20 is the first line of the worksheet",
        "room 12*3 has the projector",
        "die Haustür wurde gestrichen, Postleitzahl 80331",
    ],
)
def test_key_boxes_and_stars_with_no_code(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # more of the same classes, in other words: a combination in dashes, a Turkish
        # card or bank "şifre" said as a PIN, a network's key said with its article or
        # postposition, HTTP basic credentials without their header
        ("Tresorkombination 31-07-19", "31-07-19"),
        ("the garage opens with 1-9-8-4-2", "1-9-8-4-2"),
        ("banka şifresi 4821, kimseye söyleme", "4821"),
        ("wifi ki key hai ghar12345", "ghar12345"),
        ("la chiave del wifi di casa è Gabbiano-77", "Gabbiano-77"),
        ("a chave do wifi é Sardinha-42", "Sardinha-42"),
        ("la clé du wifi c'est Mouette-55", "Mouette-55"),
        (
            "Basic " + base64.b64encode(b"deploy:Kx7-pine-Q2").decode() + " in the header",
            "ZGVwbG95",
        ),
    ],
)
def test_combinations_sifre_pins_network_keys_and_basic_credentials(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "the basic plan costs 12 euros a month",
        "Basic training starts on 12-03-19",
        "the meeting moved to 12-03-19",
        "şifre en az 8 karakter olmalı",
        "la chiave del wifi è sul retro del router",
    ],
)
def test_basic_words_dates_and_password_rules_stay(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


# -- issue 24's fourth round: the second blind set's misses and false positives, each a
# class, on sentences of our own in several languages


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # a code in single digits with blanks or hyphens, after a label whose thing a word
        # before qualifies ("room" qualifies the safe, not the code); a code's label that
        # names what it opens, then where that is or whose, with no verb; an intercom's
        # code holding the letter of its key button
        ("the guest room safe combo is 3 8 2 6", "3 8 2 6"),
        ("the meeting room safe code is 5527", "5527"),
        ("код от калитки на даче 4-9-1-7", "4-9-1-7"),
        ("код домофона в подъезде 14К2290", "14К2290"),
        ("PIN do karty w Pekao 3390", "3390"),
        ("le code du portail chez mamie 5823", "5823"),
        ("the gate code at my parents' 7731", "7731"),
        ("koden till larmsystemet är 5512", "5512"),
        ("turvajärjestelmän koodi: 6642", "6642"),
    ],
)
def test_codes_spelt_in_digits_and_codes_with_where_they_are(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "the building code in section 1004 covers stairs",
        "building code section 1004",
        "the door code at the office changed last week",
        "the hotel room has a safe, ask reception for the code",
        "le code du portail chez mamie a changé",
    ],
)
def test_codes_with_a_place_and_no_value_stay(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # what was put in a security question's form, in several languages; a name in a
        # script with no case; Turkish and Korean labels
        ("for the first pet security question I used Biscuit, remember", "Biscuit"),
        ("à la question de sécurité j'ai mis Moustache", "Moustache"),
        ("en la pregunta de seguridad puse Canelo", "Canelo"),
        ("na pergunta de segurança coloquei Pipoca", "Pipoca"),
        ("gizli sorunun cevabı: Karabaş", "Karabaş"),
        ("보안 질문 답: 바둑이", "바둑이"),
    ],
)
def test_security_answers_as_entered(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "I used the security question option to get back in",
        "la question de sécurité est trop facile",
        "güvenlik sorusu değiştirildi",
        "보안 질문은 어려워요",
    ],
)
def test_security_questions_with_no_answer_stay(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # a user's label and name, then a password's label in any language; a generated
        # key holding brackets (Django's alphabet); PuTTY's private lines without the
        # file's first lines
        ("usuario jlopez / contraseña Tarde#55", "Tarde#55"),
        ("Benutzer mweber / Passwort Kiefer!31", "Kiefer!31"),
        ("użytkownik anowak / hasło Wisła#23", "Wisła#23"),
        ("utilisateur cdupont, mot de passe Neige%62", "Neige%62"),
        ("SECRET_KEY=k8(x!2m_&zq)w9+p3", "k8(x!2m_&zq)w9+p3"),
        (
            "Private-Lines: 1\nAAAAIFxq7T2mPz9QvR4kLw8nB3yH6cJ0dS5eU1aG/fKo=\nPrivate-MAC: 0f3a",
            "AAAAIFxq7T2mPz9QvR4kLw8nB3yH6cJ0dS5eU1aG",
        ),
    ],
)
def test_user_and_password_labels_generated_keys_and_putty_lines(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "usuario nuevo / clave de acceso pendiente",
        "user guide / password reset page",
        "SECRET_KEY=get_random_secret_key()",
        "SECRET_KEY=env(DJANGO_SECRET_1)",
        "Private-Lines: 1 is the header PuTTY writes",
    ],
)
def test_user_labels_calls_and_putty_headers_stay(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # backup codes after a longer remark (a word with a digit in it); a key after a
        # long compound between its label and the colon; licence and product keys
        ("recovery codes for my 2FA on GitHub: 4f7a-9c2e, 81bd-33aa, c0e1-77f2", "81bd-33aa"),
        ("Backup-Codes für das 2FA meines Kontos: 5830-1142, 9921-0457, 3318-7760", "9921-0457"),
        (
            "API-nyckel för Bokföringsintegrationen: 6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c",
            "6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c",
        ),
        ("Lizenzschlüssel für Office: 7KQ2M-XR9TP-4W8DN-B3HJC-6YFGV", "7KQ2M-XR9TP-4W8DN-B3HJC"),
        ("clé de licence Windows : N4K7P-3XQ9R-W2M8T-6HBJC-Y5DFG", "N4K7P-3XQ9R"),
        ("licensnyckeln till Lightroom är LR5X-9K2M-QP7D-3WTN", "LR5X-9K2M-QP7D-3WTN"),
        ("ключ активации для Windows: 2KQ7M-XR9TP-4W8DN-B3HJC-6YFGV", "2KQ7M-XR9TP"),
    ],
)
def test_backup_codes_api_keys_and_licence_keys(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "the license key is on the box",
        "Lizenzschlüssel kommt per E-Mail",
        "the product key for version 2.3.1 is printed inside",
        "la clave de producto llega el 2024-05-01",
    ],
)
def test_licence_keys_not_given_stay(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # identity numbers: China's (MOD 11-2 check, straight after its label and "是"),
        # Korea's (its date and century digit), Norway's and Denmark's labels in their
        # definite form, India's PAN and a PIN in Devanagari, Polish ID card labels
        ("我的身份证号码是44030519850714123X", "44030519850714123X"),
        ("他说身份证 320106199102284569 要保密", "320106199102284569"),
        ("주민번호는 850315-2345678 이에요", "850315-2345678"),
        ("personnummeret hennes er 15038810062", "15038810062"),
        ("cpr-nummeret er 150387-1234", "150387-1234"),
        ("मेरा पैन नंबर ABCPM1234Q है", "ABCPM1234Q"),
        ("मेरा एटीएम पिन 7391 है", "7391"),
        ("nr dowodu osobistego ABC523187", "ABC523187"),
    ],
)
def test_identity_numbers_of_more_countries(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # passwords in Devanagari and Korean; a network's "code" is its password in the
        # Nordic languages, German, Dutch and Finnish
        ("मेरा बैंक पासवर्ड Aam@Ras2024 है", "Aam@Ras2024"),
        ("와이파이 비밀번호는 Sunflower#88 이에요", "Sunflower#88"),
        ("도어락 비밀번호 4827# 누르면 열려", "4827#"),
        ("wifi-koden i sommerhuset er Lyng-Hede4", "Lyng-Hede4"),
        ("wifikoden hos oss är Blåbär-77", "Blåbär-77"),
        ("WLAN-Code ist Ahorn-Blatt9", "Ahorn-Blatt9"),
        ("de wifi-code is Tulp-Veld21", "Tulp-Veld21"),
        ("wifi-koodi on Kuusi-Metsä3", "Kuusi-Metsä3"),
    ],
)
def test_passwords_in_devanagari_and_korean_and_network_codes(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "मेरा पासवर्ड याद नहीं है",
        "비밀번호를 잊어버렸어요",
        "der WLAN-Code ist auf der Rückseite",
        "wifi-koden står på routern",
        "身份证丢了，要去补办",
        "주민등록번호 앞자리는 생년월일이에요",
    ],
)
def test_password_and_identity_words_with_no_value_stay(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    "text",
    [  # a business's own numbers are printed on its invoices; a place after an Indian
        # "PIN code" makes it a postcode
        "the supplier's IBAN: DE89 3704 0044 0532 0130 00, pay the invoice there",
        "IBAN des Lieferanten: DE89 3704 0044 0532 0130 00",
        "Steuernummer der Firma: 143/815/08156",
        "firmanın vergi numarası 4820173956, faturada yazıyor",
        "pin code 560038 (Koramangala, Bengaluru)",
    ],
)
def test_a_businesss_numbers_and_postcodes_stay(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # ... but the speaker's own are secrets whoever the sentence names
        (
            "my IBAN for the company refund is DE89 3704 0044 0532 0130 00",
            "DE89 3704 0044 0532 0130 00",
        ),
        ("meine Steuernummer für die Firma: 143/815/08156", "143/815/08156"),
        ("UPI pin 482913 (PhonePe)", "482913"),
    ],
)
def test_the_speakers_numbers_stay_secrets(text: str, secret: str) -> None:
    _found(text, secret)


# Issue 24's fifth round: the third blind set's (fresh4) false positives and misses, each
# a class, on sentences of our own in several languages.


@pytest.mark.parametrize(
    "text",
    [  # documentation's placeholders: AWS's example keys, Slack's zeroed webhook, a
        # template's or a local default's credentials in a URL, the next setting of a flat
        # .env read as the value of the one before
        "the docs show AKIAIOSFODNN7EXAMPLE as the access key id",
        "in der Doku steht als Secret Key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "le webhook ressemble à https://hooks.slack.com/services/T00000000/B00000000/"
        "XXXXXXXXXXXXXXXXXXXXXXXX",
        "DATABASE_URL=postgres://user:password@localhost/app",
        "el compose usa mysql://root:root@127.0.0.1:3306/dev en local",
        "postgres://user:password@db.internal/app is the template",
        "OPENAI_API_KEY=your-key-here DATABASE_URL=postgres://db/app SECRET_KEY=changeme",
    ],
)
def test_documented_examples_and_templates_stay(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # ... but a key, a webhook or a URL's password of anyone's is still one
        ("my access key is AKIA2JQ7V4XRM3PLK8ZD", "AKIA2JQ7V4XRM3PLK8ZD"),
        (
            "https://hooks.slack.com/services/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",
            "q8ZkR2mWx7TnLp4VbY9cHs3D",
        ),
        ("postgres://app:Kx9!pq@localhost/app", "Kx9!pq"),
        ("postgres://admin:admin@db.prod.internal/app", "admin:admin"),
    ],
)
def test_real_keys_beside_documented_ones_stay_secrets(text: str, secret: str) -> None:
    assert secret not in mask_secrets(text), mask_secrets(text)


@pytest.mark.parametrize(
    "text",
    [  # a key's fingerprint in groups, in several languages; a bank number given to be
        # paid into (printed on every invoice, a payee on an invoice's form, an account to
        # transfer to that is not the speaker's)
        "my PGP key fingerprint is 71BD 6A2B A110 15B1 1F5C 9538 F28F 41EC 36F2 E5FA",
        "mein PGP-Fingerprint: 71BD 6A2B A110 15B1 1F5C 9538 F28F 41EC 36F2 E5FA",
        "empreinte de ma clé : 71BD 6A2B A110 15B1 1F5C 9538 F28F 41EC 36F2 E5FA",
        "huella de la clave: 71BD 6A2B A110 15B1 1F5C 9538 F28F 41EC 36F2 E5FA",
        "my IBAN is on every invoice anyway: DE89 3704 0044 0532 0130 00",
        "meine IBAN steht auf jeder Rechnung: DE89 3704 0044 0532 0130 00",
        "mi IBAN ES91 2100 0418 4502 0005 1332 está en todas mis facturas",
        "Pay to: Kalm Studio BV\nIBAN DE89 3704 0044 0532 0130 00\nDue: 1 May",
        "transfer the club fees to bank account 48213795, name J. Smith",
        "überweise die Miete auf das Konto 1234567890 von Frau Keller",
    ],
)
def test_fingerprints_and_numbers_given_to_be_paid_stay(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # ... but grouped keys, a person's IBAN and the speaker's account are secrets
        ("my backup key is 71BD 6A2B A110 15B1 1F5C 9538", "71BD 6A2B A110 15B1 1F5C 9538"),
        ("Pay to: Anna Berg\nIBAN DE89 3704 0044 0532 0130 00", "DE89 3704 0044 0532 0130 00"),
        ("transfer it to my bank account 48213795", "48213795"),
        ("mein Konto 1234567890 für das Gehalt", "1234567890"),
    ],
)
def test_grouped_keys_and_own_accounts_stay_secrets(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # identity numbers by their label and their country's checks: Canada's SIN (Luhn,
        # "SIN"/"NAS" in capitals), Indonesia's NIK and Vietnam's CCCD (a date, a province),
        # Ukraine's RNOKPP, Arabic labels, a driver's licence with "#"
        ("SIN for the tax form: 618 439 277", "618 439 277"),
        ("NAS pour le formulaire : 618 439 277", "618 439 277"),
        ("NIK saya 3275015708920003 untuk pendaftaran", "3275015708920003"),
        ("số CCCD của anh là 079203004512 nhé", "079203004512"),
        ("мій ІПН 2987654321 для банку", "2987654321"),
        ("رقم الهوية 2034567891 للتسجيل", "2034567891"),
        ("driver's license # B7739211 for the rental", "B7739211"),
    ],
)
def test_identity_numbers_of_canada_indonesia_vietnam_ukraine_and_in_arabic(
    text: str, secret: str
) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # published token formats and hex keys after their label; a gift card's claim code
        ("databricks token dapi0123456789abcdef0123456789abcdef", "dapi0123456789abcdef"),
        ("stripe auth token 9f3c2a7be41d08c65a2f90e7d1b4c3a8", "9f3c2a7be41d08c65a2f90e7d1b4c3a8"),
        ("the gift card claim code is 7HKD-QX2P4M-9RTW", "7HKD-QX2P4M-9RTW"),
        ("Einlösecode der Geschenkkarte: 7HKD-QX2P4M-9RTW", "7HKD-QX2P4M-9RTW"),
    ],
)
def test_token_formats_hex_keys_and_gift_card_codes(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # passwords and codes in Arabic, Indonesian, Vietnamese, Ukrainian and Czech; a
        # dial's numbers after a combination's word or a code's label
        ("كلمة المرور: Zaytun#88", "Zaytun#88"),
        ("وكلمة السر للراوتر: Nakhil@77", "Nakhil@77"),
        ("كود البوابة 7741 للعمارة", "7741"),
        ("الرقم السري للبطاقة 6620", "6620"),
        ("kata sandi wifi rumah: Melati_2023", "Melati_2023"),
        ("kode brankas gudang 12-40-33", "12-40-33"),
        ("mật khẩu email công ty là Sen#Vang2024", "Sen#Vang2024"),
        ("mk zalo cua anh la Hoa_Sen77", "Hoa_Sen77"),
        ("mã mở cửa nhà là 4471", "4471"),
        ("код домофону 2580", "2580"),
        ("пін картки 4471", "4471"),
        ("kód na zámek od sklepa 3-9-1-4", "3-9-1-4"),
        ("combo 22-8-31 on the gym locker", "22-8-31"),
        ("Spind 12, Kombination 4-19-33", "4-19-33"),
    ],
)
def test_passwords_and_codes_in_more_languages(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [  # ... and what only mentions them, or is not them, stays
        "sin duda 618 439 277 es el número",
        "commit 9f3c2a7be41d08c65a2f90e7d1b4c3a8 fixed the token refresh",
        "promo code SPRING25 gives 25% off",
        "mat khau la gi vay",
        "lupa kata sandi email, gimana ya",
        "نسيت كلمة المرور",
        "the score was 2-1-0 in the combo round",
        "kode promo GAJIAN50 masih berlaku",
    ],
)
def test_mentions_in_more_languages_stay(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [  # codes and PINs: a remark before the colon, a comma before the verb, "mine's", the
        # code in brackets after its label, a count of digits between label and thing, a
        # keyed-in "#" after a word about the thing, Turkish compounds, a code set on what
        # it opens; an e-mail address and "pass is" or "+" before a password
        ("PIN zur Kreditkarte (Visa): 5821", "5821"),
        ("le code de la porte (bâtiment B) : 4471", "4471"),
        ("il codice del portone nuovo, è 7702", "7702"),
        ("the pin for the garage keypad, mine's 58013", "58013"),
        ("ドアの暗証番号（4471）を忘れないで", "4471"),
        ("o código de 6 dígitos do alarme é 904417", "904417"),
        ("el código de la puerta trasera 4417#", "4417#"),
        ("kredi kartı şifresi 6620 unutma", "6620"),
        ("we changed the garage door code to 7719 yesterday", "7719"),
        ("anna.berg@example.org pass is lavenderfieldsforever", "lavenderfieldsforever"),
        ("netflix = anna.berg@example.org + Otter2023", "Otter2023"),
    ],
)
def test_more_ways_to_state_codes_and_passwords(text: str, secret: str) -> None:
    _found(text, secret)


@pytest.mark.parametrize(
    "text",
    [  # ... and their look-alikes stay
        "the pin for the garage keypad, mine's broken",
        "we changed the garage door to a roller model in 2019",
        "set the alarm to 0630 tomorrow",
        "write to anna.berg@example.org / Marketing about the launch",
        "anna.berg@example.org pass is expired",
        "PIN-Code (Postleitzahl) der Filiale: 560001, Bengaluru",
    ],
)
def test_look_alikes_of_more_ways_stay(text: str) -> None:
    assert find_secrets_whole(text) == [], mask_secrets(text)


# --- issue 24's tenth round: classes read on fresh9, sentences and values of our own ---------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # identity numbers by their check digits, in four more countries' labels
        ("pentru contract îmi trebuie CNP-ul: 1960715401230", "1960715401230"),
        ("a TAJ-számom 481 726 905, ha kell az orvosnál", "481 726 905"),
        ("کد ملی همسرم 0314587292 است", "0314587292"),
        ("เลขประจำตัวประชาชน 3-1005-04218-87-9 ของแม่", "3-1005-04218-87-9"),
        # a code or a PIN said first, its label a few words on, in any language
        ("8164 is the shed padlock code, don't lose it", "8164"),
        ("7302 ni pin yangu ya benki", "7302"),
        ("551907 是我的银行卡密码", "551907"),
        ("2718 = locker at the gym", "2718"),
        ("QXZRT is the login code, it expires soon", "QXZRT"),
        # a TAN whose message names the transfer's amount before it
        ("Ihre pushTAN für die Zahlung an Stadtwerke über 89,90 EUR lautet 408215.", "408215"),
        # a password's label in Tamil, with a made-up value
        ("வீட்டு wifi கடவுச்சொல் Tr4m!vel82 தான்", "Tr4m!vel82"),
        # a 2FA key in groups of four, alone on its line
        ("x7kq m2pa rt5v 3wbn qd4e ya6z hu2c fj3s", "x7kq m2pa rt5v 3wbn qd4e ya6z hu2c fj3s"),
        # a symmetric key in hex in the clause of its cipher
        (
            "3bd1f07a9c2e48e5a6d04f19b7c23e8d5f61a0c4e92b7d38a1f5c6e0d9b4a217 is the "
            "AES-256-GCM key for the backups",
            "3bd1f07a9c2e48e5a6d04f19b7c23e8d5f61a0c4e92b7d38a1f5c6e0d9b4a217",
        ),
        # a client's key given to its constructor as "auth"
        (
            "const client = new Api({ auth: 'pk9_Zq7LwR2mXv8Tn4Bc6Yd1Kf3Hs5Gj0Pe' })",
            "pk9_Zq7LwR2mXv8Tn4Bc6Yd1Kf3Hs5Gj0Pe",
        ),
    ],
)
def test_tenth_round_classes_are_refused(text: str, secret: str) -> None:
    spans = [text[f.start : f.end] for f in find_secrets_whole(text)]
    assert secret in spans, spans
    assert secret not in mask_secrets(text)


def test_a_hex_key_on_the_line_before_its_cipher_is_refused_whole() -> None:
    key = "9e4b0c7d2a61f83e5d90b4c1a7e62f08d3c5b9a14e7f20d6c8b3a5e1f4d09c72"
    text = f"{key}\n(that's the ChaCha20 encryption key of the vault, hex)"
    assert key in [text[f.start : f.end] for f in find_secrets_whole(text)]


@pytest.mark.parametrize(
    "text",
    [
        # a number said first that is no code: a port, a year, an amount, a size
        "8080 is the port the login page uses",
        "2024 is the year I changed my password",
        "4096 bits is the key size we use",
        "4410 is the error code the app shows",
        "HTTPS is the code path we take",
        "5000 is the limit on my card",
        # a digest, an IV, a commit near a cipher's name
        "the SHA-256 of the encrypted archive is "
        "e6a04f19b7c23e8d5f61a0c4e92b7d38a1f5c6e0d9b4a2173bd1f07a9c2e48e5",
        "AES iv: 0a1b2c3d4e5f60718293a4b5c6d7e8f9",
        # a name given to a network, a password's rule
        "the café's network is called BeanHouse_Guest and has no password",
        "das Passwort muss mindestens 14 Zeichen lang sein",
        "salasanan täytyy olla vähintään 10 merkkiä",
        # words in groups of four hold no digits
        "lime rope cake tree bird fish moon star",
    ],
)
def test_tenth_round_look_alikes_stay(text: str) -> None:
    assert find_secrets_whole(text) == [], text


@pytest.mark.parametrize(
    "text",
    [
        "memo: 6620 is the storage unit code",
        "imported:6620 ndio pin yangu",
    ],
)
def test_a_value_said_first_after_a_fields_name_is_refused(text: str) -> None:
    assert "6620" in [text[f.start : f.end] for f in find_secrets_whole(text)]
