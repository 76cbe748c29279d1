"""Who may touch which scope: the bearer tokens of a server for many users (`credo serve`,
`credo mcp --http --tokens`), each bound to the scopes it may read and write.

A token table is a YAML (or JSON) document, read from `--tokens PATH` or from
`$CREDO_SERVE_TOKENS` (the document itself), never from the command line:

    tokens:
      - name: alice-agent        # who, in logs and in every decision the token records
        sha256: 9f86d0...        # SHA-256 of the token, hex (the file then holds no secret)
        scopes: [alice]
      - name: backend
        token_file: /run/secrets/credo-backend   # or the token in a file of its own
        scopes: ["user-*"]       # a trailing * matches every scope that starts so
      - name: ops
        sha256: 2c26b4...
        admin: true              # may list the scopes, and touch every one

A token is given as `sha256` (its hash: the table can be shared, checked in, printed),
`token_file` (a file holding it, as `--token-file` reads one) or `token` (the token
itself: the table is then a secret, and a warning says so when others can read its file).
Tokens are looked up by their SHA-256, so a request's token is never compared byte by byte
with a stored one, and a table of many thousand tokens costs one hash and one dictionary
lookup a request.

The one-token servers of before keep working: without a table, the token of
`credo.httpauth` (`--token-file`, `$CREDO_MCP_TOKEN`, or a one-off token on loopback)
is an admin token for every scope.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import InvalidInput
from .httpauth import MIN_TOKEN_CHARS, is_loopback, read_token_file, warn_if_shared
from .store.base import ScopeError, check_scope

__all__ = [
    "TOKENS_ENV",
    "Grant",
    "TokenTable",
    "allowed_hosts",
    "host_allowed",
    "load_tokens",
    "token_digest",
]

TOKENS_ENV = "CREDO_SERVE_TOKENS"
#: a token table larger than this is not a token table
MAX_TABLE_BYTES = 16 * 1024 * 1024
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_NAME = re.compile(r"^[A-Za-z0-9_.@:-]{1,100}$")


def token_digest(token: str) -> str:
    """The SHA-256 of a token, hex: what a table's `sha256` holds."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Grant:
    """One token's rights: the scopes it may touch (names, or prefixes ending in `*`)."""

    name: str
    scopes: tuple[str, ...] = ()
    admin: bool = False

    def may(self, scope: str) -> bool:
        if self.admin:
            return True
        for allowed in self.scopes:
            if allowed.endswith("*"):
                if scope.startswith(allowed[:-1]):
                    return True
            elif scope == allowed:
                return True
        return False

    @property
    def single_scope(self) -> str | None:
        """The one scope this token names, when it names exactly one and no pattern."""
        if self.admin or len(self.scopes) != 1 or self.scopes[0].endswith("*"):
            return None
        return self.scopes[0]


class TokenTable:
    """Tokens (by their SHA-256) and what each may touch."""

    def __init__(self, grants: Mapping[str, Grant], *, holds_secrets: bool = False) -> None:
        self._by_digest = dict(grants)
        #: whether the table's text holds a token itself (not only hashes and files)
        self.holds_secrets = holds_secrets

    @classmethod
    def single(cls, token: str, *, name: str = "admin") -> TokenTable:
        """One token with every right: the one-token server of `credo.httpauth`."""
        return cls({token_digest(token): Grant(name=name, admin=True)})

    def grant(self, authorization: str | None) -> Grant | None:
        """The grant of an `Authorization: Bearer <token>` header, or None."""
        if not authorization:
            return None
        scheme, _, value = authorization.partition(" ")
        token = value.strip()
        if scheme.lower() != "bearer" or not token:
            return None
        return self._by_digest.get(token_digest(token))

    def grants(self) -> list[Grant]:
        return list(self._by_digest.values())

    def __len__(self) -> int:
        return len(self._by_digest)


def _fail(where: str, message: str) -> InvalidInput:
    return InvalidInput(f"{where}: {message}")


def _entry(n: int, raw: Any, where: str, base: Path | None, who: str) -> tuple[str, Grant]:
    at = f"{where}, token {n}"
    if not isinstance(raw, dict):
        raise _fail(at, "each token is a mapping with name, a token, and scopes or admin")
    unknown = set(raw) - {"name", "sha256", "token", "token_file", "scopes", "admin"}
    if unknown:
        raise _fail(at, f"unknown key(s) {', '.join(sorted(map(str, unknown)))}")
    name = raw.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise _fail(at, "give it a name: 1-100 letters, digits, '_', '-', '.', ':' or '@'")
    at = f"{where}, token {name!r}"
    given = [k for k in ("sha256", "token", "token_file") if raw.get(k) is not None]
    if len(given) != 1:
        raise _fail(at, "give exactly one of sha256, token or token_file")
    if given[0] == "sha256":
        digest = str(raw["sha256"]).strip().lower()
        if not _HEX64.match(digest):
            raise _fail(at, "sha256 is the token's SHA-256 as 64 hex digits")
    else:
        if given[0] == "token":
            token = raw["token"]
            if not isinstance(token, str):
                raise _fail(at, "token must be text")
            token = token.strip()
        else:
            path = Path(str(raw["token_file"])).expanduser()
            if base is not None and not path.is_absolute():
                path = base / path
            token = read_token_file(path, who=who)
        if len(token) < MIN_TOKEN_CHARS:
            raise _fail(at, f"the token is under {MIN_TOKEN_CHARS} characters")
        digest = token_digest(token)
    admin = raw.get("admin", False)
    if not isinstance(admin, bool):
        raise _fail(at, "admin is true or false")
    scopes_raw = raw.get("scopes", [])
    if isinstance(scopes_raw, str):
        scopes_raw = [scopes_raw]
    if not isinstance(scopes_raw, list):
        raise _fail(at, "scopes is a list of scope names (a trailing * matches a prefix)")
    scopes: list[str] = []
    for scope in scopes_raw:
        if not isinstance(scope, str):
            raise _fail(at, f"scope {scope!r} is not a name")
        try:
            check_scope(scope[:-1] if scope.endswith("*") and len(scope) > 1 else scope)
        except ScopeError as exc:
            if scope != "*":
                raise _fail(at, str(exc)) from exc
        scopes.append(scope)
    if not scopes and not admin:
        raise _fail(at, "it may touch nothing: give scopes, or admin: true")
    return digest, Grant(name=name, scopes=tuple(scopes), admin=admin)


def parse_tokens(
    text: str, *, where: str, base: Path | None = None, who: str = "credo"
) -> TokenTable:
    """A token table from its YAML or JSON text (`where` names it in errors)."""
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise _fail(where, f"not YAML or JSON: {exc}") from exc
    if isinstance(data, dict):
        data = data.get("tokens")
    if not isinstance(data, list) or not data:
        raise _fail(where, "expected 'tokens:' and a list of tokens")
    grants: dict[str, Grant] = {}
    names: set[str] = set()
    secrets = False
    for n, raw in enumerate(data, start=1):
        digest, grant = _entry(n, raw, where, base, who)
        secrets = secrets or (isinstance(raw, dict) and raw.get("token") is not None)
        if digest in grants:
            raise _fail(where, f"tokens {grants[digest].name!r} and {grant.name!r} are the same")
        if grant.name in names:
            raise _fail(where, f"two tokens are named {grant.name!r}")
        names.add(grant.name)
        grants[digest] = grant
    return TokenTable(grants, holds_secrets=secrets)


def load_tokens(
    path: str | Path | None, env: Mapping[str, str], *, who: str = "credo"
) -> TokenTable | None:
    """The token table of `--tokens PATH`, else of `$CREDO_SERVE_TOKENS`; None if neither.
    A table file holding tokens themselves (not their hashes) should be private: a
    warning says so when group or others can read it."""
    if path is not None:
        path = Path(path).expanduser()
        try:
            with path.open("rb") as fh:
                info = os.fstat(fh.fileno())
                data = fh.read(MAX_TABLE_BYTES + 1)
        except OSError as exc:
            raise InvalidInput(
                f"cannot read the token table {str(path)!r}: {exc.strerror or exc}"
            ) from exc
        if len(data) > MAX_TABLE_BYTES:
            raise InvalidInput(f"{path} is over {MAX_TABLE_BYTES} bytes: not a token table")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"{path} is not UTF-8 text") from exc
        table = parse_tokens(text, where=str(path), base=path.parent, who=who)
        if table.holds_secrets:
            warn_if_shared(path, info, who=who)
        return table
    given = env.get(TOKENS_ENV)
    if given:
        return parse_tokens(given, where=f"${TOKENS_ENV}", who=who)
    return None


# -- the Host header -------------------------------------------------------------------------
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def allowed_hosts(bind: str, extra: Iterable[str] = ()) -> list[str] | None:
    """The Host header values a server bound to `bind` answers (None: any). On loopback,
    only the loopback names, so a page of another site that makes its name resolve to
    127.0.0.1 (DNS rebinding) cannot talk to the server; elsewhere the names given."""
    names = [h.strip().lower() for h in extra if h.strip()]
    if is_loopback(bind):
        return [*_LOOPBACK_NAMES, *names]
    return names or None


def host_allowed(header: str | None, allowed: list[str] | None) -> bool:
    """Whether a request's Host header names this server (any port)."""
    if allowed is None:
        return True
    if not header:
        return False
    host = header.strip().lower()
    if host.startswith("["):
        name = host[: host.find("]") + 1] if "]" in host else host
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return name in allowed
