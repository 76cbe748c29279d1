"""Issue 24's sixteenth round: the classes of secret (and of look-alike) it fixed, each a
structure rather than a wording, on sentences of our own with invented values, typed as
people type them, through the detector, the real gate, `Memory` (a statement a line, as
`credo remember` reads its input), the command line and import's metadata fields.

The classes: a label's qualifier set aside before its colon or its "is", in any language
(`credo.secret_qualified`); a label's phrase inflected ("záložní kód" from "záložní
kódy"); a passphrase of plain words, after a colon or an "is"; a seed phrase after its
label's "is"; a password made of pieces straight after its label ("pre-shared key Lm4-river-Otter-19");
a value used to open something or to get in; a word and a number in a password's sentence.
And their look-alikes: what the qualifier says (a business's, an office's postcode, a
discount), a Pix key, an Ethereum address, a Romanian postcode."""

from __future__ import annotations

import pytest
import secret_rounds
from secret_rounds import command_line_tests, round_tests

from credo.secret_qualified import candidates
from credo.secret_random import pieced
from credo.secrets import contains_secret, mask_field

cli = secret_rounds.cli  # the command-line fixture, for this module's tests

SEED = "ribbon garden copper pilot orange lizzard window shadow rocket honey silver tunnel"

SECRETS = [
    # a qualifier (what the secret is for) between the label and its colon, any language
    (
        "the api token for the reporting job on the old server: 5e8a41c09d7b2f36e1a4c8b09d2e7f51",
        "5e8a41c09d7b2f36e1a4c8b09d2e7f51",
    ),
    (
        "clé API pour l'outil de facturation : 9a7c4e21b3f80d6e5a1c2b3d4e5f6071, à garder",
        "9a7c4e21b3f80d6e5a1c2b3d4e5f6071",
    ),
    (
        "Deploy-Token für den Staging-Server im Keller: 3f9e8d7c6b5a49382716a5b4c3d2e1f0aa",
        "3f9e8d7c6b5a49382716a5b4c3d2e1f0aa",
    ),
    # ... and a phrase label in another of its forms (singular where the table has plural)
    ("резервний код для пошти: 7731-0482", "7731-0482"),
    ("záložní kód pro banku: r7tq2-m4kx9", "r7tq2-m4kx9"),
    # ... or before its "is"
    (
        "the passphrase for the backup drive in the attic is amber falcon river 42, ok?",
        "amber falcon river 42",
    ),
    # a passphrase of plain words after a colon (no digit; or opening with a determiner)
    # (the secret named is the phrase's tail: read as written, its first word alone was
    # taken for the value, and the rest shown)
    ("veracrypt passphrase: copper lantern misty harbour", "misty harbour"),
    (
        "backup disk passphrase: a purple goat drinks 5 coffees each monday",
        "a purple goat drinks 5 coffees each monday",
    ),
    ("phrase de passe du coffre : girafe bleue tambour orage", "girafe bleue tambour orage"),
    # ... or after "is"
    ("the passphrase is velvet storm quarry 81", "quarry 81"),
    # a seed phrase after its label's "is", a word of it off the list
    (f"my ledger seed is {SEED} - keep it safe", SEED),
    # a password of pieces straight after its label
    ("the pre-shared key Lm4-river-Otter-19 for the visitors", "Lm4-river-Otter-19"),
    # a value used to open something, or to get in
    ("use otterpond88 to log in to the studio mac", "otterpond88"),
    ("the tax pdf opens with KRTW5521, annoying format", "KRTW5521"),
    ("nimm wolkenberg42 zum Einloggen am Praxis-PC", "wolkenberg42"),
    ("the encrypted zip, use m0onb3am77x to unzip it", "m0onb3am77x"),
    # a word and a number in a password's sentence
    ("would Walrus1999 work as the wifi password at the cabin?", "Walrus1999"),
    ("is Biscuit2020 good enough as a password for the nas?", "Biscuit2020"),
]

LOOKALIKES = [
    # a qualifier that says the value is no secret is never set aside
    "the code for the discount of the month: SPRING2025X",
    "the PIN code for our Pune office is 411001",
    "the password manager for the whole family: Bitwarden",
    "Enter password for backup_user:\nmysql: ERROR 1045 (28000): Access denied for user",
    # a Pix key is where money is sent; "0x" and forty hex digits is an address
    "chave pix da padaria para o bolo: 8d1c2a7e-3b4f-4c5d-9e6f-0a1b2c3d4e5f",
    "chave pix: 5b2e9c1d-7a4f-4e3b-8c6d-1f2a3b4c5d6e, manda o dinheiro da rifa",
    "the token contract is 0x4a7d1c9e2b3f5a6c8d0e1f2a3b4c5d6e7f8a9b0c, verified",
    # a Romanian postcode
    "codul poștal al biroului este 400123, Cluj",
    # words after a passphrase's label that are about it
    "the passphrase is stored in the vault",
    "passphrase: see the shared vault entry",
    "the passphrase is the same as the wifi one",
    "my passphrase is too long to type on the phone",
    # a model's pieces, a word for no password
    "psk Galaxy-Tab-S9 is the tablet's model, not a key",
    # opening with what is no password
    "the door opens with RFID2024 badges",
    "use Chrome to open the report",
    "the garage opens with the remote on the keyring",
    # a word with a number that names what the password is for, or the word itself
    "my windows10 password expired",
    "the password for office365 expired again",
    "is password99 really on every list of leaked passwords?",
    "the password check runs checkpw2025 -v on every login",
]


def test_a_qualifier_is_set_aside_only_before_a_colon_or_an_is() -> None:
    readings = [r.text for r in candidates("the pin for the bike lock in the shed: 4471")]
    assert "the pin: 4471" in readings
    assert list(candidates("the pin 4471 for the bike lock in the shed")) == []


def test_pieces_in_no_products_case() -> None:
    assert pieced("Lm4-river-Otter-19") and pieced("Hb3-Songshu-1988")
    assert not pieced("Galaxy-Tab-S9") and not pieced("NET-LINK-5G")
    assert not pieced("2025-01-31") and not pieced("covid19")


@pytest.mark.parametrize(
    ("field", "secret"),
    [
        # import reads each metadata field alone
        (
            "note:the api token for the reporting job on the old server: "
            "5e8a41c09d7b2f36e1a4c8b09d2e7f51",
            "5e8a41c0",
        ),
        ("chat:the passphrase for the drive in the attic is amber falcon river 42", "falcon"),
        ("origin:the pdf with the payslips opens with QWMT7730", "QWMT7730"),
    ],
)
def test_import_metadata_fields_mask_the_classes(field: str, secret: str) -> None:
    assert secret not in mask_field(field)


def test_a_piece_of_the_value_gives_way_to_the_whole() -> None:
    # read as written, "amber" alone looks like the value; the reading without the
    # qualifier sees the four words, and masks them whole
    masked = mask_field("the passphrase for the backup drive in the attic is amber falcon river 42")
    assert "falcon" not in masked and "river" not in masked
    assert contains_secret("the passphrase for the drive is amber falcon river 42")


(
    test_each_class_is_found_and_masked,
    test_each_look_alike_is_kept,
    test_the_gate_refuses_each_as_a_secret,
    test_memory_keeps_no_secret_and_refuses_no_look_alike_as_one,
) = round_tests(SECRETS, LOOKALIKES, scope="noor", db="round16.db", by_lines=True)

(
    test_the_command_line_refuses_and_never_shows_the_classes,
    test_the_command_line_keeps_the_look_alikes,
) = command_line_tests(SECRETS, LOOKALIKES)
