"""Import boundaries (AST scan): the engine is pure; service and storage know no Discord; render no I/O layers."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imports(package: str) -> dict[str, set[str]]:
    """File -> top-level modules it imports (relative imports excluded)."""
    out: dict[str, set[str]] = {}
    for path in (ROOT / package).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        mods: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                mods.add(node.module.split(".")[0])
        out[str(path.relative_to(ROOT))] = mods
    return out


def test_engine_imports_only_the_standard_library():
    """engine/ imports nothing outside the standard library (and no I/O-ish stdlib modules)."""
    forbidden = {"asyncio", "sqlite3", "socket", "subprocess", "logging_config"}
    bad = {}
    for f, mods in imports("engine").items():
        wrong = {m for m in mods if m not in sys.stdlib_module_names or m in forbidden}
        if wrong:
            bad[f] = wrong
    assert not bad, bad


def test_service_and_storage_import_no_discord():
    """bot/services and bot/storage take ids and return dataclasses: no discord import."""
    for pkg in ("bot/services", "bot/storage"):
        if (ROOT / pkg).exists():
            for f, mods in imports(pkg).items():
                assert "discord" not in mods, f


def test_render_imports_no_discord_or_storage():
    """render/ is pure drawing: no discord, no database."""
    if (ROOT / "render").exists():
        for f, mods in imports("render").items():
            assert not mods & {"discord", "aiosqlite", "sqlite3", "bot", "cogs"}, f


def test_cogs_never_import_the_engine():
    """cogs/ asks the service for one view model per click: no module under cogs/ imports engine."""
    for f, mods in imports("cogs").items():
        assert "engine" not in mods, f


def _module_graph(package: str) -> dict[str, set[str]]:
    """Module -> modules of the same package it imports (relative and absolute imports)."""
    graph: dict[str, set[str]] = {}
    base = package.replace("/", ".")
    for path in (ROOT / package).rglob("*.py"):
        rel = path.relative_to(ROOT).with_suffix("")
        name = ".".join(rel.parts).removesuffix(".__init__")
        pkg = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    parent = pkg.rsplit(".", node.level - 1)[0] if node.level > 1 else pkg
                    target = f"{parent}.{node.module}" if node.module else parent
                    found.add(target)
                    if not node.module:
                        found.update(f"{parent}.{a.name}" for a in node.names)
                elif node.module and node.module.startswith(base):
                    found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name.startswith(base))
        graph[name] = found
    return {m: {t for t in deps if t in graph and t != m} for m, deps in graph.items()}


def test_no_import_cycles_in_the_discord_side():
    """cogs/ttr and bot/services have no import cycles (the package __init__ only wires up)."""
    for package in ("cogs/ttr", "bot/services"):
        graph = _module_graph(package)
        graph = {
            m: {d for d in deps if not d.endswith("__init__") and d != package.replace("/", ".")}
            for m, deps in graph.items()
        }
        _assert_acyclic(graph)


def _assert_acyclic(graph: dict[str, set[str]]) -> None:
    """Depth-first search with colours; raises AssertionError naming the first cycle found."""
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in graph.get(node, ()):
            if state.get(nxt) == 1:
                raise AssertionError(f"import cycle: {' -> '.join([*path, node, nxt])}")
            if nxt not in state:
                visit(nxt, [*path, node])
        state[node] = 2

    for module in graph:
        if module not in state:
            visit(module, [])


def test_the_cycle_check_finds_a_cycle():
    """The check above is not vacuous: a two-module cycle and a self-import are reported."""
    _assert_acyclic({"a": {"b"}, "b": {"c"}, "c": set()})
    with pytest.raises(AssertionError, match="a -> b -> a"):
        _assert_acyclic({"a": {"b"}, "b": {"a"}})
    with pytest.raises(AssertionError, match="x -> x"):
        _assert_acyclic({"x": {"x"}})
