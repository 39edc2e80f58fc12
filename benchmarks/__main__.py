"""Run a benchmark on demand: ``python -m benchmarks engine|render|turn|crash|load|ai|memory|analysis|web [--json]``.

Each prints a table; with ``--json`` the last line is one JSON object. Never
part of the test run.
"""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = {
    "engine": "benchmarks.engine",
    "render": "benchmarks.render",
    "turn": "benchmarks.turn",
    "crash": "benchmarks.crash",
    "load": "benchmarks.load",
    "ai": "benchmarks.ai",
    "memory": "benchmarks.memory",
    "analysis": "benchmarks.analysis",
    "web": "benchmarks.web",
}


def main(argv: list[str]) -> int:
    """Dispatch to ``benchmarks.<name>.main(rest)``; exit code 2 on an unknown name."""
    if not argv or argv[0] not in BENCHMARKS:
        print(f"usage: python -m benchmarks {{{'|'.join(BENCHMARKS)}}} [--json]", file=sys.stderr)
        return 2
    try:
        module = importlib.import_module(BENCHMARKS[argv[0]])
    except ModuleNotFoundError as exc:
        print(f"benchmark {argv[0]!r} is not available: {exc}", file=sys.stderr)
        return 2
    return int(module.main(argv[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
