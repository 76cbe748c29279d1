# credo: the two commands of the README, and the checks CI runs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
DEMO_DB ?= $(CURDIR)/demo.db

.PHONY: demo test lint bench clean

$(BIN)/credo: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,postgres,mcp,ui,langgraph,langmem,openai-agents,pydantic-ai]'
	touch $@

# (1) the main job on the embedded default: SQLite file + the bundled local model
demo: $(BIN)/credo
	rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	$(BIN)/credo --db $(DEMO_DB) remember "Arttu deploys arttuan.com on Vercel"
	$(BIN)/credo --db $(DEMO_DB) remember "Arttu lives in Berlin"
	$(BIN)/credo --db $(DEMO_DB) recall "where does Arttu deploy" -k 1 --render

# (2) the test suite: lint, types, and pytest on SQLite and PostgreSQL (pgvector is built
# and a throwaway database created by scripts/ci-postgres.sh; CREDO_SKIP_PG=1 skips it)
test: $(BIN)/credo
	bash scripts/test.sh

lint: $(BIN)/credo
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy src/credo

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache demo.db*
