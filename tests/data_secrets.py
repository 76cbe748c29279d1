"""Fixtures for the secret detector: secrets that must be refused, facts that must not be.

Every credential is synthetic and assembled at import time, so that no credential-shaped
literal sits in the source for secret scanners to trip on. IBANs get real ISO 13616
check digits (computed here, not copied), SSNs are valid-format numbers outside the
ranges the SSA never issues, card numbers pass Luhn.
"""

from __future__ import annotations

import base64
import json
import random
import string

ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"


def random_token(n: int, seed: int, alphabet: str = ALNUM) -> str:
    return "".join(random.Random(seed).choices(alphabet, k=n))


def b64url(obj: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


def iban(country: str, bban: str, *, grouped: bool = False) -> str:
    """An IBAN with correct check digits for `bban` (ISO 7064 mod 97-10)."""
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(numeric) % 97
    compact = f"{country}{check:02d}{bban}"
    if not grouped:
        return compact
    return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))


def with_wrong_check_digits(value: str) -> str:
    """The same IBAN with its check digits changed, so the checksum fails."""
    compact = value.replace(" ", "")
    check = (int(compact[2:4]) + 1 - 2) % 97 + 2
    return compact[:2] + f"{check:02d}" + compact[4:]


def hex_token(n: int, seed: int) -> str:
    return random_token(n, seed, "0123456789abcdef")


# --- synthetic credentials -----------------------------------------------------------

OPENAI = "sk-proj-" + random_token(48, 101)
OPENAI_SVC = "sk-svcacct-" + random_token(40, 102)
ANTHROPIC = "sk-ant-api03-" + random_token(80, 103, ALNUM + "_-")
AWS_ID = "AKIA" + random_token(16, 104, string.ascii_uppercase + string.digits)
AWS_SECRET = random_token(40, 105, B64)
GITHUB = "ghp_" + random_token(36, 106)
GITHUB_PAT = "github_pat_" + random_token(22, 107) + "_" + random_token(59, 108)
GITLAB = "glpat-" + random_token(20, 109)
GITLAB_DEPLOY = "gldt-" + random_token(20, 110)
SLACK_BOT = "xoxb-" + "2048817363-4096123456789-" + random_token(24, 111)
SLACK_USER = "xoxp-" + "2048817363-2048817364-4096123456789-" + hex_token(32, 112)
SLACK_APP = (
    "xapp-1-" + "A0" + random_token(9, 113, string.ascii_uppercase) + "-" + hex_token(64, 114)
)
STRIPE = "sk_" + "live_" + random_token(24, 115)
STRIPE_WEBHOOK = "whsec_" + random_token(32, 116)
GOOGLE = "AIza" + random_token(35, 117, ALNUM + "_-")
GOOGLE_CLIENT_SECRET = "GOCSPX-" + random_token(28, 118, ALNUM + "_-")
HUGGINGFACE = "hf_" + random_token(34, 119)
TELEGRAM = "6123456789:AA" + random_token(33, 120, ALNUM + "_-")
JWT = (
    b64url({"alg": "HS256", "typ": "JWT"})
    + "."
    + b64url({"sub": "u_8812", "name": "Arttu", "iat": 1716000000})
    + "."
    + random_token(43, 121, ALNUM + "_-")
)
BEARER = random_token(40, 122, ALNUM + "._-")
GENERIC = random_token(32, 123)
AZURE_ACCOUNT_KEY = random_token(86, 124, B64) + "=="
AZURE_BUS_KEY = random_token(43, 125, B64) + "="
AZURE_SIG = random_token(40, 126, ALNUM) + "%2B" + random_token(8, 127) + "%3D"
GCP_KEY_ID = hex_token(40, 128)
PKCS8_BODY = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + random_token(120, 129, B64)
RSA_KEY = (
    "-----BEGIN "
    + "RSA PRIVATE KEY-----\n"
    + "\n".join(random_token(64, 130 + i, B64) for i in range(4))
    + "\n-----END RSA PRIVATE KEY-----"
)
OPENSSH_KEY = (
    "-----BEGIN "
    + "OPENSSH PRIVATE KEY-----\n"
    + "b3BlbnNzaC1rZXktdjEAAAAA"
    + random_token(60, 135, B64)
    + "\n-----END OPENSSH PRIVATE KEY-----"
)
EC_KEY = (
    "-----BEGIN "
    + "EC PRIVATE KEY-----\n"
    + random_token(64, 136, B64)
    + "\n-----END EC PRIVATE KEY-----"
)
GCP_PRIVATE_KEY = (
    "-----BEGIN " + "PRIVATE KEY-----\\n" + PKCS8_BODY + "\\n-----END PRIVATE KEY-----\\n"
)

IBAN_DE = iban("DE", "370400440532013000", grouped=True)
IBAN_DE_COMPACT = iban("DE", "500105175407324931")
IBAN_FI = iban("FI", "21234560000785", grouped=True)
IBAN_GB = iban("GB", "WEST12345698765432")
IBAN_FR = iban("FR", "30006000011234567890189", grouped=True)
IBAN_NL = iban("NL", "ABNA0417164300")
IBAN_ES = iban("ES", "21000418450200051332", grouped=True)
IBAN_IT = iban("IT", "X0542811101000000123456")
IBAN_SE = iban("SE", "50000000058398257466", grouped=True)
IBAN_CH = iban("CH", "00762011623852957")
IBAN_NO = iban("NO", "86011117947")

# (kind of the finding that covers the secret, text, the secret value)
SECRETS: list[tuple[str, str, str]] = [
    # IBANs, with and without spaces
    ("iban", f"My IBAN is {IBAN_DE}", IBAN_DE),
    ("iban", f"Pay the rent to {IBAN_DE_COMPACT} by the 3rd", IBAN_DE_COMPACT),
    ("iban", f"Arttu's salary account: {IBAN_FI}.", IBAN_FI),
    ("iban", f"the UK account is {IBAN_GB}", IBAN_GB),
    ("iban", f"Mon IBAN est {IBAN_FR}", IBAN_FR),
    ("iban", f"rekening {IBAN_NL} staat op naam van Arttu", IBAN_NL),
    ("iban", f"Transferencia a {IBAN_ES}", IBAN_ES),
    ("iban", f"IBAN:{IBAN_IT}", IBAN_IT),
    ("iban", f"Mitt kontonummer är {IBAN_SE}", IBAN_SE),
    ("iban", f"Swiss account {IBAN_CH} at the Zurich branch", IBAN_CH),
    ("iban", f"Norwegian IBAN {IBAN_NO}", IBAN_NO),
    # US social security numbers
    ("us_ssn", "My SSN is 536-22-8147", "536-22-8147"),
    ("us_ssn", "Arttu's social security number is 412-73-5590.", "412-73-5590"),
    ("us_ssn", "SSN: 301 48 2267", "301 48 2267"),
    ("us_ssn", "ssn 287654321 on the W-2", "287654321"),
    ("us_ssn", "the form lists 649-03-1183 as her number", "649-03-1183"),
    # passports
    ("passport_number", "My passport number is X4829173", "X4829173"),
    ("passport_number", "US passport 583920174 expires in 2031", "583920174"),
    ("passport_number", "Reisepassnummer: C01X00T47", "C01X00T47"),
    ("passport_number", "Numéro de passeport : 18AB34567", "18AB34567"),
    ("passport_number", "Meu passaporte é AB1234567", "AB1234567"),
    ("passport_number", "Mi pasaporte es PAA123456", "PAA123456"),
    ("passport_number", "Passin numero on XP1234567", "XP1234567"),
    ("passport_number", "YA7712093 is my passport", "YA7712093"),
    # passwords, in the languages the gate reads
    ("password", "My password is Tr0ub4dor&3", "Tr0ub4dor&3"),
    ("password", "password: X9kq2mz", "X9kq2mz"),
    ("password", "pw=abc123", "abc123"),
    ("password", "the wifi password is correcthorsebattery", "correcthorsebattery"),
    ("password", "The Netflix passphrase is 'blue harbour lamp'", "blue harbour lamp"),
    ("password", "Mein Passwort ist Geheim2024", "Geheim2024"),
    ("password", "Das WLAN-Passwort lautet Sonnenblume77", "Sonnenblume77"),
    ("password", "Kennwort: Haus!Maus9", "Haus!Maus9"),
    ("password", "Mon mot de passe est Soleil#2023", "Soleil#2023"),
    ("password", "le mot de passe du wifi est bonjour1234", "bonjour1234"),
    ("password", "Mi contraseña es Gato_Negro88", "Gato_Negro88"),
    ("password", "la clave del wifi es casa2024", "casa2024"),
    ("password", "Salasanani on Kissa123!", "Kissa123!"),
    ("password", "wifin salasana on mustikka2020", "mustikka2020"),
    ("password", "Mitt lösenord är Sommar2024!", "Sommar2024!"),
    ("password", "La mia password è Pizza4ever", "Pizza4ever"),
    ("password", "A minha senha é Saudade#10", "Saudade#10"),
    ("password", "Mijn wachtwoord is Fiets2024", "Fiets2024"),
    ("password", "het wachtwoord van de router is Tulp!88", "Tulp!88"),
    ("password", "Passordet mitt er Fjord2023", "Fjord2023"),
    ("password", "Moje hasło to Zubr2024!", "Zubr2024!"),
    ("password", "Geheim2024 ist mein Passwort.", "Geheim2024"),
    ("password", "the alarm PIN is 4827", "4827"),
    # connection strings and cloud account keys
    (
        "connection_string",
        "the prod DB is postgres://app_user:Hx9!kq2LmZ@db.internal:5432/app",
        "Hx9!kq2LmZ",
    ),
    (
        "connection_string",
        "mongodb+srv://admin:Qm7pLw2x@cluster0.ab1cd.mongodb.net/prod",
        "Qm7pLw2x",
    ),
    (
        "password",
        "Server=tcp:credo.database.windows.net,1433;Initial Catalog=prod;"
        "User ID=admin;Password=P@ssw0rd!2024;",
        "P@ssw0rd!2024",
    ),
    (
        "password",
        "jdbc:postgresql://db:5432/app?user=app&password=Zq8!rT2w&sslmode=require",
        "Zq8!rT2w",
    ),
    (
        "azure_key",
        "DefaultEndpointsProtocol=https;AccountName=credoprod;"
        f"AccountKey={AZURE_ACCOUNT_KEY};EndpointSuffix=core.windows.net",
        AZURE_ACCOUNT_KEY,
    ),
    (
        "azure_key",
        "Endpoint=sb://credo-bus.servicebus.windows.net/;"
        f"SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={AZURE_BUS_KEY}",
        AZURE_BUS_KEY,
    ),
    (
        "azure_sas",
        "backups at https://credo.blob.core.windows.net/b?sv=2022-11-02&ss=b&srt=o&sp=r"
        f"&se=2025-01-01T00:00:00Z&sig={AZURE_SIG}",
        AZURE_SIG,
    ),
    (
        "private_key",
        '{"type": "service_account", "project_id": "credo-prod", '
        f'"private_key": "{GCP_PRIVATE_KEY}"}}',
        GCP_PRIVATE_KEY.rstrip("\\n"),
    ),
    (
        "gcp_private_key_id",
        f'"private_key_id": "{GCP_KEY_ID}", "client_email": "ci@credo-prod.iam.gserviceaccount.com"',
        GCP_KEY_ID,
    ),
    ("private_key", f'"private_key": "{PKCS8_BODY}"', PKCS8_BODY),
    # provider tokens
    ("openai_api_key", f"Arttu's OpenAI key is {OPENAI}", OPENAI),
    ("openai_api_key", f"OPENAI_API_KEY={OPENAI_SVC}", OPENAI_SVC),
    ("anthropic_api_key", f"use {ANTHROPIC} for the Claude calls", ANTHROPIC),
    ("aws_access_key", f"the CI user's access key id is {AWS_ID}", AWS_ID),
    ("aws_secret_key", f"aws_secret_access_key = {AWS_SECRET}", AWS_SECRET),
    ("github_token", f"deploy bot uses {GITHUB} to push tags", GITHUB),
    ("github_token", f"fine-grained PAT: {GITHUB_PAT}", GITHUB_PAT),
    ("gitlab_token", f"GitLab runner token {GITLAB} is in CI", GITLAB),
    ("gitlab_token", f"deploy token {GITLAB_DEPLOY}", GITLAB_DEPLOY),
    ("slack_token", f"the Slack bot token is {SLACK_BOT}", SLACK_BOT),
    ("slack_token", f"SLACK_USER_TOKEN={SLACK_USER}", SLACK_USER),
    ("slack_token", f"socket mode app token {SLACK_APP}", SLACK_APP),
    ("stripe_key", f"Stripe live key {STRIPE} on the billing service", STRIPE),
    ("stripe_key", f"STRIPE_WEBHOOK_SECRET={STRIPE_WEBHOOK}", STRIPE_WEBHOOK),
    ("google_api_key", f"Maps key: {GOOGLE}", GOOGLE),
    ("google_oauth", f"OAuth client secret {GOOGLE_CLIENT_SECRET}", GOOGLE_CLIENT_SECRET),
    ("huggingface_token", f"HF token {HUGGINGFACE}", HUGGINGFACE),
    ("telegram_bot_token", f"the alerts bot token is {TELEGRAM}", TELEGRAM),
    ("jwt", f"session cookie was {JWT} yesterday", JWT),
    ("bearer_token", f"call it with Authorization: Bearer {BEARER}", BEARER),
    ("generic_api_key", f"the Mistral api key is {GENERIC}", GENERIC),
    ("generic_api_key", f"Der API-Schlüssel ist {GENERIC}", GENERIC),
    ("private_key", f"Arttu's deploy key:\n{RSA_KEY}\nkeep it safe", RSA_KEY),
    ("private_key", f"ssh key for the jump host: {OPENSSH_KEY}", OPENSSH_KEY),
    ("private_key", EC_KEY, EC_KEY),
    ("payment_card", "Arttu's card is 4111 1111 1111 1111, exp 12/29", "4111 1111 1111 1111"),
]

# Ordinary facts: numbers, dates, versions, ids, amounts, places, talk about passwords
# and passports that states none. Every one must stay storable.
ORDINARY_FACTS: list[str] = [
    "I use Python 3.12.1",
    "Our order id is ORD-2024-000123",
    "The build number is 20240514.3",
    "I was born on 1990-03-14",
    "My flight is AY1432",
    "Postgres 16 listens on port 5432",
    "The invoice total was 1,234.56 EUR",
    "We have 42 microservices",
    "the fix landed in commit 4f2a9c1",
    "fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "ticket 3f1c9b2e-8a4d-4c6e-9f1a-2b3c4d5e6f70 tracks the outage",
    "Support case 550e8400-e29b-41d4-a716-446655440000 was closed",
    "The book's ISBN is 978-3-16-148410-0",
    "ISBN 9780262033848 is the algorithms textbook",
    "ISBN-10 0262033844",
    "The office is at 60.1699 N, 24.9384 E",
    "The cabin coordinates are 61.4981, 23.7610",
    "Standup is at 09:30 every weekday",
    "The train leaves at 17:45",
    "My ZIP code is 94103",
    "The Berlin office ZIP is 10115",
    "the mailing ZIP+4 is 90210-1234",
    "I'm not sure about the password policy",
    "The password policy requires 12 characters",
    "my password manager is 1Password",
    "1Password is my password manager",
    "the password is in 1Password",
    "the password is stored in Vault",
    "the password is 12 characters long",
    "passwords are rotated every 90 days",
    "forgot password? use the reset link",
    "password: <your password>",
    "password=${DB_PASSWORD}",
    "the API key is in the team vault",
    "token: YOUR_API_KEY_HERE",
    "the boarding pass is ready",
    "the key to success is patience",
    "Mein Passwort ist zu kurz",
    "Das Passwort ist im Passwortmanager gespeichert",
    "Das Passwort ist 12 Zeichen lang",
    "Le mot de passe est dans Bitwarden",
    "Mon mot de passe est trop faible",
    "La contraseña es demasiado corta",
    "la clave del éxito es la paciencia",
    "la clave es paciencia",
    "Salasana on liian lyhyt",
    "Salasana on tallessa KeePassissa",
    "Lösenordet är för kort",
    "La password è sbagliata",
    "A senha é muito fraca",
    "Het wachtwoord is verlopen",
    "I renewed my passport in March 2024",
    "My passport expires on 2031-05-20",
    "The passport office opens at 08:00",
    "Passport photos must be 35x45 mm",
    "We use Passport.js 0.7.0 for login",
    "My passport is Finnish",
    "Mein Reisepass ist bis 2030 gültig",
    "I need a passport for the flight AY1432",
    "Arttu deploys arttuan.com on Vercel",
    "Arttu lives in Berlin",
    "The deploy target is prod",
    "Postgres 16 on Neon",
    "I was born in 1990",
    "order #4111 arrived",
    "the repo is https://github.com/arttu/credo",
    "see https://docs.example.com:8443/path?q=1#frag",
    "ssh://git@github.com/arttu/credo.git",
    "version 1.2.3 released on 2024-01-15",
    "timestamps 1700000000000 and 20240115123456",
    "4111111111111112 is not a valid card",
    "invoice 1234567890123 was paid",
    "bearer bonds are a thing of the past",
    "the PIN pad is broken",
    "Arttu pinned numpy to 1.26",
    "Node 20.11.0 is the LTS we run",
    "We upgraded Kubernetes to v1.29.4",
    "The Docker image is credo/api:2024.05.14-rc1",
    "The cluster has 3 nodes with 64 GiB each",
    "The API rate limit is 600 requests per minute",
    "My employee number is 48213",
    "The team budget for 2025 is 250,000 EUR",
    "The apartment is 78 m2",
    "I run 10 km every Sunday",
    "My bike is a 2019 Canyon Endurace",
    "Our Jira project key is CRED",
    "The Jira ticket is CRED-1432",
    "PR #2841 added the exporter",
    "The S3 bucket is credo-backups-eu-west-1",
    "The AWS region is eu-north-1",
    "The AWS account alias is credo-prod",
    "The VPC CIDR is 10.20.0.0/16",
    "The server IP is 192.168.1.20",
    "The IPv6 prefix is 2001:db8::/32",
    "The MAC address of the printer is 00:1A:2B:3C:4D:5E",
    "The Wi-Fi network is called Kotiverkko",
    "The Wi-Fi password is on the fridge",
    "The wifi password is written on the router",
    "My license plate is ABC-123",
    "The room is B2.14",
    "The meeting room code name is Aurora",
    "My shoe size is 44",
    "The dog was born on 14.03.2021",
    "The lease ends on 31/08/2026",
    "I paid 89.90 USD for the headphones",
    "Our SLA is 99.95 percent uptime",
    "The latency budget is 250 ms at p99",
    "The SHA-256 of the release is recorded in RELEASES.md",
    "My student number was 0123456",
    "The tracking number is 1Z999AA10123456784",
    "The model is gpt-4o-mini-2024-07-18",
    "I prefer the sk-learn style API",
    "The ticket status is IN-PROGRESS",
    "The project started in Q3 2023",
    "The temperature setpoint is 21.5 C",
    "The Finnish business ID is 1234567-8",
    "The postcode is SW1A 1AA",
    "Our phone extension is 4412",
    "The invoice reference is RF18539007547034",
    "The sprint length is 2 weeks",
    "Terraform state lives in the credo-tfstate bucket",
    "The key vault is named credo-kv-prod",
    "The secret manager is AWS Secrets Manager",
    "The token budget per request is 8192",
    "The session timeout is 30 minutes",
    "The cache TTL is 3600 seconds",
    "Grafana runs on port 3000",
    "The Kafka topic is orders.v2",
    "My favourite number is 7",
    "I bought the house in 2019 for 310,000 EUR",
    "Our customer number with the utility is 200145789",
    "The parcel locker code is on the SMS",
    "The conference badge id is EVT-55-0192",
    "Arttu's GitHub username is arttuan",
    "The GCP project id is credo-prod-4421",
    "The service account is ci@credo-prod.iam.gserviceaccount.com",
    "The Azure storage account is credoprod",
    "AccountName=credoprod is the storage account",
]

# Shapes of saying a secret that issue 24 taught the detector, one or more per class (each
# class general: a setting's name, a change, a code said first or keyed in, a token a few
# words after its label, values in groups, Latin labels in Japanese text...). Written for
# these tests, not taken from the corpus. (text, the secret that must not survive masking)
SHAPES: list[tuple[str, str]] = [
    # settings whose name holds a secret word
    ("PGPASSWORD=Tr0ub4dor psql -h db", "Tr0ub4dor"),
    ("SECRET_KEY_BASE=" + hex_token(40, 201), hex_token(40, 201)),
    ('{"webhookSecret": "' + random_token(20, 202) + '"}', random_token(20, 202)),
    ("JWT_SECRET=" + random_token(16, 203), random_token(16, 203)),
    ("ENCRYPTION_KEY: " + random_token(20, 204), random_token(20, 204)),
    ("otpauth://totp/Acme:anna?secret=JBSWYTDPEHPKYPXP&issuer=Acme", "JBSWYTDPEHPKYPXP"),
    # a token a few words after its label
    ("the api key I got from them yesterday is " + random_token(24, 205), random_token(24, 205)),
    # command lines
    ("curl -u anna:Blueb3rry! https://api.example.org", "Blueb3rry!"),
    # a password changed to a value, in several languages
    ("I changed my password to Kettle42! yesterday", "Kettle42!"),
    ("ich habe mein Passwort auf Fenster77! geändert", "Fenster77!"),
    ("j'ai changé le mot de passe en Lune2023!", "Lune2023!"),
    ("cambié la contraseña a Gato2024$", "Gato2024$"),
    ("поменял пароль на Zima2024!", "Zima2024!"),
    ("vaihdoin salasanaksi Kissa123", "Kissa123"),
    # codes said first, with nothing named, keyed in, after what they open
    ("4821 is the door code", "4821"),
    ("4821 är portkoden", "4821"),
    ("the code is 5519, don't tell the kids", "5519"),
    ("Ihr Code lautet 482913", "482913"),
    ("koodi on 7781", "7781"),
    ("il codice è 5521", "5521"),
    ("o código é 8834", "8834"),
    ("el código para entrar es 1234", "1234"),
    ("the code to get in is 5521", "5521"),
    ("код 4471 от домофона", "4471"),
    ("punch in 4821# at the gate", "4821#"),
    ("para entrar al portal marca 1234", "1234"),
    ("набери 7731 на домофоне", "7731"),
    ("front door: 4821", "4821"),
    ("the safe opens with 7712", "7712"),
    ("the gate is 4821#", "4821#"),
    ("my pin's 2231", "2231"),
    ("the pin for my card is now 2231", "2231"),
    ("my iPhone code is 482193", "482193"),
    ("el código de la bici es 4471", "4471"),
    ("die Kombi fürs Schloss ist 4711", "4711"),
    ("Kartenprüfnummer 123", "123"),
    ("the combo for the bike lock is 4-1-7", "4-1-7"),
    # Wi-Fi keys, code words, short labels
    ("guest wifi key: t7!mNq4pLz", "t7!mNq4pLz"),
    ("Der WLAN-Key ist Hund-Katze-7", "Hund-Katze-7"),
    ("la clé wifi c'est Soleil-88", "Soleil-88"),
    ("code word for the bank is Pelican7", "Pelican7"),
    ("la pass del wifi es Perro22!", "Perro22!"),
    ("user anna@example.org pass Kettle42!", "Kettle42!"),
    ("the password is simply Orange77", "Orange77"),
    # values in groups
    ("app password: abcd efgh ijkl mnop", "abcd efgh ijkl mnop"),
    ("WLAN-Schlüssel: 5521 0088 1123 4490", "5521 0088 1123 4490"),
    ("2FA secret key: jbsw y3dp ehpk 3pxp kq4d", "jbsw y3dp ehpk 3pxp kq4d"),
    # Japanese text, full-width characters
    ("Wi-Fiのパスワード abc12345", "abc12345"),
    ("PINコードは4821です", "4821"),
    ("Wi-FiのPW：abc12345", "abc12345"),
    ("ＰＩＮは１２３４です", "１２３４"),
    ("パスワードは\u3000abc123です", "abc123"),
    # a made-up word in a sentence about logging in
    ("tried Summer2024! on the login page and it says wrong", "Summer2024!"),
    ("mi NIE es X1234567L", "X1234567L"),
]

# Facts the new shapes must leave alone: codes that are postcodes, errors, discounts;
# settings about a secret rather than the secret; change of a password without one.
SHAPE_LOOKALIKES: list[str] = [
    "my zip code is 94110",
    "the area code for Manchester is 0161",
    "error code 0x80070005 on windows update",
    "the error code is 1603",
    "the course code is CS50",
    "the discount code is SPRING25",
    "the postal code of the building is 12345",
    "o código postal de casa é 1100-148 Lisboa",
    "the commit with the api key fix is " + hex_token(40, 206),
    "the router model is RT-AC68U",
    "I changed my password yesterday",
    "I changed my password to a longer one",
    "KEY_PATH=/etc/ssl/private/server.key",
    "API_URL=https://api.example.org/v2",
    "TOKEN_TTL=3600",
    "CLIENT_ID=my-app-prod",
    "SECRET_NAME=prod-db-credentials",
    "TOKEN_URL=https://auth.example.org/token",
    "DEBUG=true",
    "the secret ingredient is cardamom",
    "my wifi is called Telenor-5G-8A3F",
    "the code of conduct is on the wiki",
    "the code review is at 14:00",
    "the code review 2024 is done",
    "the promo code SUMMER24 gives 20% off",
    "el código postal es 28013",
    "code postal 75011",
    "kod pocztowy to 00-950",
    "the country code is +46",
    "postgres 16.4 is the version on the admin page",
    "the code is in the repo",
    "the code is 500 lines long",
    "the HTTP status code is 404",
    "tried version 3.2.1 on the admin page and it failed",
    "our api key rotation runs every 90 days",
    "my Spotify account email is anna@example.org",
    "press 1234 to see the menu",
    "dial 0161 496 0000 for the office",
    "enter 2024 as the year on the form",
    "my alarm is 0630 every day",
    "the door is 1234 mm wide",
    "the apartment is 1200 euros a month",
    "the house is 1850 square feet",
    "Server=db;User Id=app;Database=x",
    "my public key is ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + random_token(43, 207),
    "send the donation to bc1q" + random_token(38, 208, "qpzry9x8gf2tvdw0s3jn54khce6mua7l"),
]
