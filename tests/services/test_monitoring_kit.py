"""The monitoring kit, checked structurally (docker cannot run here): docker-compose.yml's
``metrics`` profile starts Prometheus and Grafana beside the bots; Prometheus scrapes every bot
process on the port the bot is told to serve; Grafana gets that Prometheus as its data source
and the repository's dashboard; and every series the dashboard queries is one the bot's
``/metrics`` serves (bot/process/metrics.py), under the name and type the query assumes."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import yaml
from prometheus_client.parser import text_string_to_metric_families

from bot.host.storage import open_storage
from bot.process.config import Settings
from bot.process.health import Health
from bot.process.metrics_server import MetricsServer

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "monitoring" / "grafana" / "dashboards" / "ttrbot.json"
#: Series Prometheus makes itself (not the bot's): whether a target could be scraped.
PROMETHEUS_OWN = {"up"}
_NAME = re.compile(r"([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{")
_BARE = re.compile(r"\b((?:ttr|process|python)_[a-zA-Z0-9_]*)\b(?!\s*\{)")


def _yaml(path: Path) -> dict[str, Any]:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(doc, dict), path
    return doc


def _compose() -> dict[str, Any]:
    return _yaml(ROOT / "docker-compose.yml")


def _bots(services: dict[str, Any]) -> dict[str, Any]:
    """The bot processes: the services of the bot's image."""
    return {n: s for n, s in services.items() if str(s.get("image", "")).startswith("ttrbot:")}


def _mounts(service: dict[str, Any]) -> dict[str, str]:
    """Container path -> the repository path of each bind mount (``./...``)."""
    out = {}
    for volume in service.get("volumes", []):
        source, target = volume.split(":")[:2]
        if source.startswith("./"):
            out[target] = source
    return out


def _dashboard() -> dict[str, Any]:
    doc = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def _queries(dashboard: dict[str, Any]) -> Iterator[str]:
    for panel in dashboard["panels"]:
        for target in panel["targets"]:
            yield target["expr"]
    for variable in dashboard["templating"]["list"]:
        yield variable["query"]["query"]


def test_the_metrics_profile_starts_prometheus_and_grafana_beside_the_bots() -> None:
    services = _compose()["services"]
    prometheus, grafana = services["prometheus"], services["grafana"]
    assert prometheus["profiles"] == ["metrics"] and grafana["profiles"] == ["metrics"]
    assert prometheus["image"].startswith("prom/prometheus:v")
    assert grafana["image"].startswith("grafana/grafana:")
    assert grafana["depends_on"] == ["prometheus"]
    for service in (prometheus, grafana):
        assert all(p.startswith("127.0.0.1:") for p in service["ports"]), "not published wide"
        for source in _mounts(service).values():
            assert (ROOT / source).exists(), source
    assert "--config.file=/etc/prometheus/prometheus.yml" in prometheus["command"]
    assert _mounts(prometheus)["/etc/prometheus/prometheus.yml"] == "./monitoring/prometheus.yml"
    password = grafana["environment"]["GF_SECURITY_ADMIN_PASSWORD"]
    assert password.startswith("${GRAFANA_ADMIN_PASSWORD"), "set from .env"
    volumes = _compose()["volumes"]
    for service in (prometheus, grafana):
        named = [v.split(":")[0] for v in service["volumes"] if not v.startswith("./")]
        assert named and all(n in volumes for n in named), "the data outlives the container"


def test_prometheus_scrapes_every_bot_on_the_port_it_serves() -> None:
    services = _compose()["services"]
    bots = _bots(services)
    assert len(bots) >= 2
    (job,) = _yaml(ROOT / "monitoring" / "prometheus.yml")["scrape_configs"]
    assert job["job_name"] == "ttrbot" and job.get("metrics_path", "/metrics") == "/metrics"
    (found,) = job["dns_sd_configs"]
    assert set(found["names"]) == set(bots), "every bot service is scraped, nothing else"
    for name, bot in bots.items():
        env = {k: str(v) for k, v in bot["environment"].items()}
        settings = Settings.from_env(env, env_file=None)
        assert settings.metrics_port == found["port"], name
        assert settings.metrics_host == "0.0.0.0", f"{name}: reachable from Prometheus"
    (relabel,) = job["relabel_configs"]
    assert relabel["target_label"] == "instance", "the dashboard's process picker"


def test_grafana_is_provisioned_with_that_prometheus_and_the_dashboard() -> None:
    grafana = _compose()["services"]["grafana"]
    mounts = _mounts(grafana)
    provisioning = ROOT / mounts["/etc/grafana/provisioning"]
    (source,) = _yaml(provisioning / "datasources" / "prometheus.yml")["datasources"]
    assert source["type"] == "prometheus" and source["url"] == "http://prometheus:9090"
    (provider,) = _yaml(provisioning / "dashboards" / "ttrbot.yml")["providers"]
    folder = provider["options"]["path"]
    assert ROOT / mounts[folder] == DASHBOARD.parent
    home = grafana["environment"]["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"]
    assert home == f"{folder}/{DASHBOARD.name}"
    dashboard = _dashboard()
    assert dashboard["uid"] and dashboard["title"]
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids)), "panel ids are unique"
    for panel in dashboard["panels"]:
        assert panel["datasource"]["uid"] == source["uid"], panel["title"]
        assert panel["targets"] and all(
            t["datasource"]["uid"] == source["uid"] for t in panel["targets"]
        )
        grid = panel["gridPos"]
        assert grid["x"] + grid["w"] <= 24 and grid["w"] > 0 and grid["h"] > 0, panel["title"]
    (variable,) = dashboard["templating"]["list"]
    assert variable["datasource"]["uid"] == source["uid"]


async def test_every_series_the_dashboard_queries_is_served_by_the_bot(tmp_path: Path) -> None:
    """The names in the dashboard's queries against the bot's own /metrics (served in this
    process over HTTP, the database counted): each is a sample of the type the query needs
    (``_bucket`` of a histogram, ``_total`` of a counter)."""
    server = MetricsServer(Health(), "127.0.0.1", 0)
    storage = await open_storage(f"sqlite:///{tmp_path / 'ttr.sqlite3'}")
    await server.start()
    try:
        server.watch(storage)
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"http://127.0.0.1:{server.port}/metrics") as r,
        ):
            text = await r.text()
    finally:
        await server.close()
        await storage.close()
    served: set[str] = set()
    for family in text_string_to_metric_families(text):
        suffixes = {
            "histogram": ("_bucket", "_count", "_sum"),
            "counter": ("_total",),
        }.get(family.type, ("",))
        served.update(family.name + s for s in suffixes)
    queried = set()
    for query in _queries(_dashboard()):
        assert not _BARE.findall(query), f"name every series with a selector: {query}"
        queried.update(_NAME.findall(query))
    assert {"ttr_games", "ttr_actions_total", "ttr_interaction_seconds_bucket"} <= queried
    missing = queried - served - PROMETHEUS_OWN
    assert not missing, f"the dashboard queries series the bot does not serve: {missing}"
    unused = {n for n in served if n.startswith("ttr_") and not n.endswith(("_count", "_sum"))}
    unused -= queried
    assert not unused, f"metrics no panel shows: {unused}"
