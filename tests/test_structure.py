"""Rooms of a readable size: an AST and import scan of the project's modules.

No import cycle among the modules of the product's packages, no class over
350 lines and no function over 80 lines (decorators to the last line, the
docstring included), outside the integer core. The scan itself is tested on
planted sources: a two-module cycle, a self-import, an 81-line function and a
351-line class are found; an 80-line function is not.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The product's packages: what the bot runs (the same list mypy checks).
PACKAGES = ("engine", "maps", "render", "bot", "cogs", "words", "sentences", "web")
MAX_CLASS_LINES = 350
MAX_FUNCTION_LINES = 80
#: The integer core: one mutable game in flat loops over arrays, held to the value engine
#: step by step (tests/engine/test_core.py); its long bodies are what makes it fast.
INTEGER_CORE = frozenset({"engine/integer_core.py"})


def project_sources() -> dict[str, str]:
    """The product's Python files: path relative to the root -> text."""
    return {
        path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _module_name(path: str) -> str:
    name = path.removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


def _resolve(target: str, modules: set[str]) -> str | None:
    """The project module ``target`` names (``pkg.mod.attr`` -> ``pkg.mod``), or None."""
    while target and target not in modules:
        target = target.rpartition(".")[0]
    return target or None


def _imported(node: ast.Import | ast.ImportFrom, package: str) -> Iterator[str]:
    """Dotted names an import statement reaches (``from a import b`` -> ``a.b``, then ``a``)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
        base = f"{parent}.{node.module}" if node.module else parent
    for alias in node.names:
        yield f"{base}.{alias.name}"


def module_graph(sources: Mapping[str, str]) -> dict[str, set[str]]:
    """Module -> the project modules it imports (absolute and relative, wherever the import is)."""
    names = {path: _module_name(path) for path in sources}
    modules = set(names.values())
    graph: dict[str, set[str]] = {}
    for path, text in sources.items():
        name = names[path]
        package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in _imported(node, package):
                    module = _resolve(target, modules)
                    if module is not None:
                        found.add(module)
        graph[name] = found
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[frozenset[str]]:
    """The import cycles of ``graph``: its strongly connected components of more than one module,
    and modules that import themselves (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
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
                if len(component) > 1 or node in graph.get(node, ()):
                    found.append(frozenset(component))
    return found


def oversize(sources: Mapping[str, str]) -> dict[str, int]:
    """``path:qualified name`` -> lines of every class over :data:`MAX_CLASS_LINES` and every
    function over :data:`MAX_FUNCTION_LINES` (from its first decorator to its last line)."""
    out: dict[str, int] = {}

    def visit(node: ast.AST, path: str, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                lines = (child.end_lineno or child.lineno) - first + 1
                limit = MAX_CLASS_LINES if isinstance(child, ast.ClassDef) else MAX_FUNCTION_LINES
                name = f"{prefix}{child.name}"
                if lines > limit:
                    out[f"{path}:{name}"] = lines
                visit(child, path, f"{name}.")
            else:
                visit(child, path, prefix)

    for path, text in sources.items():
        if path not in INTEGER_CORE:
            visit(ast.parse(text), path, "")
    return out


def test_no_import_cycles_among_the_projects_modules() -> None:
    """No module of engine/, maps/, render/, bot/, cogs/ or words/ imports itself back through
    others (engine.legal <-> engine.reducer was the last)."""
    assert sorted(sorted(c) for c in cycles(module_graph(project_sources()))) == []


def test_no_oversize_class_or_function_outside_the_integer_core() -> None:
    """No class over 350 lines and no function over 80 lines in the product's packages."""
    assert oversize(project_sources()) == {}


def test_the_scan_finds_a_planted_cycle() -> None:
    """A cycle through relative and absolute imports, and a self-import, are found; a chain is not."""
    planted = {
        "pkg/__init__.py": "from .a import thing\n",
        "pkg/a.py": "from . import b\nthing = 1\n",
        "pkg/b.py": "import pkg.c\n",
        "pkg/c.py": "def f():\n    from pkg.a import thing\n    return thing\n",
        "pkg/d.py": "from .d import x\n",
        "pkg/e.py": "from pkg import a\n",
    }
    graph = module_graph(planted)
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.e"] == {"pkg.a"}  # the module, not pkg
    assert set(cycles(graph)) == {frozenset({"pkg.a", "pkg.b", "pkg.c"}), frozenset({"pkg.d"})}
    planted["pkg/c.py"] = "thing = 2\n"  # c no longer imports a: a chain, no cycle
    del planted["pkg/d.py"]
    assert cycles(module_graph(planted)) == []


def _function(lines: int, name: str = "f") -> str:
    """A function of exactly ``lines`` lines (a def, a docstring and statements)."""
    body = [f"def {name}() -> int:", '    """Planted."""', "    x = 0"]
    body += ["    x += 1"] * (lines - 4) + ["    return x"]
    return "\n".join(body) + "\n"


def test_the_scan_finds_a_planted_81_line_function_and_351_line_class() -> None:
    """An 81-line function (also as a method) and a 351-line class are reported with their
    length; an 80-line function is not."""
    assert len(_function(81).splitlines()) == 81
    method = "class Small:\n" + "".join("    " + line + "\n" for line in _function(81).splitlines())
    big = "class Big:\n" + "".join(f"    x{i} = {i}\n" for i in range(350))
    planted = {
        "pkg/long.py": _function(81, "long"),
        "pkg/fine.py": _function(80, "fine"),
        "pkg/method.py": method,
        "pkg/big.py": big,
        "engine/integer_core.py": _function(200, "core"),
    }
    assert oversize(planted) == {
        "pkg/long.py:long": 81,
        "pkg/method.py:Small.f": 81,
        "pkg/big.py:Big": 351,
    }
