"""Import boundaries (AST scan): the engine is pure; service and storage know no Discord; render no I/O layers."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

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
    """bot/host/services and bot/host/storage take ids and return dataclasses: no discord import."""
    for pkg in ("bot/host/services", "bot/host/storage"):
        if (ROOT / pkg).exists():
            for f, mods in imports(pkg).items():
                assert "discord" not in mods, f


def test_sentences_import_no_discord_or_storage():
    """sentences/ makes text from view models: no discord, no database, no drawing."""
    for f, mods in imports("sentences").items():
        assert not mods & {"discord", "aiosqlite", "sqlite3", "PIL", "cogs"}, f


def test_render_imports_no_discord_or_storage():
    """render/ is pure drawing: no discord, no database."""
    if (ROOT / "render").exists():
        for f, mods in imports("render").items():
            assert not mods & {"discord", "aiosqlite", "sqlite3", "bot", "cogs"}, f


def test_cogs_never_import_the_engine():
    """cogs/ asks the service for one view model per click: no module under cogs/ imports engine."""
    for f, mods in imports("cogs").items():
        assert "engine" not in mods, f


def test_web_is_a_presenter_like_the_cogs():
    """web/ (the live board) is a second presenter beside cogs/: it reads games through the
    service and its views; it never imports the engine, discord, the cogs or a database
    driver. Nothing below it imports it (the service tells it of changes through a callback);
    the process starts it (bot/process/run.py) and the cogs sign its links (cogs/ttr/_links.py)."""
    for f, mods in imports("web").items():
        assert not mods & {"engine", "discord", "cogs", "aiosqlite", "asyncpg", "sqlite3"}, f
    for package in ("engine", "bot/host", "render", "sentences", "words", "maps"):
        for f, mods in imports(package).items():
            assert "web" not in mods, f
    users = {f for f, mods in imports("cogs").items() if "web" in mods}
    assert users <= {"cogs/ttr/_links.py"}, users


def test_cogs_draw_only_through_their_images_module():
    """cogs/ttr/_images.py is the cogs' only door to the renderer: it draws in a worker
    thread and times each image by kind. Other cog modules may import the renderer's
    constants (card order and symbols), never a ``render_*`` function."""
    drawing = {}
    for path in (ROOT / "cogs").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {
            a.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("render")
            for a in node.names
        }
        if any(n.startswith("render_") for n in names):
            drawing[str(path.relative_to(ROOT))] = names
    assert list(drawing) == ["cogs/ttr/_images.py"], drawing


# Import cycles of every package (not only the Discord side) are checked by test_structure.py.
