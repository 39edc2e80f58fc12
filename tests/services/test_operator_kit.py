"""The operator kit, checked structurally (docker cannot run here): docker-compose.yml runs
PostgreSQL and two bot processes on complementary shard ranges with health checks and a volume;
the image carries the PostgreSQL driver and every package; .env.example names every setting."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from bot.process.config import Settings, parse_shard_ids

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> dict[str, Any]:
    doc = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def test_compose_runs_postgres_and_bots_on_complementary_shard_ranges() -> None:
    services = _compose()["services"]
    db = services["db"]
    assert db["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    # the default set: the services of an optional profile start only when asked for
    bots = {n: s for n, s in services.items() if n != "db" and "profiles" not in s}
    assert len(bots) >= 2
    count = None
    covered: list[int] = []
    for name, bot in bots.items():
        env = bot["environment"]
        assert env["TTR_DATABASE_URL"].startswith("postgresql://"), name
        assert "@db:5432/" in env["TTR_DATABASE_URL"], name
        count = count or int(env["TTR_SHARD_COUNT"])
        assert int(env["TTR_SHARD_COUNT"]) == count, name
        covered += parse_shard_ids(env["TTR_SHARD_IDS"], count)
        assert bot["healthcheck"]["test"] == ["CMD", "python", "-m", "bot", "health"], name
        assert bot["depends_on"]["db"]["condition"] == "service_healthy", name
        assert bot["restart"] == "unless-stopped" and "build" in bot, name
        # the settings a bot reads from this environment are valid
        settings = Settings.from_env({k: str(v) for k, v in env.items()}, env_file=None)
        assert settings.shards is not None and not settings.uses_sqlite
    assert sorted(covered) == list(range(count or 0)), "each shard runs in exactly one process"


def test_compose_keeps_the_database_in_a_named_volume() -> None:
    doc = _compose()
    volumes = doc["services"]["db"]["volumes"]
    named = [v.split(":", 1)[0] for v in volumes]
    assert all(n in doc["volumes"] for n in named) and named
    assert any(v.endswith(":/var/lib/postgresql/data") for v in volumes)
    password = doc["services"]["db"]["environment"]["POSTGRES_PASSWORD"]
    assert password.startswith("${POSTGRES_PASSWORD:?"), "no default password in the file"


def test_compose_offers_sqlite_with_litestream_as_an_option() -> None:
    """Optional profiles: one bot on SQLite in a named volume, and Litestream replicating that
    same file with the repository's litestream.yml (Litestream is no dependency of the bot)."""
    doc = _compose()
    services = doc["services"]
    bot, stream = services["bot-sqlite"], services["litestream"]
    assert "litestream" in bot["profiles"] and stream["profiles"] == ["litestream"]
    settings = Settings.from_env({k: str(v) for k, v in bot["environment"].items()}, env_file=None)
    assert settings.uses_sqlite and settings.shards is None
    volume, mount = bot["volumes"][0].split(":")
    assert volume in doc["volumes"] and settings.database_path.parent == Path(mount)
    assert f"{volume}:{mount}" in stream["volumes"]
    assert bot["healthcheck"]["test"] == ["CMD", "python", "-m", "bot", "health"]
    assert stream["image"].startswith("litestream/litestream:")
    assert stream["command"][0] == "replicate" and stream["depends_on"] == ["bot-sqlite"]
    config_mount = next(v for v in stream["volumes"] if v.startswith("./litestream.yml:"))
    config_path = config_mount.split(":")[1]
    assert stream["command"][1:] == ["-config", config_path]
    config = yaml.safe_load((ROOT / "litestream.yml").read_text(encoding="utf-8"))
    (db,) = config["dbs"]
    assert Path(db["path"]) == settings.database_path
    assert db["replicas"][0]["url"] == "${LITESTREAM_REPLICA_URL}"
    assert "LITESTREAM_REPLICA_URL" in stream["environment"]
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8").lower()
    assert "litestream" not in pyproject


def test_the_image_has_the_postgres_driver_and_every_package() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "'.[postgres]'" in dockerfile
    packages = re.search(r"include = \[(.*?)\]", (ROOT / "pyproject.toml").read_text()).group(1)  # type: ignore[union-attr]
    for name in re.findall(r'"(\w+)\*"', packages):
        assert f"COPY {name} {name}" in dockerfile, name
    assert "HEALTHCHECK" in dockerfile and 'CMD ["python", "-m", "bot"]' in dockerfile


def test_env_example_names_every_setting() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    source = (ROOT / "bot" / "process" / "config.py").read_text(encoding="utf-8")
    read = set(re.findall(r'get\("((?:TTR|DISCORD)_[A-Z_]+)"\)', source))
    assert {"TTR_DATABASE_URL", "TTR_SHARD_COUNT", "TTR_SHARD_IDS"} <= read
    for name in read | {"TTR_LOG_FORMAT", "POSTGRES_PASSWORD"}:
        assert re.search(rf"^{name}=", example, re.M), name


def test_a_configuration_error_in_the_container_waits_instead_of_restarting() -> None:
    """The image runs the bot with TTR_ON_CONFIG_ERROR=wait: a missing or refused token or a
    bad setting leaves the container running and unhealthy instead of exiting, so compose's
    ``restart: unless-stopped`` has nothing to restart in a loop; no compose service overrides
    that, and the image needs no ``--init`` (the bot takes SIGTERM itself)."""
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^ENV [^#]*\bTTR_ON_CONFIG_ERROR=wait\b", dockerfile, re.M | re.S)
    assert "tini" not in dockerfile and "dumb-init" not in dockerfile
    for name, service in _compose()["services"].items():
        if service.get("build") != ".":
            continue
        assert service["restart"] == "unless-stopped", name
        assert "TTR_ON_CONFIG_ERROR" not in service.get("environment", {}), name
        assert not service.get("init"), name
        assert service.get("stop_grace_period") in (None, "10s"), name
    example = (ROOT / ".env.example").read_text(encoding="utf-8")  # compose's env_file
    assert not re.search(r"^TTR_ON_CONFIG_ERROR=", example, re.M), "it would undo the image's"


# -- the build context ---------------------------------------------------------------------


def docker_ignore_rules(text: str) -> list[tuple[bool, re.Pattern[str]]]:
    """The rules of a .dockerignore as Docker reads them: ``(is an exception, pattern)`` in
    order; ``*`` and ``?`` stay within one path element, ``**`` spans any number of them,
    a leading ``/`` is dropped (moby's patternmatcher)."""
    rules = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        exception = line.startswith("!")
        line = line.removeprefix("!").strip().strip("/")
        regex, i = "", 0
        while i < len(line):
            ch = line[i]
            if line.startswith("**", i):
                i += 2
                if line.startswith("/", i):
                    i += 1
                regex += ".*" if i == len(line) else "(.*/)?"
                continue
            if ch == "*":
                regex += "[^/]*"
            elif ch == "?":
                regex += "[^/]"
            elif ch == "[":
                end = line.index("]", i)
                regex += line[i : end + 1]
                i = end
            else:
                regex += re.escape(ch)
            i += 1
        rules.append((exception, re.compile(regex + r"\Z")))
    return rules


def docker_ignores(rules: list[tuple[bool, re.Pattern[str]]], path: str) -> bool:
    """Whether Docker leaves ``path`` (relative, with ``/``) out of the build context: the last
    rule that matches the path or one of its parent folders decides."""
    parts = path.split("/")
    candidates = [path] + ["/".join(parts[: i + 1]) for i in range(len(parts) - 1)]
    ignored = False
    for exception, pattern in rules:
        if exception != ignored:  # an exception only matters for what is left out, and back
            continue
        if any(pattern.match(c) for c in candidates):
            ignored = not exception
    return ignored


def _dockerignore() -> list[tuple[bool, re.Pattern[str]]]:
    return docker_ignore_rules((ROOT / ".dockerignore").read_text(encoding="utf-8"))


def test_the_matcher_reads_dockers_rules() -> None:
    """Planted rules: everything out, a folder back in, its host builds out again."""
    rules = docker_ignore_rules("# c\n*\n!pkg\n!top.toml\npkg/*.so\n**/__pycache__\n/**/*.key\n")
    assert docker_ignores(rules, "other.txt") and docker_ignores(rules, "other/a/b.py")
    assert not docker_ignores(rules, "pkg/a.py") and not docker_ignores(rules, "pkg/sub/a.json")
    assert not docker_ignores(rules, "top.toml")
    assert docker_ignores(rules, "pkg/core.so") and not docker_ignores(rules, "pkg/sub/core.so")
    assert docker_ignores(rules, "pkg/__pycache__/a.pyc")
    assert docker_ignores(rules, "pkg/deep/x.key") and docker_ignores(rules, "pkg/x.key")
    assert not docker_ignores(docker_ignore_rules("a?c\n"), "a/c")


def _copied_sources() -> list[str]:
    """What the Dockerfile COPYs from the build context (not from another stage)."""
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    sources: list[str] = []
    for line in re.findall(r"^COPY\s+(.+)$", dockerfile, re.M):
        words = line.split()
        if any(w.startswith("--from") for w in words):
            continue
        sources += [w for w in words[:-1] if not w.startswith("--")]
    return sources


def test_the_build_context_holds_everything_the_image_copies() -> None:
    """Every file of the repository under what the Dockerfile COPYs is sent, package data
    (maps, fonts, catalogs, migrations) included."""
    import subprocess

    rules = _dockerignore()
    sources = _copied_sources()
    assert {"pyproject.toml", "setup.py", "engine", "bot", "maps", "words", "render"} <= set(
        sources
    )
    tracked = subprocess.run(
        ["git", "ls-files", "--", *sources], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert len(tracked) > 100
    left_out = [path for path in tracked if docker_ignores(rules, path)]
    assert left_out == []
    for needed in (
        "maps/usa/map.json",
        "render/fonts/DejaVuSans.ttf",
        "words/locale/de/LC_MESSAGES/ttrbot.po",
        "bot/host/storage/migrations/postgres",
        "engine/integer_core.py",
    ):
        assert (ROOT / needed).exists() and not docker_ignores(rules, needed), needed
    migrations = [p for p in tracked if p.startswith("bot/host/storage/migrations/")]
    assert any(p.endswith(".sql") for p in migrations)


def test_the_build_context_leaves_out_secrets_data_and_host_builds() -> None:
    rules = _dockerignore()
    for path in (
        ".git/config",
        ".env",
        "bot/.env",
        ".env.production",
        "server.pem",
        "bot/deploy.key",
        "data/ttr.sqlite3",
        "data/ttr.db",
        "bot/ttr.sqlite3-wal",
        "out/demo/final.png",
        "build/lib/engine/core.py",
        "engine/integer_core.cpython-311-x86_64-linux-gnu.so",
        "integer_core__mypyc.cpython-311-x86_64-linux-gnu.so",
        "engine/integer_core.built",
        "engine/__pycache__/core.cpython-311.pyc",
        "ttrbot.egg-info/PKG-INFO",
        ".venv/bin/python",
        ".mypy_cache/3.11/x.json",
        "tests/test_structure.py",
        "tools/make_layout.py",
        "docs/images/usa/board.png",
    ):
        assert docker_ignores(rules, path), path
