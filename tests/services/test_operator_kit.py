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
