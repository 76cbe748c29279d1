#!/usr/bin/env bash
# Runs everything `make test` promises: lint, types, then pytest against SQLite and a
# throwaway PostgreSQL database with pgvector (dropped afterwards, even on failure).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${VENV:-.venv}/bin

"$BIN/ruff" check src tests
"$BIN/ruff" format --check src
"$BIN/mypy" src/credo

if [ "${CREDO_SKIP_PG:-0}" != "1" ] && [ -z "${CREDO_TEST_PG_DSN:-}" ]; then
    CREDO_TEST_PG_DSN=$(bash scripts/ci-postgres.sh)
    export CREDO_TEST_PG_DSN
    trap 'bash scripts/ci-postgres.sh --drop "${CREDO_TEST_PG_DSN##*/}" || true' EXIT
fi

"$BIN/pytest" -q "$@"
