"""Issue 24's eighth round: the classes of secret (and of look-alike) it fixed, each on
sentences of our own with invented values, through the detector and through the real
gate and `Memory.remember`."""

from __future__ import annotations

import base64

from secret_rounds import round_tests


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


SECRETS = [
    # an Authorization header with a scheme of a service's own
    (
        "curl -H 'Authorization: Zoho-oauthtoken 1000.a7f3c9e21b4d8f60.93ce71d2a4b8' https://x.io",
        "1000.a7f3c9e21b4d8f60.93ce71d2a4b8",
    ),
    (
        "Authorization: GenieKey 7b1e0c4a-93d2-4f6e-a8b5-2c7d9e0f1a36\nwhy does it say 422?",
        "7b1e0c4a-93d2-4f6e-a8b5-2c7d9e0f1a36",
    ),
    # vendors' formats: Postman's API key, 1Password's Secret Key
    (
        "the collection runs with PMAK-5f0c9e2a7b3d41e8c6a90f12-7d4e1b9c0a3f58e2d6b7c1a09e4f3d2b8c"
        " but 401 since monday",
        "PMAK-5f0c9e2a7b3d41e8c6a90f12-7d4e1b9c0a3f58e2d6b7c1a09e4f3d2b8c",
    ),
    (
        "kit says A3-K7QW2P-R9T4MX-8JD2F-H6L3N-V5BZ1-C4G8Y under Secret Key, is that all?",
        "A3-K7QW2P-R9T4MX-8JD2F-H6L3N-V5BZ1-C4G8Y",
    ),
    # a short value of a setting or a header named for a secret
    ("X-Acme-Client-Secret: tUvQbrKmZp\nX-Acme-Client-Id: 4471", "tUvQbrKmZp"),
    ("APP_SECRET=hJqWexRtLmPd", "hJqWexRtLmPd"),
    # "is" of Chinese, Japanese and Korean between a token's label and its value
    (
        "client secret 是 3e9b0c7d1f2a48e6b5c09d1e7f3a2b64，为什么报错？",
        "3e9b0c7d1f2a48e6b5c09d1e7f3a2b64",
    ),
    # Hebrew: "my password is ..."
    ("הסיסמה שלי היא gilad1994 אבל אני תמיד שוכח", "gilad1994"),
    # a password's clause that goes on after "but"
    (
        "Das Passwort fürs Portal weiß ich nicht mehr, aber fürs Mailkonto — Birke2019Wald",
        "Birke2019Wald",
    ),
    # a password said first, then "and ..."
    ("Lakeside2031 is my spotify password but it stopped working", "Lakeside2031"),
    # transaction numbers by how they come, Turkish codes with a possessive ending
    ("Die pushTAN lautet 739146, soll ich sie eingeben?", "739146"),
    ("Onay kodunuz: 582730 diye mesaj geldi, paylaşayım mı?", "582730"),
    # a card said with its check digits that passes Luhn outside the listed ranges
    ("карта 2207 3141 5926 5356, CVC 318, оплатишь?", "2207 3141 5926 5356"),
    # security answers said, always given, or entered
    (
        "for the security question about my first car I always answer Silver Comet",
        "Silver Comet",
    ),
    (
        "the bank asked my secret answer and I said Marlow-Quincey (grandma's name)",
        "Marlow-Quincey",
    ),
    (
        "Sicherheitsfrage nach dem ersten Haustier – ich habe Flocke am Teich eingetragen",
        "Flocke am Teich",
    ),
    # a quoted answer is the answer as it was typed, whatever its case
    (
        "for the security question about my first school the answer I set was 'elm hollow'",
        "elm hollow",
    ),
    # seed phrases: before a particle set off by a blank, or on the line after the label
    (
        "복구 구문 사과 바다 하늘 구름 나무 거울 연필 의자 창문 달빛 호수 별빛 을 적어 뒀어요",
        "사과 바다 하늘 구름 나무 거울 연필 의자 창문 달빛 호수 별빛",
    ),
    (
        "復元フレーズが通りません。どこが違いますか？\n"
        "さくら\u3000やま\u3000かわ\u3000そら\u3000うみ\u3000もり\u3000はな\u3000つき"
        "\u3000ほし\u3000くも\u3000かぜ\u3000あめ",
        "さくら\u3000やま\u3000かわ\u3000そら\u3000うみ\u3000もり\u3000はな\u3000つき"
        "\u3000ほし\u3000くも\u3000かぜ\u3000あめ",
    ),
    # a recovery code after a few words and its verb
    ("the only backup code I still have is 7f3a2-c91de, is it single use?", "7f3a2-c91de"),
    # a passphrase of words after its label and a dash or a colon
    ("Парольная фраза от диска — Сова над рекой 1977, не забудь", "Сова над рекой 1977"),
    ("passphrase for the backup disk: seven blue owls 1984", "seven blue owls 1984"),
    # a quoted phrase typed to log in, in a text about a password
    (
        "my work login is literally 'seven lanterns at dusk', can a password have spaces?",
        "seven lanterns at dusk",
    ),
    # a Japanese label, a phrase, a colon, a made-up value
    ("Wi-Fiのパスワードを忘れたのでメモ：Kaede#2031mori", "Kaede#2031mori"),
    # code and configuration files
    ("~/.pgpass has\ndb01.lan:5432:ledger:ops:Cobalt!Fern42\nbut psql still asks", "Cobalt!Fern42"),
    (
        'c = DriverManager.getConnection("jdbc:mysql://db:3306/shop", "shop_app", "Quartz_Hill73");',
        "Quartz_Hill73",
    ),
    ('server.login("alerts@example.org", "Tern!Rocks58")', "Tern!Rocks58"),
    ("r = requests.get(url, auth=('svc', 'Maple#Orbit61'))", "Maple#Orbit61"),
    (
        'cipher = Fernet(b"q8Zr2LwT4vNc7YpK1sHd9GfB3mXa6JuE0tQiR5oWlVk=")',
        "q8Zr2LwT4vNc7YpK1sHd9GfB3mXa6JuE0tQiR5oWlVk=",
    ),
    (
        "networks: { sepolia: { accounts: "
        '["0x9c4e1f7a2b8d3c6e0f5a9b1d7c3e8f2a4b6d0c9e1f3a5b7d9c2e4f6a8b0d1c3e"] } }',
        "0x9c4e1f7a2b8d3c6e0f5a9b1d7c3e8f2a4b6d0c9e1f3a5b7d9c2e4f6a8b0d1c3e",
    ),
    (
        "my storage/app.key contains 4f9a1c7e2b8d3a6f0e5c9b1d7a3f8e2c, should it be the APP_KEY?",
        "4f9a1c7e2b8d3a6f0e5c9b1d7a3f8e2c",
    ),
    # a default an organisation gives is no product's default
    ("the default password for new hires is Welcome2031! so change it", "Welcome2031!"),
    # an IBAN the speaker is paid into is still theirs, invoice or not
    (
        "Überweis mir bitte das Geld für die Rechnung auf DE35 3704 0044 0532 0130 99, danke",
        "DE35 3704 0044 0532 0130 99",
    ),
    (
        "my IBAN for the invoice refund is DE35 3704 0044 0532 0130 99",
        "DE35 3704 0044 0532 0130 99",
    ),
]


LOOKALIKES = [
    # an invoice's IBAN, printed for whoever pays it (Spanish, Dutch, Ukrainian with its
    # number sign, Polish of digits alone after "konto", Italian)
    "Factura 118/2025: por favor transfiera 240,00 € a ES28 2100 0418 4502 0005 1399 a nombre "
    "de Talleres Ruiz. ¿Me ayudas con un recordatorio?",
    "Factuur 2025-12 van Drukkerij Smit: graag overmaken naar NL03 RABO 0312 4567 89.",
    "Рахунок № 77 на 3 200 грн, IBAN UA11 3052 9900 0026 0072 3356 6001, напиши нагадування",
    "Faktura 12/2025 — przelew na konto PL64 1020 5561 0000 2724 0020 0000 01, dziękuję",
    "Fattura 9/2025, bonifico su IT60 X054 2811 1010 0000 0123 456 entro fine mese",
    # a part of an ARN: a role's or a key's name
    "AssumeRole fails for arn:aws:iam::123456789012:role/deploy-staging, which trust policy?",
    "Decrypt fails with arn:aws:kms:us-east-1:123456789012:key/1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d",
    # a request's and a host's id in an error response, and an object's key
    "<Error><Code>AccessDenied</Code><Key>exports/2025/01/report-final.csv</Key>"
    "<RequestId>4F2A9B7C1D3E5A60</RequestId>"
    "<HostId>Zq3Lw8Tn1Yv5Kp9Rc2Xm7Hd4Gb6Fs0Jt3Ue8Wi1Oa5Pl9Qk2Ns7Mr4Ex6Cz0By3Dv</HostId></Error>",
    # a secret manager's reference as a setting's value
    "the chart sets password: ref+vault://kv/data/app#db_password and nothing renders",
    "password: op://Private/Postgres/password is what the template reads",
    # one word as user and password, or what a product ships with said to be its default
    "the printer's web page default login is admin / admin per the manual",
    "the camera's factory login is admin / password, where do I change it?",
    "le mot de passe par défaut du routeur est admin",
    # a secret file's path as the value
    "in compose the password: file:/run/secrets/db_password line is ignored",
    # a question quoted, not an answer
    "is 'first pet's name' still a good security question, or too easy?",
    # "I said" and then no name
    "for the security question I said I'd pick one later",
    # a Hebrew word after the label says what the password is like; a rule for a
    # passphrase; a link's words quoted after "login is"
    "הסיסמה שלי היא חזקה מאוד לדעתי",
    "the passphrase — 4 words minimum, or is it 5?",
    "the login is 'Forgot password?' and then a code by mail",
    # a request's id in JSON
    '{"requestId": "Zq3Lw8Tn1Yv5Kp9Rc2Xm7Hd4Gb6Fs0Jt3Ue8Wi1Oa5Pl9Qk2Ns7Mr4"}',
    # documentation's basic credentials
    f"the docs show Authorization: Basic {_b64('user:password')} as the example header",
]


(
    test_each_class_is_found_and_masked,
    test_each_look_alike_is_kept,
    test_the_gate_refuses_each_as_a_secret,
    test_memory_keeps_no_secret_and_refuses_no_look_alike_as_one,
) = round_tests(SECRETS, LOOKALIKES, scope="oona", db="round8.db", by_lines=True)
