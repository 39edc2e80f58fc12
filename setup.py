"""Build hook: compile the integer core (engine/integer_core.py) with mypyc where possible.

Everything else is in pyproject.toml. Without mypy's compiler or a C compiler
the build goes on without the extension and the core runs as plain Python
(``engine.core.COMPILED`` is then False); nothing else changes.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

CORE = Path(__file__).parent / "engine" / "integer_core.py"


def _extensions() -> list[Any]:
    if not CORE.exists():  # a build of the dependencies only (the Dockerfile's first layer)
        return []
    try:
        from mypyc.build import mypycify

        return list(mypycify([str(CORE.relative_to(Path(__file__).parent))], opt_level="3"))
    except Exception as exc:  # no mypyc, or it cannot compile: the source runs as it is
        print(f"ttrbot: the integer core stays pure Python ({exc})")
        return []


class OptionalBuildExt(build_ext):
    """build_ext that never fails the install and stamps a finished build with the
    source's SHA-256 (engine.core runs a build only when the stamp matches)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no C compiler, a compile error: run the source
            print(f"ttrbot: the integer core stays pure Python ({exc})")
            return
        for ext in self.extensions:
            if ext.name.endswith("integer_core"):
                stamp = Path(self.get_ext_fullpath(ext.name)).parent / "integer_core.built"
                stamp.write_text(hashlib.sha256(CORE.read_bytes()).hexdigest() + "\n")


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
