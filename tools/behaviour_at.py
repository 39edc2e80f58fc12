"""The behaviour digest of the code at a git commit: ``python tools/behaviour_at.py COMMIT``.

Checks out that commit's ``engine/`` and ``maps/`` (``git archive``) into a
temporary folder and computes there, in a fresh interpreter that imports only
that tree, both the source digest that stamped AI records before behaviour
digests existed (``benchmarks.ai.code_digest``: SHA-256 of the ``.py`` and
``.json`` files of ``engine/`` and ``maps/``) and the behaviour digest of each
map (:mod:`benchmarks.behaviour`, this checkout's version, run against the
old code; the old integer core runs as plain Python there, which plays the
same games as its build). Prints one JSON object::

    {"commit": "...", "code": "342260acd26be420", "behaviour": {"usa": "...", ...}}

This is how ``benchmarks/results/behaviour-of-code.json`` was made and how
anyone can check it (about a minute per map on one core).

Options: ``--maps usa,paris`` (default: the five maps of the AI record),
``--workers K`` (processes, default 2).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import hashlib, json, sys
from pathlib import Path
import engine, maps
root = Path(sys.argv[1])
assert Path(engine.__file__).resolve().is_relative_to(root), engine.__file__
digest = hashlib.sha256()
for package in (engine, maps):
    base = Path(package.__file__).parent
    for path in sorted(base.rglob("*")):
        if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(base.parent).as_posix().encode())
            digest.update(path.read_bytes())
from behaviour_probe import behaviour_digests
found = behaviour_digests(sys.argv[2].split(","), workers=int(sys.argv[3]))
print(json.dumps({"code": digest.hexdigest()[:16], "behaviour": found}))
"""


def main(argv: list[str]) -> int:
    """Print the commit's source and behaviour digests as one JSON line; 0 on success."""
    ap = argparse.ArgumentParser(prog="python tools/behaviour_at.py")
    ap.add_argument("commit")
    ap.add_argument("--maps", default="usa,germany,nordic,amsterdam,paris")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{args.commit}^{{commit}}"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "archive", commit, "engine", "maps"], cwd=ROOT, check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        shutil.copy(ROOT / "benchmarks" / "behaviour.py", Path(tmp) / "behaviour_probe.py")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["PYTHONPATH"] = tmp
        out = subprocess.run(
            [sys.executable, "-c", PROBE, tmp, args.maps, str(args.workers)],
            cwd=tmp,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    found = json.loads(out.strip().splitlines()[-1])
    print(json.dumps({"commit": commit, **found}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
