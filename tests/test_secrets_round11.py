"""Issue 24's eleventh round: the classes of secret (and of look-alike) it fixed, each on
sentences of our own with invented values (check digits computed here), through the
detector, the real gate and `Memory`."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

from secret_rounds import round_tests

from credo.id_checksums import national_id_ok
from credo.secrets import contains_secret, mask_secrets


def _iban(country: str, bban: str) -> str:
    """An IBAN of `country` with `bban`, its check digits computed (ISO 13616), in
    groups of four."""
    digits = "".join(str(int(c, 36)) for c in bban + country + "00")
    compact = f"{country}{98 - int(digits) % 97:02d}{bban}"
    return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))


def _oib(first10: str) -> str:
    rest = 10
    for c in first10:
        rest = (rest + int(c)) % 10 or 10
        rest = rest * 2 % 11
    return first10 + str((11 - rest) % 10)


def _jmbg(first12: str) -> str:
    weights = (7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2)
    rest = 11 - sum(int(c) * w for c, w in zip(first12, weights, strict=True)) % 11
    return first12 + str(0 if rest > 9 else rest)


def _thai(first12: str) -> str:
    total = sum(int(first12[i]) * (13 - i) for i in range(12))
    n = first12 + str((11 - total % 11) % 10)
    return f"{n[0]}-{n[1:5]}-{n[5:10]}-{n[10:12]}-{n[12]}"


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _jwt(claims: dict[str, object], secret: bytes) -> str:
    head = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = _b64url(json.dumps(claims, separators=(",", ":")).encode())
    signature = hmac.new(secret, f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{_b64url(signature)}"


OIB = _oib("6914273058")
JMBG = _jmbg("140398571003")
THAI_ID = _thai("310570024681")
#: an account's token, signed with a key of its own
SESSION_JWT = _jwt({"sid": "b1e0c7aa-51f2", "user": "tarja.k", "scope": "orders:write"}, b"k9!Qz")
FCM_KEY = "AAAAq7Rz3kM:APA91b" + "Hq2Lx9Vw4Tz7Kp1Nm8Rc5Yb3Jd6Gf0Sa2Qe" * 4 + "Wk9Xu1"

SECRETS = [
    # identity numbers by their checks, or after labels of more languages
    (f"za novi posao trebaju moj OIB, a to je {OIB}", OIB),
    (f"JMBG od mame: {JMBG}, treba za uputnicu", JMBG),
    ("no. kad pengenalan abang saya ialah 920715-10-5531", "920715-10-5531"),
    ("bank tanya IC aku, 920715105531, betul ke nak bagi?", "920715105531"),
    (f"บัตรประชาชนของแม่เลข {THAI_ID} ใช้สมัครประกัน", THAI_ID),
    ("the nanny's UMID number is 0111-4820551-9, for the payroll form", "0111-4820551-9"),
    ("nambari ya kitambulisho cha taifa ya baba ni 27718340", "27718340"),
    ("স্ত্রীর জাতীয় পরিচয়পত্র নম্বর 4617203958 ফর্মে লিখতে হবে", "4617203958"),
    ("payroll asked for my national insurance number — it's QT 48 20 17 C", "QT 48 20 17 C"),
    # codes and passwords
    ("ο κωδικός της εξώπορτας είναι 7315, μην τον ξεχάσεις", "7315"),
    ("ο κωδικός του χρηματοκιβωτίου: 0592", "0592"),
    ("창고 비밀번호는 730418이야 꼭 기억해", "730418"),
    ("회사 와이파이 비밀번호는 Tq8mR2vz입니다", "Tq8mR2vz"),
    (
        "WLAN-Passwort (Aufkleber unten am Router, leicht verblasst): 58204711930284716652",
        "58204711930284716652",
    ),
    ("wifi password (the guest one, not ours): Marl1n-Bay-407", "Marl1n-Bay-407"),
    ("the shed by the gate has a keypad, code Qz7-m4T-p9K, for the gardener", "Qz7-m4T-p9K"),
    # backup codes and recovery keys in more languages
    (
        "Microsoft-fiókom helyreállítási kódjai: 51840273 90317264 28846105 73391520",
        "51840273 90317264 28846105 73391520",
    ),
    (
        "återställningsnyckel för Mac: KQ4T-8WZP-M2RA-7XJD-3LNB-V9CF-6HUE",
        "KQ4T-8WZP-M2RA-7XJD-3LNB-V9CF-6HUE",
    ),
    (
        "security questions for the pension site: first car = Trabant, best friend = Oskar",
        "Trabant",
    ),
    # token formats, a command's password, a token wrapped over lines
    (
        "the payment provider key for the shop: live_Hq2Lx9Vw4Tz7Kp1Nm8Rc5Yb3Jd6Gf0",
        "Hq2Lx9Vw4Tz7Kp1Nm8Rc5Yb3Jd6Gf0",
    ),
    (f"push notifications still use the old server key {FCM_KEY}", FCM_KEY),
    ("redis-cli -h queue.internal -a 'Wq8!zr2Lp0' KEYS '*' returns nothing", "Wq8!zr2Lp0"),
    (
        "the bearer value broke over lines when I pasted it:\n"
        f"{SESSION_JWT[:60]}\n{SESSION_JWT[60:130]}\n{SESSION_JWT[130:]}\nwhy?",
        SESSION_JWT[60:130],
    ),
]

LOOKALIKES = [
    # a business's IBAN given to be paid into, its legal form in the sentence
    f"pay the school trip money to Kovač Putovanja d.o.o., IBAN {_iban('HR', '24020061012345678')}",
    f"aidatı Yıldız Mimarlık Ltd. Şti. hesabına yatırın: {_iban('TR', '0006200000012345678901')}",
    f"transfiere la fianza a Inmuebles Sur S.L., IBAN {_iban('ES', '00491500051234567892')}",
    f"IBAN firme za uplatu (Drvo Lika d.o.o.): {_iban('HR', '24020061012345679')}",
    # a business's register number called a code
    "код ЄДРПОУ постачальника: 30518244, вказати в договорі",
    "the supplier's REGON code is 146218311, put it on the order",
    # documentation's sample token, whatever claims it was given
    "jwt.io's debugger shows "
    + _jwt({"sub": "42", "name": "Ada Test", "admin": True}, b"your-256-bit-secret")
    + " — which part is the payload?",
    # near a class's words, not its values
    "the IC on the amplifier board is 74HC4051, the other is a 555",
    "the door code policy says codes need 6 digits",
    "ο κωδικός του μαθήματος είναι ΠΛΗ-31",
    "the discount code for the gym door mats is SPRING-25",
    "security questions are a bad idea, I never answer them honestly",
    "redis-cli -a $REDIS_PASSWORD ping",
]


def test_the_computed_ids_pass_their_checks() -> None:
    assert national_id_ok(OIB, "hr") and national_id_ok(JMBG, "hr")
    assert national_id_ok("920715105531", "ms") and not national_id_ok("921315105531", "ms")
    assert national_id_ok(THAI_ID.replace("-", ""), "th")
    assert not national_id_ok(OIB[:-1] + str((int(OIB[-1]) + 1) % 10), "hr")


def test_ic_alone_needs_a_mykad_number() -> None:
    assert not contains_secret("my IC is 74HC595 on that board")
    assert contains_secret("my IC is 920715-10-5531")


def test_a_persons_iban_said_to_be_paid_into_is_still_masked() -> None:
    # the look-alikes' IBANs are IBANs: said as one's own, each is masked
    for bban in ("HR24020061012345678", "TR0006200000012345678901", "ES00491500051234567892"):
        assert contains_secret(f"my IBAN is {_iban(bban[:2], bban[2:])}"), bban
    turkish = _iban("TR", "0006200000012345678901")
    assert contains_secret(f"aidatı benim hesabıma yatırın: {turkish}")
    iban = _iban("ES", "00491500051234567892")
    assert contains_secret(f"paga la fianza a mi cuenta, IBAN {iban}")
    assert contains_secret(f"pay me back into {iban}, the Acme GmbH refund")
    assert contains_secret(f"my IBAN at Acme GmbH for payment: {iban}")


def test_a_token_signed_with_its_own_key_is_a_secret() -> None:
    assert contains_secret(f"session token {SESSION_JWT}")
    # the same claims signed with documentation's published secret: a sample
    sample = _jwt({"sid": "b1e0c7aa-51f2", "user": "tarja.k"}, b"your-256-bit-secret")
    assert not contains_secret(f"session token {sample}")


def test_a_token_cut_before_its_signature() -> None:
    # a field's length or a line's end cut it: its header and claims still give it away
    cut = SESSION_JWT.rsplit(".", 1)[0]
    assert cut not in mask_secrets(f"the log line kept only {cut} and then stopped")


def test_a_made_up_value_that_ends_its_sentence() -> None:
    # the clause reading took a value cut by its sentence's stop for part of something longer
    assert "Rv8Lq2Xz7Mw4" not in mask_secrets("the staging token, if needed: Rv8Lq2Xz7Mw4. ok?")


(
    test_each_class_is_found_and_masked,
    test_each_look_alike_is_kept,
    test_the_gate_refuses_each_as_a_secret,
    test_memory_keeps_no_secret_and_refuses_no_look_alike_as_one,
) = round_tests(SECRETS, LOOKALIKES, scope="ilse", db="round11.db", by_lines=True)
