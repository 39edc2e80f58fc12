"""One closed set of refusal codes: every code the code raises has exactly one
sentence, every sentence has a code that raises it, and no two codes share a sentence.

The scan is an AST walk over the product's packages: a refusal is a call to a class whose
``__init__`` takes ``code`` first (``IllegalAction``, ``ServiceError``, ``CogError`` ...) or a
class that fixes its ``code`` (the storage's refusals, ``UnknownMap``); a code may also be named
directly in ``error_text("...")``. A code that is not a string literal is a defect of its own:
the set could not be checked.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.host.services import ServiceError
from bot.host.storage import (
    ChannelBusy,
    GameNotFound,
    GameStatusError,
    SeatNotFound,
    SeatTaken,
    StorageRefusal,
    StorageUnavailable,
    VersionConflict,
)
from cogs.ttr._base import CogError
from cogs.ttr._ids import BadComponentId
from engine import IllegalAction, SetupError
from maps import UnknownMap
from words import ERRORS, error_text, refusal, words_for

ROOT = Path(__file__).resolve().parents[1]
#: The product's packages (what runs in the bot).
PACKAGES = ("engine", "maps", "render", "bot", "cogs", "words", "web")


@dataclass
class Scan:
    """What the sources raise: code -> places, and the places whose code is not a literal."""

    raised: dict[str, list[str]] = field(default_factory=dict)
    dynamic: list[str] = field(default_factory=list)


def _name(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _classes(trees: Mapping[str, ast.Module]) -> tuple[set[str], dict[str, tuple[str, str]]]:
    """(classes whose ``__init__`` takes ``code`` first, class -> (fixed code, place))."""
    takes: set[str] = set()
    fixed: dict[str, tuple[str, str]] = {}
    for where, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    params = item.args.args
                    if len(params) > 1 and params[1].arg == "code":
                        takes.add(node.name)
                targets = (
                    item.targets
                    if isinstance(item, ast.Assign)
                    else [item.target]
                    if isinstance(item, ast.AnnAssign)
                    else []
                )
                value = getattr(item, "value", None)
                if any(isinstance(t, ast.Name) and t.id == "code" for t in targets):
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        if value.value:
                            fixed[node.name] = (value.value, f"{where}:{item.lineno}")
    return takes, fixed


def scan(sources: Mapping[str, str]) -> Scan:
    """Every refusal code raised in ``sources`` (place -> Python text)."""
    trees = {where: ast.parse(text) for where, text in sources.items()}
    takes, fixed = _classes(trees)
    found = Scan()
    for code, where in fixed.values():
        found.raised.setdefault(code, []).append(where)
    for where, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node)
            if name not in takes and name != "error_text":
                continue
            first = node.args[0] if node.args else None
            first = next((k.value for k in node.keywords if k.arg == "code"), first)
            place = f"{where}:{node.lineno}"
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.raised.setdefault(first.value, []).append(place)
            elif name != "error_text":
                found.dynamic.append(f"{place}: {ast.unparse(node)[:80]}")
    return found


def problems(found: Scan, table: Mapping[str, str]) -> list[str]:
    """Everything wrong between the raised codes and the message table, one line each."""
    out = [
        f"code {c!r} raised without a message ({found.raised[c][0]})"
        for c in found.raised
        if c not in table
    ]
    out += [f"message for {c!r}, which nothing raises" for c in table if c not in found.raised]
    counts = Counter(table.values())
    out += [f"code {c!r} shares its msgid {m!r}" for c, m in table.items() if counts[m] > 1]
    out += [f"a code that is not a literal: {d}" for d in found.dynamic]
    return out


def project_sources() -> dict[str, str]:
    """The product's Python files, by path."""
    return {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def test_every_code_has_one_sentence_and_every_sentence_a_code() -> None:
    """The codes raised in engine/, maps/, bot/ and cogs/ and the sentences of words.ERRORS are
    the same set, with one sentence per code."""
    found = scan(project_sources())
    assert problems(found, ERRORS) == []
    assert len(found.raised) > 60, sorted(found.raised)  # the scan sees the whole project


def test_the_check_fails_on_planted_defects() -> None:
    """A code without a message, a message without a code, two codes with one msgid and a code
    that is not a literal are each reported."""
    sources = {
        "refusal.py": (
            "class Refused(Exception):\n"
            "    def __init__(self, code, detail=None):\n"
            "        self.code = code\n"
            "class Gone(Exception):\n"
            "    code = 'gone'\n"
        ),
        "use.py": (
            "def f(x):\n"
            "    raise Refused('no_sentence')\n"
            "def g(x):\n"
            "    raise Refused(x)\n"
            "def h():\n"
            "    raise Refused(code='twice_a')\n"
            "def i():\n"
            "    return Refused('twice_b')\n"
        ),
    }
    table = {"gone": "Gone.", "twice_a": "Same.", "twice_b": "Same.", "unused": "Nobody."}
    found = problems(scan(sources), table)
    assert any("'no_sentence' raised without a message (use.py:2)" in p for p in found), found
    assert any("message for 'unused'" in p for p in found), found
    assert sum("shares its msgid 'Same.'" in p for p in found) == 2, found
    assert any("not a literal: use.py:4" in p for p in found), found
    assert not any("'gone'" in p for p in found), found  # a fixed class code counts as raised
    assert problems(scan({"ok.py": sources["refusal.py"]}), {"gone": "Gone."}) == []


REFUSALS = [
    IllegalAction("not_your_turn"),
    SetupError("player_count", {"min": 2, "max": 5}),
    ServiceError("game_full", {"max": 5}),
    CogError("no_game"),
    BadComponentId("unknown_component", "nonsense"),
    GameNotFound(3),
    SeatNotFound(3, 1),
    SeatTaken(3, "seat 1 is taken"),
    ChannelBusy(10, 3),
    VersionConflict(3, 4, 5),
    GameStatusError(3, "finished", "only an active game takes actions"),
    UnknownMap("atlantis", ["usa", "germany"]),
]


@pytest.mark.parametrize("error", REFUSALS, ids=lambda e: type(e).__name__)
def test_every_refusal_class_speaks_the_protocol(error: Exception) -> None:
    """Each kind of refusal (engine, service, storage, maps, cogs) is recognised by its code and
    facts alone, and its code has a sentence that uses those facts."""
    found = refusal(error)
    assert found is error and found.code in ERRORS
    text = error_text(found.code, words_for("en"), found.detail)
    assert "{" not in text, text  # every placeholder of the sentence is filled


def test_unexpected_errors_are_not_refusals() -> None:
    """Errors not raised on purpose (no code, a number for a code, no facts) are logged, not
    told as a refusal."""

    class HttpError(Exception):  # like discord.HTTPException: an int code, no detail
        code = 50013

    class NoFacts(Exception):
        code = "not_your_turn"

    for error in (ValueError("x"), KeyError("y"), HttpError(), NoFacts(), StorageUnavailable("z")):
        assert refusal(error) is None, error
    assert issubclass(VersionConflict, StorageRefusal)


def test_every_code_has_both_languages() -> None:
    """Each code raised on purpose has an English and a German sentence."""
    for code in scan(project_sources()).raised:
        assert error_text(code, words_for("de")) != error_text(code, words_for("en")), code
