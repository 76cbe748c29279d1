"""Issue 24's thirteenth round: the classes of secret (and of look-alike) it fixed, each on
sentences of our own with invented values (check digits computed here), typed as people
type them, through the detector, the real gate, `Memory` (a statement a line, as `credo
remember` reads its input) and the command line."""

from __future__ import annotations

from pathlib import Path

import secret_rounds
from secret_rounds import command_line_tests, round_tests

from credo.id_checksums import national_id_ok
from credo.secrets import contains_secret, mask_field, read_in_paste, shown_public_by_paste
from credo.testing import memory_for_tests

cli = secret_rounds.cli  # the command-line fixture, for this module's tests


def _checked(prefix: str, language: str) -> str:
    """`prefix` and the first check digit that makes it pass `language`'s check."""
    for d in "0123456789":
        if national_id_ok(prefix + d, language):
            return prefix + d
    raise AssertionError(prefix)


def _iban(country: str, bban: str) -> str:
    """An IBAN of `country` with `bban`, its check digits computed, in groups of four."""
    digits = "".join(str(int(c, 36)) for c in bban + country + "00")
    compact = f"{country}{98 - int(digits) % 97:02d}{bban}"
    return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))


OIB = _checked("8351920746", "hr")
NOTION = "ntn_58203917466aQ3rT8kLm2Xv9Bn4Pz7Wc1Hy6Jd0Fs5Ge2Ku"
GRAFANA = "glsa_Zr4Tq8WmX2kP7vLn9Bc3Hy6Jd1Fs5Ge0_9c1f4a7e"
FLUTTERWAVE = "FLWSECK-" + "4e9a1c7b" * 4 + "-X"
MIDTRANS = "Mid-server-Kq7Wz2Xv9Lm4Pt8Rn3Bs6Hy"
HEX32 = "7c41e9a0b2d85f36c19e4a7b0d2f8e53"
SEED = "가방 나무 다리 바다 사과 우유 하늘 구름 모자 시계 연필 창문"

SECRETS = [
    # providers' token formats
    (f"notion token for the wiki sync: {NOTION}", NOTION),
    (f"grafana sa token {GRAFANA} (read only)", GRAFANA),
    (f"flutterwave live key {FLUTTERWAVE} dont commit it", FLUTTERWAVE),
    (f"midtrans prod {MIDTRANS}", MIDTRANS),
    # a token's or a password's word in Bulgarian, Georgian and Swahili
    (
        "токенът за мониторинга (read only): Qw7ErT2yUi9OpAs4DfGh6JkL1zXc",
        "Qw7ErT2yUi9OpAs4DfGh6JkL1zXc",
    ),
    ("ბანკის პაროლია Tbilisi_Vake77", "Tbilisi_Vake77"),
    ("ufunguo wa siri wa api ya duka ni Hx82kQz7LmP4vRt9Wn3s", "Hx82kQz7LmP4vRt9Wn3s"),
    # a camel-case name ending in Secret, a Korean key word, a copula or a colon after it
    (f"小程序的 AppSecret 是 {HEX32}，别发群里", HEX32),
    (f"rest 키: {HEX32} 서버에서만", HEX32),
    # a setting whose secret word ends its name, whatever the secret is used for
    ("hmac_secret=Q7ZK2M9XW4PL8R3T", "Q7ZK2M9XW4PL8R3T"),
    # codes: Hungarian compounds of what a code opens, a key box's definite form and a
    # code read out digit by digit, a Japanese comma after the label
    ("a garázs ajtókódja a hátsó bejáratnál 8152", "8152"),
    ("nøkkelskapet på hytta har kode 4 8 1 7", "4 8 1 7"),
    ("銀行の暗証番号、7391に変えた", "7391"),
    # a value said first, then an arrow or "that's", or Polish "to", then its label
    ("Zebra!Crossing9 <- thats my new netflix password", "Zebra!Crossing9"),
    ("Jezioro_Tatry42 to moje haslo do poczty", "Jezioro_Tatry42"),
    # identity and bank numbers
    ("میرا cnic نمبر 42101-5839204-7 ہے", "42101-5839204-7"),
    ("my cnic no is 42101-5839204-7", "42101-5839204-7"),
    ("sort code 20-45-77, acc no 41926638, my barclays one", "41926638"),
    # security answers in Hebrew, and a classic question's topic with "answer"
    ("התשובה לשאלת האבטחה היא פתיתים", "פתיתים"),
    ("pet name answer for the bank app is 'captain biscuit'", "captain biscuit"),
    # a recovery code with Hungarian's possessive
    (
        "az xbox fiókom helyreállítási kódja: K7M2Q-9XW4T-P3L8R-Z6N1V-H5B2C",
        "K7M2Q-9XW4T-P3L8R-Z6N1V-H5B2C",
    ),
]

LOOKALIKES = [
    # keys named public, and a test mode's key in a text about documentation
    "recaptcha site key: 6Lf3kQ0pAAAAAHj2Rt7vBn9XcW4eLmZs8yUq1DaK for the signup page",
    "the stripe docs show sk_test_Xq7Lm2Rv9Tz4Kp8Wn3Bc6Hy in every example",
    "midtrans client key for the checkout page: Mid-client-Ab3dEf7hIj9kLm2N",
    "flutterwave public key FLWPUBK-" + "4e9a1c7b" * 4 + "-X for the js widget",
    # a company's identity number: its word between, or its legal form after
    f"OIB tvrtke za račun: {OIB} (Stolarija Babić d.o.o.)",
    # an Indian postcode called a PIN code, in Tamil and Hindi
    "எங்கள் அலுவலக பின் கோடு 600028, மயிலாப்பூர்",
    "ऑफिस का पिन कोड 560034 है, कूरियर के लिए",
    # a gamer's tag, a title with one symbol: no password's shape
    "add me on discord: Mossy#4821",
    "the album is called Run!Go2Town",
    # digits read out as an example
    "a pin like one two three four is the first thing thieves try, for example",
    # a value's word with no value, and a number near a code's word that is not one
    "the passwords for the wordpress site are in the team vault",
    "the key box at the cabin is by the woodshed",
    # an invoice pasted over lines, its IBAN on a line of its own under the payee's name
    "Rechnung Nr. 2026-114\nZahlbar an: Malerbetrieb Krause GmbH\n"
    + f"IBAN {_iban('DE', '370400440532013000')}\nVerwendungszweck: R-2026-114",
]


def test_the_computed_oib_passes_its_check() -> None:
    assert national_id_ok(OIB, "hr")
    assert contains_secret(f"moj OIB je {OIB}")  # a person's is still a secret


def test_a_key_file_cut_short_in_a_field_is_the_file() -> None:
    # a PuTTY key flattened into a source label and cut: its own fields are the file's
    field = "tool:keep a copy: PuTTY-User-Key-File-3: ssh-ed25519 Encryption: none Public-Lines: 2 AAAAC3Nza"
    assert "Encryption: none" not in mask_field(field)
    # the format named in prose is not a key
    assert not contains_secret("puttygen writes PuTTY-User-Key-File-3: files now")


def test_a_seed_phrase_after_its_label_and_a_word_on_one_line_is_found() -> None:
    assert SEED not in mask_field(f"imported:지갑 복구 문구 적어둠 {SEED}")
    # a request after the label that ends the text is not one
    assert not contains_secret(
        "복구 문구 절대로 다른 사람에게 알려주면 안 되고 종이에 적어서 금고에 잘 보관하세요"
    )


def test_a_paste_is_judged_whole_and_its_lines_alone_are_not() -> None:
    invoice = LOOKALIKES[-1]
    iban_line = invoice.splitlines()[2]
    # the line alone is a labelled IBAN; under its payee's name it is the invoice's
    assert contains_secret(iban_line) and not contains_secret(invoice)
    assert shown_public_by_paste(invoice) == {iban_line.removeprefix("IBAN ")}
    with read_in_paste(shown_public_by_paste(invoice)):
        assert not contains_secret(iban_line)
    assert contains_secret(iban_line)  # outside the paste, the line is read alone again
    # a secret in the same paste is no value the paste shows public
    paste = "our wifi\npassword: Kestrel#Moor88\n" + invoice
    assert "Kestrel#Moor88" not in shown_public_by_paste(paste)
    assert "Kestrel#Moor88" not in mask_field(paste)


def test_remember_lines_stores_a_pasted_invoice_and_refuses_its_iban_alone(
    tmp_path: Path,
) -> None:
    memory = memory_for_tests(tmp_path / "paste.db", scope="ilse")
    invoice = LOOKALIKES[-1]
    assert all(r.code != "secret" for r in memory.remember_lines(invoice))
    assert memory.remember(invoice.splitlines()[2]).code == "secret"
    pasted = memory.remember_lines("the cabin gate\ncode is 4471, the key box below it")
    assert any(r.code == "secret" for r in pasted)
    assert "4471" not in " ".join(f.text for f in memory.list(limit=100))


def test_the_command_line_keeps_a_pasted_invoice(cli) -> None:  # type: ignore[no-untyped-def]
    _, said = cli("remember", LOOKALIKES[-1])
    assert "secret" not in said


(
    test_each_class_is_found_and_masked,
    test_each_look_alike_is_kept,
    test_the_gate_refuses_each_as_a_secret,
    test_memory_keeps_no_secret_and_refuses_no_look_alike_as_one,
) = round_tests(SECRETS, LOOKALIKES, scope="ilse", db="round13.db", by_lines=True)

(test_the_command_line_refuses_and_never_shows_the_classes, _) = command_line_tests(SECRETS, ())
