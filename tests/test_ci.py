"""CI runs what the README tells a new user to run, character for character."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the quick start has a sh code block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_quick_start_has_exactly_two_commands():
    commands = _quick_start_commands()
    assert len(commands) == 2
    assert "python -m bot demo" in commands[0]
    assert commands[1].endswith(".venv/bin/pytest")


def test_ci_runs_the_readme_test_command_exactly():
    test_command = _quick_start_commands()[1]
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command in ci_lines
    for check in ("ruff check .", "ruff format --check .", "mypy"):
        assert check in test_command


def test_ci_sets_ci_true_before_the_test_command():
    """`.ci/run` exports CI=true, so a PostgreSQL test that cannot start fails instead of
    skipping (tests/pg_fixtures.py)."""
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    command = lines.index(_quick_start_commands()[1])
    assert "export CI=true" in lines[:command]
