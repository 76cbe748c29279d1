"""Issue 24's fourteenth round: the classes of secret (and of look-alike) it fixed, each on
sentences of our own with invented values (check digits computed here), typed as people
type them, through the detector, the real gate, `Memory` (a statement a line, as `credo
remember` reads its input), the command line and import's metadata fields."""

from __future__ import annotations

import random

import pytest
import secret_rounds
from secret_rounds import command_line_tests, round_tests

from credo.id_checksums import national_id_ok
from credo.secret_typos import meant_label
from credo.secrets import contains_secret, mask_field

_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_rng = random.Random(14)

cli = secret_rounds.cli  # the command-line fixture, for this module's tests


def _bech32_body(n: int) -> str:
    return "".join(_rng.choice(_BECH32) for _ in range(n))


def _german_card(prefix: str) -> str:
    """`prefix` (nine characters of a German identity card's alphabet) and its check digit."""
    for d in "0123456789":
        if national_id_ok(prefix + d, "de"):
            return prefix + d
    raise AssertionError(prefix)


CARD = _german_card("LZ7X2K9TC")
DEEPL = "5e8d2a1f-3c7b-4a9e-b0d1-6f2e8c4a7b93:fx"
NPUB = "npub1" + _bech32_body(58)
AGE_RECIPIENT = "age1" + _bech32_body(58)
WG_PUBLIC = "Hq4Xk2Rw9Lz7Tb3Nm8Vc1Pd6Sf0Yg5Ja2Ue7Io4Wk8A="
PIX = "3f9a1c2e-7b4d-4e8f-9a6b-1c2d3e4f5a6b"
SEED_IT = (
    "abaco abbaglio abbinato abete abisso abolire abrasivo abrogato accadere accenno "
    "accusato acetone"
)

SECRETS = [
    # a code read out one digit at a time: words joined by hyphens, digits with blanks, a
    # keypad's key said as a word between its groups or after them
    ("the code for the gym locker is five-two-nine-one dont tell anyone", "five-two-nine-one"),
    ("der code vom kellerschloss ist vier-sieben-null-zwei", "vier-sieben-null-zwei"),
    ("il codice del cancello è tre otto uno sei, cambialo a maggio", "tre otto uno sei"),
    ("when the alarm starts beeping the code is 7 3 0 5 8, then press off", "7 3 0 5 8"),
    ("현관 비밀번호는 5 8 2 7 샵이야", "5 8 2 7"),
    ("intercom code at my aunts place: 34 key 7781", "34 key 7781"),
    ("код домофона у мамы: 27 ключ 5519", "27 ключ 5519"),
    # a remark in brackets between a Japanese or Chinese label and its particle
    ("Wi-Fiのパスワード（5GHz）は k8Tz2qLm9x だよ", "k8Tz2qLm9x"),
    ("家里的密码（路由器）是 qz7Lm2Rt9", "qz7Lm2Rt9"),
    # a password of words, said with a note that its blanks belong to it
    ("set my dropbox password to Purple otter 19 rivers (with spaces)", "Purple otter 19 rivers"),
    ("mi contraseña del banco es gato azul 7 lunas, con espacios", "gato azul 7 lunas"),
    # a wallet's recovery words, labelled in another language
    (f"parole di ripristino del portafoglio:\n{SEED_IT}", SEED_IT),
    # a provider's key format
    (f"deepl key for the subtitle script {DEEPL}", DEEPL),
    # a German identity card's serial, by its check digit
    (f"meine ausweisnummer {CARD} brauchst du für den check-in", CARD),
    # a list of recovery codes, some of capitals alone
    (
        "github recovery codes\n  K7QWPZRTXM\n  HBNVCXLKJQ\n  4RT8WQZPLM\n  ZXCVBNMLKJ",
        "K7QWPZRTXM",
    ),
    # a network key's label with a longer place before its colon
    (
        "wlan-schlüssel von dem router im flur oben: 48213377095126640381",
        "48213377095126640381",
    ),
    # a password's word mistyped
    ("my passwrod for hulu: Gr33nTea!x", "Gr33nTea!x"),
    ("mein passowrt ist Kx8s7!dkq", "Kx8s7!dkq"),
    ("contarseña del correo: Limon_Pera44", "Limon_Pera44"),
]

LOOKALIKES = [
    # public keys: bech32 identities, a key named public with a remark before its verb
    f"follow me on nostr, my public key is {NPUB}",
    f"add {NPUB} on damus if you want my notes",
    f"age recipient for the nightly backups: {AGE_RECIPIENT}",
    f"the server's public key (it goes in the [Peer] block) is {WG_PUBLIC}",
    # a Brazilian random PIX key: a UUID to be paid into
    f"minha chave pix é {PIX}, pode mandar o dinheiro do bolão",
    # another number in an SSN's shape, after its own label
    "meine kundennummer beim stromanbieter ist 512-34-6789, steht auf jeder rechnung",
    "customer number with the water company: 512-34-6789",
    # a postal code after "code" and its adjective
    "kod pocztowy biura w warszawie to 00-950",
    # where a password is, not what it is
    "la password del router è scritta sotto il modem",
    "le mot de passe du wifi est écrit derrière la box",
    # a password in a film's plot
    "in that heist movie the password to the vault is 'rosebud', so cheesy",
    "im film ist das passwort für den tresor 'schwertfisch', total albern",
    # digits read out that are no code, a password's word mistyped with no value
    "the kids counted one two three four five before they jumped",
    "i forgot my pasword again lol, the reset link expired",
    "the passowrd policy says twelve characters at least",
]


def test_the_values_pass_their_checks() -> None:
    assert national_id_ok(CARD, "de")
    assert not national_id_ok("LZ7X2K9TCA", "de")  # a letter where its check digit goes


def test_a_mistyped_label_is_read_as_the_label() -> None:
    assert meant_label("contrasñea") == "contraseña"
    assert meant_label("Passwrod") == "password"
    assert meant_label("password") is None  # the label itself is no typo
    assert meant_label("passport") is None


def test_a_recovery_code_list_flattened_onto_one_line_is_found() -> None:
    # import flattens a source field onto one line: the list is still a list
    field = "notes:recovery codes K7QWPZRTXM HBNVCXLKJQ 4RT8WQZPLM ZXCVBNMLKJ keep them offline"
    assert "K7QWPZRTXM" not in mask_field(field)
    assert not contains_secret("recovery codes were printed and put away")


@pytest.mark.parametrize(
    ("field", "secret"),
    [
        # import reads each metadata field alone, its lines flattened
        ("chat:Wi-Fiのパスワード（5GHz）は k8Tz2qLm9x だよ", "k8Tz2qLm9x"),
        (
            "note:if the alarm beeps the code is 7 3 0 5 8, and the app pw is 'lighthouse'",
            "7 3 0 5 8",
        ),
        ("note:parole di ripristino del portafoglio: " + SEED_IT, SEED_IT),
    ],
)
def test_import_metadata_fields_mask_the_classes(field: str, secret: str) -> None:
    assert secret not in mask_field(field)


(
    test_each_class_is_found_and_masked,
    test_each_look_alike_is_kept,
    test_the_gate_refuses_each_as_a_secret,
    test_memory_keeps_no_secret_and_refuses_no_look_alike_as_one,
) = round_tests(SECRETS, LOOKALIKES, scope="ines", db="round14.db", by_lines=True)

(
    test_the_command_line_refuses_and_never_shows_the_classes,
    test_the_command_line_keeps_the_look_alikes,
) = command_line_tests(SECRETS, LOOKALIKES)
