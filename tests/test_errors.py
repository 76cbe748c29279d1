"""The public names and the errors: every name `credo` exports imports, every error class
credo defines is a `CredoError` (keeping its builtin base), and every `from credo ...
import ...` line of the README and docs/ imports as written."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import credo
from credo.errors import CredoError, InvalidInput, NotFound

ROOT = Path(__file__).resolve().parents[1]

#: exceptions that never reach a caller: each is raised and caught inside one module (or
#: one command line) and turned into an answer there, so a caller has nothing to catch
INTERNAL = {
    # a command-line mistake: cli.main prints it and exits 2 (mcp.py and serve.py raise it
    # from the functions behind `credo mcp` and `credo serve`, which cli.main calls)
    "credo.cli_common.UsageError",
    # an HTTP error answer of `credo serve`: its exception handler writes the JSON error
    "credo.serve.ApiError",
    # a bad form or query of `credo ui`: its exception handler renders the error page
    "credo.ui.app.BadInput",
    # a request body over the limit in `credo ui`: answered 413 by the same handler
    "credo.ui.auth.BodyTooLarge",
    # one record of an import (transfer.py): import_records turns it into InvalidInput (the whole import
    # stops) or a line of ImportReport.refused (the record is skipped)
    "credo.transfer._Malformed",
    "credo.transfer._Refused",
}


def _modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(credo.__path__, "credo."))


def _error_classes() -> dict[str, type[BaseException]]:
    """Every exception class defined in a module of credo, by its qualified name."""
    found: dict[str, type[BaseException]] = {}
    for name in _modules():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # an optional extra that is not installed
            if exc.name and exc.name.split(".")[0] != "credo":
                continue
            raise
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == name
            ):
                found[f"{name}.{value.__qualname__}"] = value
    return found


def test_every_exported_name_imports() -> None:
    assert set(credo.__all__) == set(credo._LAZY) | {"__version__"}
    for name in credo.__all__:
        assert getattr(credo, name) is not None, name
    namespace: dict[str, object] = {}
    exec("from credo import *", namespace)
    assert set(credo.__all__) <= set(namespace)
    assert "MemoryError_" not in namespace  # deprecated: not in *


def test_every_exported_error_is_the_class_its_module_defines() -> None:
    for name, home in credo._LAZY.items():
        value = getattr(credo, name)
        if inspect.isclass(value) and issubclass(value, BaseException):
            module = importlib.import_module(home, "credo")
            assert getattr(module, name) is value, name
            assert issubclass(value, CredoError), name


def test_every_error_credo_defines_is_a_credo_error() -> None:
    classes = _error_classes()
    assert set(classes) >= INTERNAL, f"stale entries: {INTERNAL - set(classes)}"
    public = {name: cls for name, cls in classes.items() if name not in INTERNAL}
    assert len(public) >= 20  # the walk found the modules
    outside = sorted(name for name, cls in public.items() if not issubclass(cls, CredoError))
    assert not outside, f"not CredoError subclasses: {outside} (or list them in INTERNAL)"


def test_each_error_keeps_its_builtin_base() -> None:
    """`except ValueError` / `except RuntimeError` written before CredoError still works."""
    value_errors = [
        "InvalidInput",
        "NotFound",
        "ScopeError",
        "IngestError",
        "LLMConfigError",
        "SettingsError",
        "PolicyError",
        "CatalogueError",
        "TimeError",
    ]
    runtime_errors = [
        "StoreError",
        "DiskFull",
        "StoreUnavailable",
        "EmbedderError",
        "LLMError",
        "NLPError",
    ]
    for name in value_errors:
        assert issubclass(getattr(credo, name), ValueError), name
    for name in runtime_errors:
        assert issubclass(getattr(credo, name), RuntimeError), name
    assert issubclass(NotFound, InvalidInput)
    assert issubclass(credo.DiskFull, credo.StoreError)
    from credo.integrations.langgraph import Refused

    assert issubclass(Refused, InvalidInput)


def test_the_old_name_still_works_and_says_it_is_deprecated() -> None:
    with pytest.warns(DeprecationWarning, match="credo.InvalidInput"):
        old = credo.MemoryError_
    assert old is InvalidInput
    with pytest.warns(DeprecationWarning):
        from credo import MemoryError_  # noqa: F401
    from credo.memory import MemoryError_ as from_memory  # code written against memory.py

    assert from_memory is InvalidInput
    with pytest.raises(from_memory):
        credo.Memory(credo.open_store(":memory:", credo.HashEmbedder())).remember("")


def test_a_caller_catches_every_refusal_as_credo_error(tmp_path: Path) -> None:
    memory = credo.Memory(credo.open_store(tmp_path / "e.db", credo.HashEmbedder()))
    with pytest.raises(CredoError, match="non-empty"):
        memory.remember("   ")
    with pytest.raises(credo.NotFound):
        memory.why("f_" + "0" * 16)
    with pytest.raises(credo.ScopeError):
        credo.Memory(memory.store, scope="a b")
    with pytest.raises(CredoError):
        credo.get_chat_client("nosuch:model")


def test_the_errors_cost_nothing_at_start() -> None:
    """`credo.CredoError` is importable without numpy or the store (as --version is fast)."""
    code = "import sys, credo; credo.CredoError; credo.InvalidInput; print('numpy' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"


def _doc_imports() -> list[tuple[str, str]]:
    """Every `from credo ... import ...` / `import credo...` line in the README and docs/."""
    lines = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"```python\n(.*?)```", text, re.DOTALL):
            for line in block.splitlines():
                if re.match(r"(from credo(\.\w+)* import |import credo\b)", line):
                    lines.append((path.name, line.split("#")[0].strip()))
    return lines


DOC_IMPORTS = _doc_imports()


def test_the_docs_import_something() -> None:
    assert len(DOC_IMPORTS) >= 10
    assert any(line.startswith("from credo import Memory") for _, line in DOC_IMPORTS)


@pytest.mark.parametrize(("doc", "line"), DOC_IMPORTS, ids=[f"{d}:{i}" for d, i in DOC_IMPORTS])
def test_each_import_line_of_the_docs_imports(doc: str, line: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # the docs name no old name
        try:
            exec(line, {})
        except ModuleNotFoundError as exc:  # an optional extra that is not installed
            if exc.name and exc.name.split(".")[0] != "credo":
                pytest.skip(f"{exc.name} is not installed")
            raise
