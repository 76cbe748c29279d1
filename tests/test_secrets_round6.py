"""Issue 24's sixth round: the classes of secret (and of look-alike) it fixed, each on
sentences of our own with invented values, through the detector and through the real
gate and `Memory.remember`."""

from __future__ import annotations

import base64
import json

from secret_rounds import round_tests


def _b64url(obj: dict[str, object]) -> str:
    raw = json.dumps(obj, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _jwt(claims: dict[str, object]) -> str:
    return f"{_b64url({'alg': 'HS256', 'typ': 'JWT'})}.{_b64url(claims)}.Qm9ndXNTaWduYXR1cmUx"


SECRETS = [
    # a password's label in any language, words, a remark, a colon or a verb between it
    # and a plainly made-up value
    ("Ο κωδικός του eBanking της γιαγιάς είναι Lemoni!Patra42, γράψ' τον", "Lemoni!Patra42"),
    ("nenosiri la wifi ofisini ni maembe_na_chai_3, mtandao ni Tigo-Office", "maembe_na_chai_3"),
    ("nenosiri la akaunti ya benki: Twiga#Arusha55", "Twiga#Arusha55"),
    ("Ọ̀rọ̀ aṣínà Yahoo ti ọ́fíìsì ni Ibadan_Amala77", "Ibadan_Amala77"),
    ("የባንክ የይለፍ ቃሌ Kolo#Gonder2015 ነው", "Kolo#Gonder2015"),
    ("رمز عبور جیمیل شخصی\u200cام: Golab#Shiraz1399", "Golab#Shiraz1399"),
    ("รหัสผ่านเฟซบุ๊กส่วนตัว: Durian_Hot77 จำไว้นะ", "Durian_Hot77"),
    ("הסיסמה למחשב של העבודה: Falafel!Haifa88", "Falafel!Haifa88"),
    ("আমার জিমেইলের পাসওয়ার্ড: Rui_Machh_Bhaja7", "Rui_Machh_Bhaja7"),
    ("كلمة المرور الخاصة بحسابي البنكي: Tamr#Riyadh2020", "Tamr#Riyadh2020"),
    ("a senha do wifi lá do escritório (Vivo) é Coxinha_Frita_2020", "Coxinha_Frita_2020"),
    ("카카오 비밀번호 바꿨어: Bulgogi!Pizza55 잊지마", "Bulgogi!Pizza55"),
    ("kata sandi BNI mobile punyaku: Sate#Madura99", "Sate#Madura99"),
    ("ok my dropbox pass is now maple-River-27 after the lockout", "maple-River-27"),
    # PINs and one-time codes in their label's clause
    ("รหัส ATM ของผมคือ 583920 ห้ามบอกใคร", "583920"),
    ("নগদ পিন ৭৩৯২, কাউকে দিও না", "৭৩৯২"),
    ("የሲቢኢ ፒን ቁጥሬ 8824 ነው", "8824"),
    ("PIN yangu ya benki ni 7720, usimwambie mtu", "7720"),
    ("رمز اول کارت بانکم 4471 است", "4471"),
    ("הקוד לשער של החניה הוא 5521 ואז סולמית", "5521"),
    ("사무실 도어락 비번 3 8 2 9 # 이야", "3 8 2 9"),
    ("kod BLIK do sklepu, podaję: 731 204", "731 204"),
    ("the courier wants the code from the sms, it's 4410, is that ok?", "4410"),
    ("the app wants the code we sent by sms: 5 1 9 2. not working", "5 1 9 2"),
    ("您的验证码为482913，10分钟内有效", "482913"),
    ("【LINE】認証番号：7713 他人に教えないで", "7713"),
    ("kode OTP Grab 7713 — drivernya minta kode itu", "7713"),
    ("G-771204 is your Acme verification code.", "771204"),
    ("the Ring alarm disarm code is 3317, tell the cleaner", "3317"),
    ("the garage entry at dad's place is *8812# and the unit is 4B", "*8812#"),
    # identity numbers by their check digits: Saudi Arabia, Greece's AMKA, Israel
    ("رقم الهوية حقي 1098765439 للتسجيل", "1098765439"),
    ("ο ΑΜΚΑ του παιδιού είναι 29058512343, για τον γιατρό", "29058512343"),
    ("מספר תעודת זהות של אבא: 314526781", "314526781"),
    # seed phrases of other BIP-39 lists after their label
    (
        "钱包助记词先存这里：梨 云 狗 笑 海 钟 黑 刀 门 鸟 树 风",
        "梨 云 狗 笑 海 钟 黑 刀 门 鸟 树 风",
    ),
    (
        "frase de recuperación de la cuenta: perro luna cinco árbol nube sopa tigre verde "
        "hoja piano lápiz mango",
        "perro luna cinco árbol nube sopa tigre verde hoja piano lápiz mango",
    ),
    (
        "リカバリーフレーズ（メモ）：あおい\u3000いるか\u3000うみべ\u3000えがお\u3000おんせん\u3000かぜ"
        "\u3000きのこ\u3000くつ\u3000けむり\u3000こたつ\u3000さくら\u3000しんじゅ",
        "あおい\u3000いるか",
    ),
    # a list of backup codes runs through a code of capitals with no digit, and after a
    # remark that ends a sentence when three codes or more follow
    (
        "recovery codes for my game account, keep them:\nAB3D-QWER\nZZXC-P9OK\nMN7B-4RTY\n"
        "POIU-ZXCV",
        "POIU-ZXCV",
    ),
    (
        "Backup codes for kim@example.org Store these backup codes somewhere you can find "
        "them. 1. 1234 5678 2. 2345 6789 3. 3456 7890 4. 4567 8901",
        "4567 8901",
    ),
    # Mapbox's secret token ("pk." is its public one)
    (
        "mapbox style upload token: sk.eyJ1IjoiYWJjZGVmIiwiYSI6ImNsMnh5ejEyMzQ1Njc4OTAifQ"
        ".Xy9aBcDeFgHiJkLmNoPq12",
        "sk.eyJ1IjoiYWJjZGVmIiwiYSI6ImNsMnh5ejEyMzQ1Njc4OTAifQ.Xy9aBcDeFgHiJkLmNoPq12",
    ),
]


LOOKALIKES = [
    # a password's label with words that are no value
    "the password reset for user j.doe84 went through yesterday",
    "my boarding pass is for flight LH2041-Munich tomorrow",
    "my gym pass is Gold-2024x",
    "nenosiri la wifi liko kwenye router ya Huawei-B535",
    "Kann man das Passwort für den Steuer-Zugang zurücksetzen, wenn es weg ist?",
    "the password manager we use is 1Password-v8.2 on all machines",
    # codes of no kind a secret is
    "dial *1234# to check your prepaid balance",
    "the verification code expires after 10 minutes",
    "otp valid for 5 minutes, 2 attempts",
    "ο αριθμός παραγγελίας είναι 29058512343",
    "رقم الطلب 1098765438 للتسجيل",
    # the BIP-39 list quoted in its order, prose after a seed's label
    "page 49 of the word list reads lobster local lock logic lonely long loop lottery loud "
    "lounge love loyal, in that order",
    "my seed phrase is written on paper in the safe and I never type it into any site at all",
    # public by what the value holds or where it stands
    "why does ssh say invalid format? the file begins with -----BEGIN RSA PRIVATE KEY----- "
    "and I copied it from windows",
    'prefs = "eyJmb250IjoibW9ubyIsInNpemUiOjE0LCJ0aGVtZSI6ImxpZ2h0In0=" in localStorage',
    "in stripe test mode 4111 1111 1111 1111 with any CVC still fails",
    "compose: DB_PASSWORD_FILE: /run/secrets/app_db_password",
    "map token pk.eyJ1IjoiYWJjZGVmIiwiYSI6ImNsMnh5ejEyMzQ1Njc4OTAifQ.Xy9aBcDeFgHiJkLmNoPq12 "
    "is fine in the client",
    f"the anon key in the app config: {_jwt({'iss': 'acme', 'role': 'anon', 'iat': 1700000000})}",
    f"the spec's sample token {_jwt({'iss': 'joe', 'url': 'http://example.com/x'})} decodes fine",
    '{"keys":[{"kty":"RSA","kid":"k1","e":"AQAB","n":"q8Zr1mN3vB7xT2pLw9KfH4sD6jY0uE5c'
    'A1oR8gV3bXnQ7zM2tW5yP9kL4hJ6dF0sG"}]} is what our jwks endpoint returns',
    "clusters:\n- cluster:\n    certificate-authority-data: "
    "TUlJQ3lEQ0NBYkNnQXdJQkFnSUJBREFOQmdrcWhraUc5dzBCQVFzRkFEQVZNUk13RVFZRFZRUURFd3ByZFdK\n"
    "    server: https://k8s.internal.example:6443",
    # a business's numbers, and a bank number published for donations
    "NPWP perusahaan kami: 01.234.567.8-901.000 untuk faktur",
    "our choir's donation page shows IBAN GB33 BUKB 2020 1555 5555 55 for gifts",
]


(
    test_each_class_is_found_and_masked,
    test_each_look_alike_is_kept,
    test_the_gate_refuses_each_as_a_secret,
    test_memory_keeps_no_secret_and_refuses_no_look_alike_as_one,
) = round_tests(SECRETS, LOOKALIKES, scope="arttu", db="round6.db")
