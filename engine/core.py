"""The integer core, compiled where it can be: see :mod:`engine.integer_core` for what it is.

This module loads ``engine/integer_core.py`` as compiled by mypyc when the
install built it (``pip install`` does, where a C compiler is present) **and**
that build was made from the source as it is now (the build leaves the
source's SHA-256 in ``integer_core.built``); otherwise it runs the source
itself, so an edit never hides behind a stale build. :data:`COMPILED` says
which one runs. Import the core from here.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

_HERE = Path(__file__).parent
SOURCE = _HERE / "integer_core.py"
STAMP = _HERE / "integer_core.built"


def build_is_current(source: Path = SOURCE, stamp: Path = STAMP) -> bool:
    """True when a compiled build exists and was made from ``source`` as it is now."""
    name = source.stem
    built = any(stamp.parent.glob(f"{name}.*.so")) or any(stamp.parent.glob(f"{name}.*.pyd"))
    if not built or not stamp.exists():
        return False
    return (
        stamp.read_text(encoding="ascii").strip() == hashlib.sha256(source.read_bytes()).hexdigest()
    )


def _load() -> tuple[ModuleType, bool]:
    if "engine.integer_core" in sys.modules:
        module = sys.modules["engine.integer_core"]
        return module, not str(getattr(module, "__file__", "")).endswith(".py")
    if build_is_current():
        try:
            module = importlib.import_module("engine.integer_core")
            return module, not str(module.__file__).endswith(".py")
        except ImportError:  # a build for another interpreter: run the source
            sys.modules.pop("engine.integer_core", None)
    spec = importlib.util.spec_from_file_location("engine.integer_core", SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["engine.integer_core"] = module
    spec.loader.exec_module(module)
    return module, False


if TYPE_CHECKING:
    from .integer_core import (
        FINISHED,
        PLAY,
        SECOND_CARD,
        SETUP,
        TUNNEL,
        TURN,
        Core,
        CoreTable,
        core_table,
    )

    COMPILED: bool
else:
    _module, COMPILED = _load()
    Core = _module.Core
    CoreTable = _module.CoreTable
    core_table = _module.core_table
    SETUP, PLAY, FINISHED = _module.SETUP, _module.PLAY, _module.FINISHED
    TURN, SECOND_CARD, TUNNEL = _module.TURN, _module.SECOND_CARD, _module.TUNNEL

__all__ = [
    "COMPILED",
    "FINISHED",
    "PLAY",
    "SECOND_CARD",
    "SETUP",
    "TUNNEL",
    "TURN",
    "Core",
    "CoreTable",
    "core_table",
]
