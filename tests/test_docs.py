"""The documentation: the site builds strictly, a broken link fails it, the generated references
cover the code, and the README stays a short entry page whose links lead somewhere.

The site is built the way a reader builds it (``mkdocs build --strict`` on ``mkdocs.yml``):
every MkDocs warning is an error, and ``validation:`` in ``mkdocs.yml`` makes a link to a
missing page or anchor a warning.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path
from types import ModuleType

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
