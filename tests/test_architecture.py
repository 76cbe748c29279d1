"""The package's import graph has no circles (see ARCHITECTURE.md).

The graph is read from the source with `ast`: an edge for each `import` of a module of
`credo` (a name imported from a package counts as its submodule where there is one).
Imports under `if TYPE_CHECKING:` never run and do not count. Two graphs are checked:
the imports at module level, which run when a module is loaded (no circle at all), and
those plus the imports inside functions, which run when the function does (no circle
but those listed in `KNOWN`, each with the reason it is still there: none at present). A
new circle fails; so does a known one that is gone, until it is struck from the list.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import credo

PACKAGE = Path(credo.__file__).parent

#: circles through imports inside functions that are known, and why each is still there
#: (frozenset of module names -> the reason); empty since issue 26
KNOWN: dict[frozenset[str], str] = {}


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(tree: ast.AST, *, in_functions: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that run: at module level (and, with `in_functions`, in
    function bodies), never those under `if TYPE_CHECKING:`."""
    todo: list[tuple[ast.AST, bool]] = [(tree, False)]
    while todo:
        node, in_function = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                todo.extend((c, in_function) for c in child.orelse)
                continue
            inside = in_function or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
            )
            if isinstance(child, ast.Import | ast.ImportFrom) and (in_functions or not inside):
                yield child
            todo.append((child, inside))


def _graph(*, in_functions: bool) -> dict[str, set[str]]:
    modules = _modules()

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str | None] = set()
        for node in _imports(ast.parse(path.read_text()), in_functions=in_functions):
            if isinstance(node, ast.Import):
                edges.update(known(alias.name) for alias in node.names)
                continue
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                edges.add(known(f"{base}.{alias.name}") or known(base))
        graph[name] = {e for e in edges if e and e != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(frozenset(component))
    return out


def _shown(circles: list[frozenset[str]]) -> list[str]:
    return sorted(" <-> ".join(sorted(c)) for c in circles)


def test_the_graph_sees_the_package() -> None:
    graph = _graph(in_functions=True)
    assert "credo.memory" in graph["credo.cli_common"]  # open_memory imports it, lazily
    assert "credo.memory" not in _graph(in_functions=False)["credo.cli_common"]
    assert "credo.gate" in graph["credo.memory"]
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        frozenset({"a", "b", "c"})
    ]


def test_no_import_circle_at_module_level() -> None:
    assert _shown(_circles(_graph(in_functions=False))) == []


def test_no_new_import_circle_through_functions() -> None:
    found = set(_circles(_graph(in_functions=True)))
    assert _shown(list(found - set(KNOWN))) == [], "a new import circle"
    assert _shown(list(set(KNOWN) - found)) == [], "gone: strike it from KNOWN"
