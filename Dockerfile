# syntax=docker/dockerfile:1
# The same install as .ci/run (pip from the package registry into a virtual
# environment, from pyproject.toml), without the test extras but with the
# PostgreSQL driver (the postgres extra), so one image serves both backends:
# SQLite in the /data volume by default, TTR_DATABASE_URL=postgresql://... to
# share a database between processes (docker-compose.yml).
FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TTR_DATABASE_PATH=/data/ttr.sqlite3 TTR_LOG_LEVEL=INFO PATH=/opt/venv/bin:$PATH
WORKDIR /app

# 1. dependencies in their own layer: only pyproject.toml and empty packages
COPY pyproject.toml README.md ./
RUN for p in engine maps render bot cogs words benchmarks; do mkdir -p $p && touch $p/__init__.py; done \
 && python3 -m venv /opt/venv && /opt/venv/bin/pip install -q '.[postgres]' \
 && /opt/venv/bin/pip uninstall -q -y ttrbot

# 2. the code
COPY engine engine
COPY maps maps
COPY render render
COPY bot bot
COPY cogs cogs
COPY words words
COPY benchmarks benchmarks
# compiles the integer core where a C compiler is present (not in the slim image: it runs as Python)
COPY setup.py ./
RUN /opt/venv/bin/pip install -q --no-deps '.[postgres]' \
 && useradd --create-home --uid 10001 ttr && mkdir -p /data && chown ttr /data

USER ttr
WORKDIR /home/ttr
VOLUME ["/data"]
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "health"]
CMD ["python", "-m", "bot"]
