"""Issue 24's seventh round: the classes of secret (and of look-alike) it fixed, each on
sentences of our own with invented values, through the detector and through the real
gate and `Memory.remember`."""

from __future__ import annotations

import base64

from secret_rounds import round_tests


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


SECRETS = [
    # a code's verb in the languages with no password table ("είναι", "ay", "este")
    ("ο κωδικός pin της πιστωτικής μου είναι 5093, μην τον ξεχάσεις", "5093"),
    ("ang MPIN ng wallet ko ay 3318, huwag mong sabihin", "3318"),
    ("codul de la ușă este 6402 pentru vecini", "6402"),
    # Romanian and Hungarian passwords, and their door codes
    ("parola mea de la bancă este Carpati#Lac77", "Carpati#Lac77"),
    ("a netbank jelszavam Tisza!Part2031 szerinted jó?", "Tisza!Part2031"),
    ("az ajtókód 7#3#9#1 ha megérkezel", "7#3#9#1"),
    # an intercom's key button in any script before its digits
    ("код от домофона Б7315, второй подъезд", "Б7315"),
    # an Arabic label with a Latin value after words of what it is for
    ("كلمة سر شبكة المكتب الجديدة nour-sahil-29 لا تنشرها", "nour-sahil-29"),
    # a seed phrase after its label and colon, a question in the same line after it
    (
        "frase semilla: lobo nube piedra rama carta vela sello pino tigre barco lima "
        "cuerda ¿cómo la importo en otro móvil?",
        "lobo nube piedra rama carta vela sello pino tigre barco lima cuerda",
    ),
    # a security answer after "— I put"
    ("the security question 'first street you lived on' — I put Maple Row", "Maple Row"),
    # settings: a pre-shared key, a keystore's password, Gradle's `name 'value'`
    ('network={\n  ssid="Barn"\n  psk="tractor9Mud!plank"\n}', "tractor9Mud!plank"),
    ("android {\n  storePassword 'Gr4dle#Vault'\n}", "Gr4dle#Vault"),
    # hex of a key straight after a label saying whose key it is
    (
        "the search admin key 9f2c1e77ab034d5e8c61f0a2b4d9e311 got rotated",
        "9f2c1e77ab034d5e8c61f0a2b4d9e311",
    ),
    # "what's a cvc for? mine is 804"
    ("what's a cvc even checking? mine is 804 on the back", "804"),
    # a password option of the tool it belongs to, or a value written into a secret's file
    ("sshpass -p 'Quarry!88x' ssh ops@backup.lan", "Quarry!88x"),
    ("ldapwhoami -x -D cn=reader,dc=lab -w 'Owl#Reads42'", "Owl#Reads42"),
    ("echo 'gravel-MOON-5521' > ~/.ansible_vault_pass", "gravel-MOON-5521"),
    # a JSON Web Key's private member
    (
        '{"kty":"OKP","crv":"Ed25519","x":"bm90LWEtcmVhbC1wdWJsaWMta2V5LXZhbHVl",'
        '"d":"c2VjcmV0LXNjYWxhci1mb3ItdGhlLXRlc3Rz"}',
        "c2VjcmV0LXNjYWxhci1mb3ItdGhlLXRlc3Rz",
    ),
    # a login-shaped user, a slash between blanks, a made-up password
    ("rdp into the box as LAB\\svc_print / Toner#Wed!77 please", "Toner#Wed!77"),
    ("the library login is m.haddad / Quill&Ink_204", "Quill&Ink_204"),
    # a code texted by a bank
    ("my bank texted me 550913 to approve a payment I never made", "550913"),
    ("j'ai eu le code 418 207 par sms, je le donne ?", "418 207"),
    # asked about as a password, or given in the sentence after its label
    ("is Lantern$Fig2020 strong enough for my email?", "Lantern$Fig2020"),
    (
        "the vpn asks for my key passphrase daily. it's Reed&Heron&Moss, can it remember?",
        "Reed&Heron&Moss",
    ),
    # an app password as Apple and Google print it
    ("Google made me an app password for the printer: wxhe-plmq-trad-vbon", "wxhe-plmq-trad-vbon"),
    # a dial lock's combination with its turns
    ("the gym safe combination is L 18 - R 5 - L 40", "L 18 - R 5 - L 40"),
    # a pre-shared key's label, words between, a colon
    ("the site-to-site pre-shared key we settled on: Pine!Gulf-73-anchor", "Pine!Gulf-73-anchor"),
]


LOOKALIKES = [
    # base64 of a sentence
    f"can you decode this for me? {_b64('Remember to water the tomatoes before Friday, love Aunt Mia.')}",
    # a CAPTCHA's site key, public by design
    "the hCaptcha site key 10000000-ffff-ffff-ffff-000000000001Zx9QmL is in the page source",
    # a format of one character repeated
    "the serial format is YYYYY-YYYYY-YYYYY-YYYYY, where do I type it?",
    # a package's version near "pin"
    "should I pin numpy to 1.26.4+mkl or leave it floating?",
    # a tax PIN of letters and nine digits is an identifier
    "the company KRA PIN is A123456789Z on the invoice",
    # talk about a seed phrase, with no phrase
    "frase semilla: nunca la compartas con nadie, ni con soporte técnico",
    # a texted tracking number
    "the courier texted me tracking 555123 for the parcel",
    # a version after "it's" near a password word
    "the password manager updated overnight; it's 8.14.2 now",
    # a path with a slash between blanks
    "copy src/main.py / tests/test_main.py into the new repo",
]


(
    test_each_class_is_found_and_masked,
    test_each_look_alike_is_kept,
    test_the_gate_refuses_each_as_a_secret,
    test_memory_keeps_no_secret_and_refuses_no_look_alike_as_one,
) = round_tests(SECRETS, LOOKALIKES, scope="arttu", db="round7.db")
