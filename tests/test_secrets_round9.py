"""Issue 24's ninth round: readings that do not depend on a sentence's wording.

A made-up value in the clause of a word for a secret, in any language and word order
(`credo.secret_random`); the reasons a value is public whatever the words around it
(`credo.secret_public`); BitLocker recovery keys by their check; `net use`'s password.
Every value here is invented for these tests.
"""

from __future__ import annotations

import pytest

from credo.secret_public import public_value
from credo.secret_random import letter_digit_switches, made_up, odd_case_letters
from credo.secrets import contains_secret, find_secrets, mask_secrets

# -- how random a value is -----------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    ["qvt72hpxnw4k", "7rbq0mz4lw9e", "Qvrz5t1x9vbn", "RzpWQmkTLaoYbXe", "4-Q71%TwmP*#heLd8u"],
)
def test_made_up_values(value: str) -> None:
    assert made_up(value)


@pytest.mark.parametrize(
    "value",
    [
        "Windows11Pro",  # words and a number
        "covid19vaccine",
        "mp3player2000",
        "utf8mb4_unicode_ci",
        "iPhone15",
        "TL-WR841N",  # a model: capitals and digits
        "sha256sum",
        "x86_64",
        "camelCaseIdentifierName",
        "a3f9c21e77",  # hex: a digest, a commit
        "2031-04-09T07:15:00Z",  # a timestamp
        "client.authentication.k8s.io/v1beta1",  # dotted and slashed names
        "ghp_************************b72c",  # masked
        "BankID-appen",
        "12345678",  # digits: codes have their own readings
    ],
)
def test_not_made_up_values(value: str) -> None:
    assert not made_up(value)


def test_the_measures() -> None:
    assert letter_digit_switches("ab12cd3") == 3
    assert letter_digit_switches("RTX4090") == 1
    assert odd_case_letters("BankID") == 0
    assert odd_case_letters("QwErTyUiOp") >= 3


# -- a made-up value in the clause of a secret's word, any order, any language ------------


@pytest.mark.parametrize(
    "text,value",
    [
        ("la contraseña del router de la tienda es qvt72hpxnw4k, no la pierdas", "qvt72hpxnw4k"),
        ("yung password ng netflix namin ay 7rbq0mz4lw9e, wag mong ipagkalat", "7rbq0mz4lw9e"),
        ("la contrasenya del portal és Qvrz5t1x9vbn", "Qvrz5t1x9vbn"),
        ("邮箱的密码换成了 RzpWQmkTLaoYbXe ，别告诉别人", "RzpWQmkTLaoYbXe"),
        ("ルーターのパスワード（暗号化キー）はRzpWQmkTLaoYbXeです", "RzpWQmkTLaoYbXe"),
        ("q8Wv2LmRt5YxZ0pK3nB7cJ4hG9fD1sAe sunt cheia api pentru magazin", None),
        ("Enter passphrase for key '/home/ana/.ssh/id_ed25519': 7rbq0mz4lw9e", "7rbq0mz4lw9e"),
    ],
)
def test_made_up_value_near_a_secrets_word(text: str, value: str | None) -> None:
    masked = mask_secrets(text)
    assert "[secret:" in masked
    if value is not None:
        assert value not in masked


@pytest.mark.parametrize(
    "text",
    [
        "the password reset page says my Windows11Pro licence is fine",
        "GitHub app client ID is Iv9zQ2wPl8kT4nR6 and the secret stays in the vault",
        "which hash is this password stored as? $2b$12$abcdefghijklmnopqrstuv",
        "the api key expired at 2031-04-09T07:15:00Z (code 118)",
        "apiVersion: client.authentication.k8s.io/v1beta1 and the token comes from the login",
        "the log shows 'token ghp_************************b72c used' — is it leaked?",
        "the password rules on utf8mb4_unicode_ci tables are odd",
    ],
)
def test_no_made_up_value(text: str) -> None:
    assert not find_secrets(text), find_secrets(text)


# -- values public by what they are -------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?missing from env}",
        "password: ${{ secrets.REGISTRY_TOKEN }}",
        "password = random_password.app.result",
        "password = var.admin_password",
        'pw = getpass.getpass("Password: ")',
        "vault kv get -field=password secret/data/shop/mysql",
        "the worker reads its password from arn:aws:secretsmanager:us-east-1:123456789012:"
        "secret:shop/mysql-Ab12Cd",
        "db:\n  password: ENC[AES256_GCM,data:Zm9vYmFyYmF6cXV4,iv:q1w2e3r4t5y6,type:str]",
        "API_SECRET=change-me",
        "[Interface]\nPublicKey = 4q9Vw2Lm8Rt5Yx0Zp3Kn7Bc4Jh9Gf1Sd6Ae2Qw5Er8T=",
        "Password for user shop:\npsql: error: connection refused",
        "in test mode the card 4000 0000 0000 0077 always succeeds",
        "the validator rejects GB82 WEST 1234 5698 7654 32, the example IBAN",
    ],
)
def test_public_by_what_it_is(text: str) -> None:
    assert not contains_secret(text), find_secrets(text)


def test_ciphertext_under_encrypted_data_is_no_key() -> None:
    blob = "AgC" + "q1w2E3r4T5y6U7i8O9p0" * 12 + "=="
    text = f"kind: SealedSecret\nspec:\n  encryptedData:\n    API_KEY: {blob}"
    assert not contains_secret(text)


def test_public_value_reasons() -> None:
    text = "card 4242 4242 4242 4242 in the docs"
    start = text.index("4242")
    assert public_value(text, "payment_card", start, start + 19)
    text = "password: hunter9Xq2"
    assert not public_value(text, "password", 10, len(text))


def test_a_real_card_is_still_a_secret() -> None:
    assert contains_secret("card 4539 1488 0343 6467 exp 09/29 cvc 312, keep it")


def test_a_piece_of_a_public_value_is_not_read_again() -> None:
    # the ARN is public: no other reading of a piece of it ("eu-west-1") counts
    text = "the lambda gets the password from arn:aws:secretsmanager:eu-west-1:111122223333:secret:x-Ab12Cd"
    assert not contains_secret(text)


# -- shapes ---------------------------------------------------------------------------------


def test_bitlocker_key_by_its_check() -> None:
    groups = [11 * n for n in (1234, 5678, 9012, 3456, 7890, 2345, 6789, 1357)]
    key = "-".join(f"{g:06d}" for g in groups)
    assert mask_secrets(f"keep this for me:\n{key}") == "keep this for me:\n[secret:license_key]"


def test_bitlocker_shape_named() -> None:
    key = "123456-234567-345678-456789-567890-678901-789012-890123"
    assert key not in mask_secrets(f"BitLocker recovery key of the office laptop: {key}")
    assert contains_secret(f"BitLocker: {key}")


def test_net_use_password() -> None:
    text = r"net use Y: \\files01\docs /user:SHOP\clerk Qvrz5t1x9vbn /persistent:no"
    masked = mask_secrets(text)
    assert "Qvrz5t1x9vbn" not in masked
    assert "/persistent:no" in masked
    assert not contains_secret(r"net use Y: \\files01\docs /user:SHOP\clerk * /persistent:no")
