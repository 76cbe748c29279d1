"""Issue 24's twelfth round: the classes of secret (and of look-alike) it fixed, each on
sentences of our own with invented values (check digits computed here), through the
detector, the real gate and `Memory`."""

from __future__ import annotations

from secret_rounds import round_tests

from credo.id_checksums import national_id_ok
from credo.secrets import contains_secret, mask_secrets


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
]


def test_the_computed_ids_pass_their_checks() -> None:
    assert national_id_ok(RUT, "es") and national_id_ok(EGN, "bg")
    assert national_id_ok(TAIWAN, "zh") and not national_id_ok("F126843050", "zh")
    assert not national_id_ok(EGN[:-1] + str((int(EGN[-1]) + 1) % 10), "bg")


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
