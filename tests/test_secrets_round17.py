"""Issue 24's seventeenth round: the classes of secret (and of look-alike) it fixed, each a
structure rather than a wording, on sentences of our own with invented values, through
the detector, the real gate, `Memory` (a statement a line, as `credo remember` reads its
input), the command line and import's metadata fields.

The classes (`credo.secret_said` and the rules it names): a one-time code that arrived,
said with a word for a code or a message and a verb of arriving or of what to do with it;
digits keyed on a keypad, the verb in any of its forms, before the digits or (verb last)
after them; a value said again after how it is made ("..., so 4417", "..., yani 5211",
"…、つまり…"); a made-up value straight after a code's label; a card's security code by
its count of digits and where they are printed; an answer given to a question quoted just
before; "it's" in other languages before a password; a lock "is set to" its code, or set
"to" it farther from its name; an identity number after "my X, that is" or a possessive
after its label; a network's key after the short form "ww". And the look-alikes they fixed
by what the value is: an IBAN that donations go to, a number a card's issuer never gives
that length, an IBAN after another number's label."""

from __future__ import annotations

import pytest
import secret_rounds
from secret_rounds import command_line_tests, round_tests

from credo.secrets import find_secrets_whole, mask_field

cli = secret_rounds.cli  # the command-line fixture, for this module's tests

SECRETS = [
    # a one-time code that arrived: a code's or a message's word, a verb of arriving
    ("just got code 583920 from the pharmacy app, can you type it in?", "583920"),
    ("мне пришёл код 904417 от доставки, что с ним делать", "904417"),
    ("kom precis ett sms med 661204 från Skatteverket", "661204"),
    ("o app mandou o código 270593 agora mesmo", "270593"),
    ("die Bank-App will einen Anmeldecode, eben per Mail gekommen: 771 093", "771 093"),
    ("fikk koden 302817 fra banken nettopp, kan du skrive den inn?", "302817"),
    # digits keyed on a keypad, the verb inflected or after the digits
    ("bei der Seitentür die Ziffern 6194 eintippen, dann aufdrücken", "6194"),
    ("tecleas 3318 en el panel de la entrada y empujas", "3318"),
    ("tu composes 8052B sur le clavier du hall", "8052B"),
    ("ドアの横のテンキーで5527を押してください", "5527"),
    # a value said again after how it is made
    ("the garage code is my old locker number plus one, so 7716", "7716"),
    ("kasanın şifresi babamın plakası, yani 3417", "3417"),
    ("金庫の暗証番号は母の誕生日の逆、つまり4203", "4203"),
    ("门禁密码是我的工号倒过来：624081", "624081"),
    ("de schuur gaat open met het oude huisnummer keer drie, dus 7731", "7731"),
    ("my gran's birthday backwards is what unlocks my tablet — that's 120443 — ok", "120443"),
    # a made-up value straight after a code's label
    ("código de acceso Vq8rTz2mWk para la intranet", "Vq8rTz2mWk"),
    ("Online-PIN: Marble.kettle472 (frag nicht)", "Marble.kettle472"),
    # a card's security code by its count and where it is printed
    ("the amex is in the drawer and the four on the back are 8312", "8312"),
    ("die Karte liegt oben, die drei Zahlen hinten drauf sind 509", "509"),
    # an answer given to a question quoted before it
    ("'what was the name of your first teacher?' I answered Miss Halloran", "Halloran"),
    ("«¿ciudad donde nació tu abuela?» y contesté Villanueva del Río", "Villanueva"),
    ("'which street did you grow up on' - I replied Elm Row, for the pension form", "Elm Row"),
    # "it's" in another language
    (
        "mon mdp de la banque a encore changé... maintenant c'est Harbor?mint58, garde-le",
        "Harbor?mint58",
    ),
    ("mein Passwort hab ich geändert. Jetzt ist es Kiesel%bach71, merk dir das", "Kiesel%bach71"),
    # a lock "is set to" its code, or set "to" it farther from its name
    ("the bike locker 31 is set to 440917", "440917"),
    ("the small safe in the guest room at the chalet, they set it to 58213 for us", "58213"),
    # an identity number after "my X, that is", or with a possessive after its label
    # (numbers whose check digits fail: the label says whose they are)
    ("de tandarts vraagt mijn BSN, dat is 412873656, klopt dat", "412873656"),
    ("NIK saya 5512709934001276 untuk pendaftaran sekolah", "5512709934001276"),
    # a network's key after "ww"
    ("voor de gasten: netwerk Zolder_5G, ww korenbloem82, tv-gids ligt op tafel", "korenbloem82"),
]

LOOKALIKES = [
    # an IBAN that donations go to is the organisation's, published for whoever gives
    "donations to the animal shelter: IBAN DE94 7005 0000 0081 2345 67",
    "para donar al banco de alimentos: ES91 2100 0418 4502 0005 1332",
    "giften voor de kerk: NL36 INGB 0007 6543 21, staat ook in het blad",
    "pour les dons à l'association du quartier : FR76 3000 6000 0112 3456 7890 189",
    # a number no card of its issuer has: fifteen digits starting 54
    "pacco GLS 547312069812401 in consegna domani",
    # codes that came but are no secret: another kind, or two numbers
    "the tracking code 448120 came with the order",
    "I got the promo code 662211 by email, 10% off",
    "got two codes today, 1204 and 5581, from the quiz",
    # keyed, but not a code: a unit, one digit
    "press 2 at the door for the reception",
    "type 1920 px wide images for the door sign",
    # said again, but nothing secret named: a shop's hours, a house's year
    "the shop opens early, so 0800",
    "the house was built by grandad, so 1952",
    # after a code's label, a plain word
    "access code: printed on your ticket",
    "PIN: unchanged since march",
    # a count "on the back", no card named
    "the four on the back row are 2024 graduates",
    # a question quoted, answered in words of no name
    "'where do we meet?' - I replied at the station, as usual",
    # a clock set, not a lock
    "the alarm in the guest room is set to 0700",
]


def test_the_donation_veto_is_the_speakers_own_account_no_more() -> None:
    # a person's own IBAN collecting gifts is still masked
    assert find_secrets_whole("donations for the party to my IBAN DE94 7005 0000 0081 2345 67")


@pytest.mark.parametrize(
    ("field", "secret"),
    [
        # import reads each metadata field alone
        ("note:just got code 583920 from the pharmacy app, type it in", "583920"),
        ("chat:the garage code is my old locker number plus one, so 7716", "7716"),
        ("origin:tecleas 3318 en el panel de la entrada", "3318"),
    ],
)
def test_import_metadata_fields_mask_the_classes(field: str, secret: str) -> None:
    assert secret not in mask_field(field)


(
    test_each_class_is_found_and_masked,
    test_each_look_alike_is_kept,
    test_the_gate_refuses_each_as_a_secret,
    test_memory_keeps_no_secret_and_refuses_no_look_alike_as_one,
) = round_tests(SECRETS, LOOKALIKES, scope="noor", db="round17.db", by_lines=True)

(
    test_the_command_line_refuses_and_never_shows_the_classes,
    test_the_command_line_keeps_the_look_alikes,
) = command_line_tests(SECRETS, LOOKALIKES)
