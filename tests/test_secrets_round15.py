"""Issue 24's fifteenth round: the classes of secret (and of look-alike) it fixed, each on
sentences of our own with invented values (the routing number's check digit computed
here), typed as people type them, through the detector, the real gate, `Memory` (a
statement a line, as `credo remember` reads its input), the command line and import's
metadata fields."""

from __future__ import annotations

import pytest
import secret_rounds
from secret_rounds import command_line_tests, round_tests

from credo.secret_numbers import aba_routing_ok
from credo.secrets import contains_secret, mask_field

cli = secret_rounds.cli  # the command-line fixture, for this module's tests


def _routing(prefix: str) -> str:
    """`prefix` (eight digits) and the check digit that makes it an ABA routing number."""
    for d in "0123456789":
        if aba_routing_ok(prefix + d):
            return prefix + d
    raise AssertionError(prefix)


ROUTING = _routing("07200012")

SECRETS = [
    # a parcel locker's pickup code, in the languages that name the locker (its own id
    # between, a proper name after it, groups of three digits)
    ("kod odbioru z paczkomatu KRA07N: 613 982, odbierz do piątku", "613 982"),
    ("kód pro vyzvednutí z AlzaBoxu je 402 718", "402 718"),
    ("код з поштомату Укрпошти 739204, там посилка від сестри", "739204"),
    ("codul de la easybox e 558301, e pentru coletul cu pantofi", "558301"),
    # where the thing is, after its label, with Polish, Vietnamese and Romanian prepositions
    ("kod do furtki od ogrodu 4096", "4096"),
    ("mã cổng ở nhà bà ngoại 3 9 1 7", "3 9 1 7"),
    # a safe or a locker glued to a Thai label, the code later in the clause
    ("รหัสล็อกเกอร์ที่ฟิตเนสคือ 83150", "83150"),
    # Vietnamese and Swahili digits said one a word
    ("mã pin thẻ của bố là hai tám không năm", "hai tám không năm"),
    ("namba ya siri ya simu yangu ni tisa moja nne saba", "tisa moja nne saba"),
    # the owner said inside the label
    ("nambari yangu ya siri ya benki ni 8 0 3 6", "8 0 3 6"),
    # Hebrew, Hungarian and Romanian: a word for "code" and what it opens
    ("הקוד של הכספת במשרד 6 1 9 3", "6 1 9 3"),
    ("a kapu kódja 5218, ha nem működik csengess", "5218"),
    # a combination lock: numbers with blanks around their dashes, or each after a turn
    ("Kombination vom Spind in der Halle: 12 - 40 - 06", "12 - 40 - 06"),
    ("the bike lock combination goes left 17, right 4, left 33", "left 17, right 4, left 33"),
    ("a lakat kombinációja balra 8, jobbra 21, balra 35", "balra 8, jobbra 21, balra 35"),
    # a thing named, then set with "it"
    ("storage unit padlock - changed it to 7719 last week", "7719"),
    # a gift card named, its code later in the clause
    ("grandma sent an amazon gift card, the code is 7QKX-M2PD-Z84R", "7QKX-M2PD-Z84R"),
    # a password after a question about it, or about a bank's login
    ("can you keep my wifi password somewhere? Lantern#Moss88", "Lantern#Moss88"),
    ("me guardas la clave del correo? es Tucan22!verde", "Tucan22!verde"),
    ("credit union online banking => jdoe_77 : Harbor!Fog9", "Harbor!Fog9"),
    # a password changed, its new value after a comma with "is"
    ("Router-Passwort hab ich gestern geändert, ist jetzt Amsel-Regen-31", "Amsel-Regen-31"),
    ("I reset the nas password, it's now Quartz-Pine-406", "Quartz-Pine-406"),
    # Vietnamese: a family member's password
    ("pass gmail của bố là boGmail_1962 nha", "boGmail_1962"),
    # a US account next to a routing number that passes its check
    (f"for payroll: routing {ROUTING} account 4402917355", "4402917355"),
    # a password made of a thing's name, the thing named later
    ("my laptop password is my dog's name plus 77, and the dog is named Pretzel", "Pretzel"),
]

LOOKALIKES = [
    # a routing number that fails its check is no routing number
    "routing 123456789 account 55512 on the demo form",
    # a model IBAN, its bank's code left as letters, said to be an example
    "in the example on the bank's form the IBAN is DE12 XXXX 0000 1234 5678 90, not mine",
    # a slogan in the languages whose word for "password" also means one
    "az egyesület jelszava: 'Tiszta víz mindenkinek', ezt festjük a transzparensre",
    "הסיסמה של הטורניר: 'רצים ביחד', נדפיס על הכובעים",
    "hasło akcji sprzątania: 'Czysty las razem'",
    # a postal code after "code" in Vietnamese
    "mã bưu điện của phường mình là 700000",
    # a list of things to buy of BIP-39 words
    "grocery list: apple, butter, cheese, egg, flour, garlic, lemon, milk, onion, potato, "
    "salad, sugar",
    # a queue's ticket called a "senha"
    "minha senha na fila do cartório é C112, ainda estão chamando C098",
    # a business's activity code
    "codul CAEN al cabinetului e 8621",
    # turns and numbers that open nothing, dashes around numbers that open nothing
    "at the roundabout go left 2, right 1, left 3 and you're there",
    "the final score was 21 - 18 - 9 over three sets",
    # a question about a password, answered with no password
    "what's the guest wifi password? I'll ask Marta tomorrow",
    "the cat is called Biscuit and she is three",
]


def test_the_routing_number_passes_its_check() -> None:
    assert aba_routing_ok(ROUTING)
    assert not aba_routing_ok("123456789")


@pytest.mark.parametrize(
    ("field", "secret"),
    [
        # import reads each metadata field alone, its lines flattened
        ("note:kod odbioru z paczkomatu KRA07N: 613 982", "613 982"),
        ("chat:me guardas la clave del correo? es Tucan22!verde", "Tucan22!verde"),
        (f"origin:payroll routing {ROUTING} account 4402917355", "4402917355"),
    ],
)
def test_import_metadata_fields_mask_the_classes(field: str, secret: str) -> None:
    assert secret not in mask_field(field)


def test_a_slogan_owned_or_for_logging_in_is_still_a_password() -> None:
    assert contains_secret("a wifi jelszava: 'kék ló fut'")
    assert contains_secret("hasło do wifi: 'kot na płocie'")


(
    test_each_class_is_found_and_masked,
    test_each_look_alike_is_kept,
    test_the_gate_refuses_each_as_a_secret,
    test_memory_keeps_no_secret_and_refuses_no_look_alike_as_one,
) = round_tests(SECRETS, LOOKALIKES, scope="ines", db="round15.db", by_lines=True)

(
    test_the_command_line_refuses_and_never_shows_the_classes,
    test_the_command_line_keeps_the_look_alikes,
) = command_line_tests(SECRETS, LOOKALIKES)
