"""Issue 24's twelfth round: the classes of secret (and of look-alike) it fixed, each on
sentences of our own with invented values (check digits computed here), through the
detector, the real gate and `Memory`."""

from __future__ import annotations

from secret_rounds import round_tests

from credo.id_checksums import national_id_ok
from credo.secrets import contains_secret, mask_field, mask_secrets


def _iban(country: str, bban: str) -> str:
    """An IBAN of `country` with `bban`, its check digits computed, in groups of four."""
    digits = "".join(str(int(c, 36)) for c in bban + country + "00")
    compact = f"{country}{98 - int(digits) % 97:02d}{bban}"
    return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))


def _checked(prefix: str, language: str, *, digits: str = "0123456789K") -> str:
    """`prefix` and the first check character that makes it pass `language`'s check."""
    for d in digits:
        if national_id_ok(prefix + d, language):
            return prefix + d
    raise AssertionError(prefix)


RUT = _checked("1537902", "es")  # seven digits and a check: eight characters
EGN = _checked("750815201", "bg")
JMBG = _checked("230497771003", "hr")
AADHAAR = _checked("73918264051", "ta")
TAIWAN = _checked("F12684305", "zh")

SECRETS = [
    # a password's label in more languages and scripts, words between it and the value
    ("паролата на рутера в офиса е Lipa#2024x", "Lipa#2024x"),
    ("lozinka za studentski portal: Sava.1987", "Sava.1987"),
    ("лозинка за банку је Dunav!Most5", "Dunav!Most5"),
    ("அலுவலக கணினி பாஸ்வேர்ட் Kaveri@2021", "Kaveri@2021"),
    ("la contrasenya del correu és Montseny7!", "Montseny7!"),
    ("رمز بانکم Tabriz99!x", "Tabriz99!x"),
    # a word and a number, after a colon or a verb, in a label's clause
    ("senha da conta do netflix lá de casa: pipoca2020", "pipoca2020"),
    ("password ng IG ko kalabaw77 wag mong ipagsabi", "kalabaw77"),
    # a label in Chinese or Japanese glued to a value in Latin letters or digits
    ("公司邮箱密码huangshan2019", "huangshan2019"),
    ("银行卡取款密码481259别忘了", "481259"),
    # PINs and one-time codes read in their label's clause, in more languages
    ("pin atm aku 503917 jangan kasih tau siapa2", "503917"),
    ("kod TAC dari bank2u 774120, tolong masukkan", "774120"),
    ("ang MPIN ko sa maya ay 8842", "8842"),
    ("ஏடிஎம் பின் நம்பர் 3307, யாருக்கும் சொல்லாதே", "3307"),
    ("a régi kártya PIN kódja 5518", "5518"),
    ("카드 비밀번호 여섯 자리 224517", "224517"),
    ("el codi de la porta del pàrquing és 6042", "6042"),
    # how many digits a code has, said between its label and the code
    ("a senha de 6 dígitos do cartão é 904417", "904417"),
    ("my 4-digit pin for the bank app is 7308", "7308"),
    # English labels as typed with one slip
    ("the new pascode for the ipad is 551903", "551903"),
    ("work pasword: Quartz!88 dont share", "Quartz!88"),
    ("my passwrod is Helios-2291", "Helios-2291"),
    # identity numbers by their checks, after labels of more languages
    (f"the rut de mi papá es {RUT[:-1]}-{RUT[-1]}, para la isapre", f"{RUT[:-1]}-{RUT[-1]}"),
    (f"ЕГН-то на баща ми е {EGN}", EGN),
    (f"ЈМБГ од сестре: {JMBG}", JMBG),
    (f"அம்மாவின் ஆதார் எண் {AADHAAR[:4]} {AADHAAR[4:8]} {AADHAAR[8:]}", AADHAAR[8:]),
    (f"爸爸的身分證字號：{TAIWAN}，辦保險要用", TAIWAN),
]

# a key wrapped when it was copied: the line after it holds nothing but its characters
WRAPPED = "rk_live_" + "Hq2Lx9Vw4Tz7Kp1Nm8Rc5Yb3Jd6Gf0SaQe"
WRAPPED_REST = "Wk9Xu1Pz4Lm7Rt2Vb8Nc3Qd6Hs0Fg5Jy"
SECRETS += [
    # a code read out one digit a word, in its label's clause
    ("the gate code is seven three one four, dont tell the kids", "seven three one four"),
    ("mi pin nuevo es nueve cero dos siete", "nueve cero dos siete"),
    ("PIN zur Bankkarte: vier acht eins null", "vier acht eins null"),
    ("код от домофона пять два два девять", "пять два два девять"),
    # a code given one digit at a time after what it opens
    ("the padlock on the shed opens with 4 0 8 2", "4 0 8 2"),
    # a strong password's shape, with no label at all
    ("keep this one safe for me pls: Vk4!rT9#wQz2", "Vk4!rT9#wQz2"),
    ("my brother sent 'Oslo#Fjord!77' for the family tablet", "Oslo#Fjord!77"),
    # a password's label, a comma of Arabic script, the value in its next words
    ("رمز وای‌فای رو عوض کردم، جدیدش Kavir2023!x هست", "Kavir2023!x"),
    # a token cut at a line's end and carried on the next line
    (f"copied from the dashboard, it broke in two:\n{WRAPPED}\n{WRAPPED_REST}", WRAPPED_REST),
    # an account's SID, then its auth token with no label of its own
    (
        'client = Client("AC' + "3f9b2c7d" * 4 + '", "' + "9a0c4e1b" * 4 + '")',
        "9a0c4e1b" * 4,
    ),
    # a wallet's private key in a sentence about moving it between wallets
    (
        "exported from my phone wallet, need it in the browser one: 0x" + "7c3e91ab" * 8,
        "0x" + "7c3e91ab" * 8,
    ),
]

SECRETS += [
    # a code said first, a dash and "that is" before its label
    ("5127 — dat is de code van de garage", "5127"),
    ("8830 - that's the alarm code at mums", "8830"),
    # a code keyed with its "#" after, said first, what it opens after
    ("it's 6019# for the bike shed, the other lock is broken", "6019#"),
    # a digicode's key letter before its digits, in the code's clause
    ("digicode du bâtiment C: A7315 puis porte droite", "A7315"),
    # an unlock pattern told in words
    ("tablet unlock pattern: L shape from the top left", "L shape from the top left"),
    # a router's key as printed: capitals, no word
    ("guest network BELLNET-90A1, password KTRWPLDZ (on the sticker)", "KTRWPLDZ"),
    # a card's security code by where it is printed, the card's last digits between
    ("the three digits on the back of the mastercard ending 0913 are 284", "284"),
    ("cvv of the amex ending 1005 is 6620", "6620"),
    # a remark after a comma before a grouped value's colon
    ("wifi key for the cabin, if anyone asks again: 4417 2208 9135 6620", "4417 2208 9135 6620"),
]

LOOKALIKES = [
    # an Indian "PIN code" with its place, read in the PIN's clause too
    "ship it to our Pune office, PIN 411014, Maharashtra",
    "pin atm itu harus 6 digit, bukan 4",
    # "pin" inside other words, a code's length with no code
    "the pink 1234 lego set is out of stock",
    "ping 1234 ms from the hotel wifi, awful",
    "a senha precisa ter 8 dígitos no mínimo",
    # a company's Taiwanese business number is no identity number
    "公司統一編號 04595257，開發票用",
    # a label's words near no value of a secret's shape
    "lozinka za portal je istekla, treba je promijeniti",
    "the pascode screen froze after the update",
    "密码学是一门有趣的课",
    # an IBAN to pay a bill into: the text asks for the payment's reference
    f"la cuota del garaje: {_iban('ES', '21000418450200051332')}, concepto 'plaza 14'",
    f"vuokra tilille {_iban('FI', '21234560000785')}, viitenumero 13 62 45",
    f"miete bitte auf {_iban('DE', '370400440532013000')}, Verwendungszweck: Miete Mai",
    # a router's network name near a word for its key, the key not given
    "the cabin wifi is NETGEAR_5G-7b3e, nobody remembers the password",
    # BIP-39's test vector, quoted for a test
    "the test fixture uses 'zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong' as its mnemonic",
    # a strong password's shape that documentation prints, or one spelt from "password"
    "the course says Tr0ub4dor&3 is weaker than four random words",
    "never use P@ssw0rd2024! or anything like it",
    # a stamp or a setting of all four kinds of character
    "the rule came from remember@2026-12-05T04:27:17Z",
    "log: Job#42 ok at 2026-03-01T10:00Z, user=Ops!Team7",
    # a spoken number near a code's word that is no code
    "the error code said one two three four times, then stopped",
    # a transaction's hash in a sentence about a wallet
    "my wallet shows tx 0x" + "5d2e8f01" * 8 + " as pending",
    # near the classes' words, not their values
    "2024 — that's the year the door code changed",
    "issue 4471# is about the gate sensor",
    "the password STRENGTH meter is broken",
    "the cvv is printed on the back of the card",
    "the knitting pattern is an L shape from the top left",
]


def test_the_computed_ids_pass_their_checks() -> None:
    assert national_id_ok(RUT, "es") and national_id_ok(EGN, "bg")
    assert national_id_ok(TAIWAN, "zh") and not national_id_ok("F126843050", "zh")
    assert not national_id_ok(EGN[:-1] + str((int(EGN[-1]) + 1) % 10), "bg")


def test_an_iban_with_no_reference_asked_for_is_still_masked() -> None:
    # the look-alikes' IBANs are IBANs: with no payment reference asked for, each is masked
    iban = _iban("ES", "21000418450200051332")
    assert contains_secret(f"la cuota del garaje: {iban}")
    assert contains_secret(f"mi IBAN es {iban}, concepto lo que quieras")


def test_a_network_name_given_as_its_key_is_still_masked() -> None:
    assert "NETGEAR_5G-7b3e" not in mask_secrets("the cabin wifi password: NETGEAR_5G-7b3e")


def test_a_seed_phrase_of_many_words_is_still_a_seed_phrase() -> None:
    words = "abandon " * 6 + "ribbon tiger silent orchard lamp about"
    assert contains_secret(f"my seed: {words}")


def test_a_metadata_field_is_read_as_the_statement_it_labels() -> None:
    # a source's kind glued by a colon ("imported:") hid a code said first from its reading
    assert "5127" not in mask_field("imported:5127 — dat is de code van de garage")
    assert mask_field("imported:the kettle is blue") == "imported:the kettle is blue"
    # a wrapped key flattened onto one line, as a label keeps it
    flat = f"tool:it broke in two: {WRAPPED} {WRAPPED_REST} ok?"
    assert WRAPPED_REST not in mask_field(flat)


def test_a_code_in_a_name_is_no_other_number() -> None:
    # a digit inside a brand's name between a label and its code is no other number
    assert "660513" not in mask_secrets("the TAC from maybank2u is 660513")
    # but a number of its own is: the first number in the clause is read, the second not
    assert not contains_secret("pin atm 2 kali salah, kartu 4471 terblokir")


(
    test_each_class_is_found_and_masked,
    test_each_look_alike_is_kept,
    test_the_gate_refuses_each_as_a_secret,
    test_memory_keeps_no_secret_and_refuses_no_look_alike_as_one,
) = round_tests(SECRETS, LOOKALIKES, scope="tove", db="round12.db", by_lines=True)
