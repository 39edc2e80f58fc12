"""The documentation: the site builds strictly, a broken link fails it, the generated references
cover the code, and the README stays a short entry page whose links lead somewhere.

The site is built the way a reader builds it (``mkdocs build --strict`` on ``mkdocs.yml``):
every MkDocs warning is an error, and ``validation:`` in ``mkdocs.yml`` makes a link to a
missing page or anchor a warning.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import types
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of ``config`` into ``site``, this checkout first on the path."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_MKDOCS_2_WARNING="1")
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        cwd=config.parent,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def _hooks() -> ModuleType:
    """``docs/hooks.py``, the MkDocs hook that writes the generated pages."""
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _copy_of_the_site(tmp_path: Path) -> Path:
    """The site's sources (and the repository files its hook reads) in ``tmp_path``."""
    shutil.copytree(DOCS, tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copy(ROOT / "CONTRIBUTING.md", tmp_path / "CONTRIBUTING.md")
    (tmp_path / "benchmarks").mkdir()
    shutil.copy(ROOT / "benchmarks" / "HISTORY.md", tmp_path / "benchmarks" / "HISTORY.md")
    return tmp_path / "mkdocs.yml"


def test_the_site_builds_strictly_with_its_generated_pages(tmp_path: Path) -> None:
    result = _build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert result.returncode == 0, result.stderr
    for page in ("reference/commands", "reference/settings", "contributors/contributing"):
        assert (tmp_path / "site" / page / "index.html").is_file(), page
    assert not (tmp_path / "site" / "hooks.py").exists()


@pytest.mark.parametrize(
    ("link", "complaint"),
    [
        ("[gone](no-such-page.md)", "no-such-page.md"),
        ("[gone](running.md#no-such-heading)", "no-such-heading"),
    ],
)
def test_a_broken_link_fails_the_build(tmp_path: Path, link: str, complaint: str) -> None:
    config = _copy_of_the_site(tmp_path)
    page = tmp_path / "docs" / "operators" / "demo.md"  # a page in the nav
    page.write_text(page.read_text(encoding="utf-8") + f"\nSee {link}.\n", encoding="utf-8")
    result = _build(config, tmp_path / "site")
    assert result.returncode != 0
    assert "'operators/demo.md' contains a link" in result.stderr
    assert complaint in result.stderr


def test_the_command_reference_names_every_command_and_option_of_the_tree() -> None:
    """Walked from the real discord.py tree (groups at any depth), not from a list."""
    from discord import app_commands

    from bot.discord_app.client import TtrBot
    from bot.process.config import Settings
    from cogs.ttr import TtrCog

    hooks = _hooks()

    async def tree() -> list[app_commands.Command | app_commands.Group]:  # type: ignore[type-arg]
        bot = TtrBot(Settings(), service=types.SimpleNamespace())
        await bot.add_cog(TtrCog(bot))
        return list(bot.tree.walk_commands())

    commands = asyncio.run(tree())
    page = hooks.commands_page()
    assert len(commands) > 20
    for command in commands:
        assert re.search(rf"^#+ `/{re.escape(command.qualified_name)}`$", page, re.M), command
        if isinstance(command, app_commands.Command):
            for parameter in command.parameters:
                assert f"| `{parameter.name}` |" in page, (command.qualified_name, parameter)
    assert "German: `/ttr neu`" in page


def test_the_settings_reference_has_every_setting_the_bot_reads() -> None:
    from dataclasses import fields

    from bot.process.config import Settings

    page = _hooks().settings_page()
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert len(rows) == len(fields(Settings))
    source = (ROOT / "bot" / "process" / "config.py").read_text(encoding="utf-8")
    read = set(re.findall(r'get\("([A-Z][A-Z0-9_]+)"\)', source))
    assert "DISCORD_TOKEN" in read
    for name in read:
        assert f"| `{name}` |" in page, name
    assert "| `TTR_DATABASE_PATH` | `data/ttr.sqlite3` |" in page


def test_every_metric_has_a_row_on_the_metrics_page() -> None:
    from bot.process.metrics import REGISTRY

    page = (DOCS / "operators" / "metrics.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `(ttr_\w+)`", page, re.M))
    served = set()
    for family in REGISTRY.collect():
        if family.name.startswith("ttr_"):
            served.add(family.name + ("_total" if family.type == "counter" else ""))
    assert served == documented


def _links(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [t for t in re.findall(r"\]\(([^)\s]+)\)", text) if "://" not in t]


@pytest.mark.parametrize("name", ["README.md", "CONTRIBUTING.md"])
def test_the_repository_pages_link_to_files_that_exist(name: str) -> None:
    links = _links(ROOT / name)
    assert links
    for target in links:
        assert (ROOT / target.split("#", 1)[0]).exists(), (name, target)


def test_the_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250
    assert max(len(line) for line in lines) <= 200
    assert any(link.startswith("docs/images/") for link in _links(ROOT / "README.md"))


#: The hand-written pages: the repository's own and every page of the site.
WRITTEN = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted(DOCS.rglob("*.md"))]
#: Words that may follow a group's name in a sentence about the group (``who may use /ttr in
#: which channels``): they end the path instead of naming a missing command.
PROSE = {"in", "im", "and", "und", "or", "oder"}


@dataclass
class Node:
    """One entry of the command tree as a reader of one language sees it: a group's
    ``children`` by name, a command's ``options`` by name."""

    children: dict[str, Node] = field(default_factory=dict)
    options: set[str] = field(default_factory=set)


def _named(entry: dict[str, Any], lang: str) -> str:
    return str(
        entry["name"]
        if lang == "en"
        else entry.get("name_localizations", {}).get(lang) or entry["name"]
    )


def _node(entry: dict[str, Any], lang: str) -> Node:
    node = Node()
    for option in entry.get("options") or []:
        if option["type"] in (1, 2):  # a subcommand or a subcommand group
            node.children[_named(option, lang)] = _node(option, lang)
        else:
            node.options.add(_named(option, lang))
    return node


@pytest.fixture(scope="module")
def trees() -> dict[str, Node]:
    """``/ttr`` in English and in German, walked from the payloads the bot syncs (as the
    generated command reference is)."""
    payloads = asyncio.run(_hooks().command_payloads())
    (ttr,) = [p for p in payloads if p["name"] == "ttr"]
    return {lang: _node(ttr, lang) for lang in ("en", "de")}


def _unknown(root: Node, words: list[str]) -> str | None:
    """The first word of ``words`` (what follows one ``/ttr``) that names no command or option.

    After a group each word must name one of its entries; after a command a word ending in
    ``:`` (``map:``, ``[page:]``) must be one of its options, and any other word ends the path
    (``/ttr board and``), as do ``...`` and a word of :data:`PROSE` after a group.
    """
    node, path = root, "/ttr"
    for token in words:
        word = re.match(r"\[?([^\W\d][\w-]*)(.*)$", token)
        if word is None:
            return None
        name, rest = word.group(1), word.group(2)
        if node.children:
            if name in PROSE:
                return None
            if name not in node.children:
                return f"{path} {name}"
            node, path = node.children[name], f"{path} {name}"
        elif rest.startswith(":"):
            if name not in node.options:
                return f"{path} {name}:"
        else:
            return None
        if rest and not rest.startswith(":"):
            return None  # punctuation ends the path: "/ttr game, or"
    return None


def stale_commands(trees: dict[str, Node], text: str) -> list[str]:
    """Every ``/ttr ...`` of ``text`` that is no command path of the tree in English nor in
    German (a path ends at a backtick, a line's next ``/ttr`` or a word that is no command)."""
    out = []
    for match in re.finditer(r"(?<![\w/.:])/ttr\b((?:\s+[^\s/`]+)*)", text):
        words = match.group(1).split()
        found = [_unknown(tree, words) for tree in trees.values()]
        if all(found):
            out.append(max((str(f) for f in found), key=len))
    return out


def test_every_command_the_pages_name_exists(trees: dict[str, Node]) -> None:
    """README.md, CONTRIBUTING.md and every page under docs/ name only commands (and
    options) of the bot's real command tree."""
    mentioned, stale = 0, {}
    for page in WRITTEN:
        text = page.read_text(encoding="utf-8")
        mentioned += text.count("/ttr")
        if found := stale_commands(trees, text):
            stale[str(page.relative_to(ROOT))] = found
    assert stale == {}
    assert mentioned > 100


@pytest.mark.parametrize(
    ("text", "stale"),
    [
        ("`/ttr mygames`", ["/ttr mygames"]),
        ("`/ttr privacy show`, `/ttr player privacy`", ["/ttr privacy"]),
        ("`/ttr game show id:3`, `/ttr game show page:2`", ["/ttr game show page:"]),
        ("`/ttr join [leave:]`", ["/ttr join leave:"]),
        ("`/ttr game id:`", ["/ttr game id"]),
        ("`/ttr spiel log`", ["/ttr spiel log"]),
        ("`/ttr admin ...`, `/ttr game` (its log), `/ttr neu spielplan:` and `/ttr spieler`", []),
        ("`/ttr new map: [turn_time:]`, /ttr board and /ttr status, who may use /ttr in", []),
        ("postgresql://ttr:PASSWORD@db:5432/ttr backups/ttr.pgdump", []),
    ],
)
def test_the_command_check_finds_a_stale_path(
    trees: dict[str, Node], text: str, stale: list[str]
) -> None:
    assert stale_commands(trees, text) == stale


def _top_folders() -> set[str]:
    """The repository's top-level folders (hidden ones and those ``.gitignore`` names left
    out: ``data/``, ``build/``, ``*.egg-info/``...)."""
    ignored = [
        line.rstrip("/")
        for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
        if line.endswith("/")
    ]
    return {
        p.name
        for p in ROOT.iterdir()
        if p.is_dir()
        and not p.name.startswith(".")
        and not any(fnmatch(p.name, pattern) for pattern in ignored)
    }


#: Files a page names that a build writes (``setup.py``'s stamp of the compiled integer core).
BUILT = {"engine/integer_core.built"}


def named_paths(text: str, folders: set[str]) -> list[str]:
    """The repository paths ``text`` names in code (inline or fenced): words that start with a
    top-level folder and a ``/`` (``bot/process/config.py``, ``tests/e2e/``); a path with a
    placeholder (``maps/<id>/map.json``, ``docs/images/*``) is left out."""
    folder = "|".join(sorted(map(re.escape, folders)))
    path = re.compile(rf"(?<![\w/.~-])((?:{folder})/[\w./-]*)(?![<*{{\[])")
    out = []
    for code in re.findall(r"```.*?```|`[^`\n]+`", text, flags=re.S):
        out += [m.group(1).rstrip(".") for m in path.finditer(code)]
    return out


def test_every_file_the_pages_name_exists() -> None:
    """README.md, CONTRIBUTING.md and every page under docs/ name only files and folders the
    repository has (a module that moved leaves no stale path behind)."""
    folders = _top_folders()
    assert {"bot", "cogs", "docs", "engine", "tests"} <= folders
    named, missing = 0, {}
    for page in WRITTEN:
        paths = named_paths(page.read_text(encoding="utf-8"), folders)
        named += len(paths)
        gone = [p for p in paths if not (ROOT / p).exists() and p not in BUILT]
        if gone:
            missing[str(page.relative_to(ROOT))] = gone
    assert missing == {}
    assert named > 100


def test_the_path_check_finds_a_moved_file() -> None:
    folders = _top_folders()
    text = (
        "`bot/config.py` and `bot/process/config.py`\n```\nbot/services/ and render/_board.py\n```"
    )
    assert named_paths(text, folders) == [
        "bot/config.py",
        "bot/process/config.py",
        "bot/services/",
        "render/_board.py",
    ]
    assert named_paths("`maps/<id>/map.json`, data/x.db, `/tmp/render/x`", folders) == []


def code_map() -> tuple[str, list[str]]:
    """The code map of ``docs/contributors/layout.md`` (its first fenced block) and the paths
    its entries name: a line's first word ending in ``/`` or ``.py``, nested under the entry
    above it by two spaces of indent (``bot/`` then ``  process/`` then ``    config.py``)."""
    text = (DOCS / "contributors" / "layout.md").read_text(encoding="utf-8")
    found = re.search(r"```\n(.*?)```", text, flags=re.S)
    assert found, "the code map"
    block = found.group(1)
    stack: list[str] = []
    paths = []
    for line in block.splitlines():
        entry = re.match(r"^( {0,4})([\w./-]+(?:/|\.py))(?= |$)", line)
        if entry is None or len(entry.group(1)) % 2:
            continue
        stack = [*stack[: len(entry.group(1)) // 2], entry.group(2).rstrip("/")]
        paths.append("/".join(stack))
    return block, paths


def test_the_code_map_names_what_there_is_and_all_of_it() -> None:
    """Every entry of the code map exists; every top-level package, every package and module
    of ``bot/`` (and of its packages), every module of ``sentences/`` and ``cogs/ttr/`` is on
    it."""
    block, paths = code_map()
    assert "bot/process/config.py" in paths
    assert [p for p in paths if not (ROOT / p).exists()] == []
    words = set(re.findall(r"[\w.]+", block))
    words |= {w.removesuffix(".py") for w in words}
    expected = {p.parent.name for p in ROOT.glob("*/__init__.py")} | {"docs", "tools"}
    for folder in ("bot", "sentences", "cogs/ttr"):
        for module in (ROOT / folder).glob("*.py"):
            if module.name != "__init__.py":
                expected.add(module.name if folder != "cogs/ttr" else module.stem)
    for package in (ROOT / "bot").glob("*/__init__.py"):
        expected.add(package.parent.name)
        expected |= {m.name for m in package.parent.glob("*.py") if m.name != "__init__.py"}
        expected |= {p.parent.name for p in package.parent.glob("*/__init__.py")}
    assert sorted(expected - words) == []


def _resolves(dotted: str) -> bool:
    """Whether ``dotted`` (``bot.process.config.Settings``) is a module of the repository,
    or an attribute of one (the longest importable prefix, then ``getattr`` for the rest)."""
    parts = dotted.split(".")
    for k in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        for name in parts[k:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


def named_objects(text: str) -> list[str]:
    """The modules and objects of the repository's packages ``text`` names in inline code
    (``bot.process.config.Settings``, ``maps.registry()``), without a call's parentheses."""
    packages = "|".join(p.parent.name for p in sorted(ROOT.glob("*/__init__.py")))
    dotted = re.compile(rf"(?<![\w./-])((?:{packages})(?:\.[A-Za-z_]\w*)+)")
    return [m.group(1) for code in re.findall(r"`([^`\n]+)`", text) for m in dotted.finditer(code)]


def test_every_module_and_object_the_pages_name_exists() -> None:
    named, missing = 0, {}
    for page in WRITTEN:
        objects = named_objects(page.read_text(encoding="utf-8"))
        named += len(objects)
        if gone := [o for o in objects if not _resolves(o)]:
            missing[str(page.relative_to(ROOT))] = gone
    assert missing == {}
    assert named > 10


def test_the_object_check_finds_a_moved_module() -> None:
    text = "`bot.config.Settings`, `bot.process.config.Settings`, `maps.registry().search`"
    assert named_objects(text) == [
        "bot.config.Settings",
        "bot.process.config.Settings",
        "maps.registry",
    ]
    assert [o for o in named_objects(text) if not _resolves(o)] == ["bot.config.Settings"]
