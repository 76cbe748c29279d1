#!/usr/bin/env bash
# Runs everything `make test` promises: lint, types, then pytest against SQLite and a
# throwaway PostgreSQL database with pgvector (dropped afterwards, even on failure).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${VENV:-.venv}/bin

"$BIN/ruff" check src tests
"$BIN/ruff" format --check src tests
"$BIN/mypy" src/credo

# the browser tests of `credo ui` drive Debian's Chromium through its chromedriver (no
# browser is downloaded from anywhere else); without apt they skip, saying so loudly
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq chromium chromium-driver) >/dev/null
    else
        echo "!!! scripts/test.sh: no chromium/chromedriver and no apt-get as root to" \
            "install them: the browser tests of credo ui (tests/test_ui_browser.py) SKIP" >&2
    fi
fi

if [ "${CREDO_SKIP_PG:-0}" != "1" ] && [ -z "${CREDO_TEST_PG_DSN:-}" ]; then
    CREDO_TEST_PG_DSN=$(bash scripts/ci-postgres.sh)
    export CREDO_TEST_PG_DSN
    trap 'bash scripts/ci-postgres.sh --drop "${CREDO_TEST_PG_DSN##*/}" || true' EXIT
fi

# pytest on every core (pytest-xdist, in the dev extra): on a 2-core machine shared with
# other runs the whole suite took 4:38 and 5:11 on two workers, 5:09 and 6:41 in one
# process. CREDO_TEST_WORKERS=0 (or -n 0) runs it in one process, as does a venv made
# before pytest-xdist was added
# (--dist load, xdist's default: each worker runs a secrets corpus at most once, kept for
# its session. Under --dist loadgroup four tests of tests/test_mcp.py once failed: they
# shared the module's servers and hung on the order they ran in, a test's leftovers
# changing what a later one recalled; each now starts from an empty scope)
WORKERS=${CREDO_TEST_WORKERS:-auto}
if [ "$WORKERS" != "0" ] && "$BIN/python" -c "import xdist" 2>/dev/null; then
    set -- -n "$WORKERS" "$@"
fi
"$BIN/pytest" -q "$@"
