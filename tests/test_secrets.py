"""Secret detection: every kind inside realistic facts, the false-positive list, masking.

Fake credentials are assembled at import time so that no credential-shaped literal sits in
the source for secret scanners to trip on.
"""

from __future__ import annotations

import base64
import json
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credo.secrets import SecretFinding, contains_secret, find_secrets, mask_secrets


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
]


@settings(max_examples=200, deadline=None)
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
