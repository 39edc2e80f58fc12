# syntax=docker/dockerfile:1
# The same install as .ci/run (pip from the package registry into a virtual
# environment, from pyproject.toml), without the test extras but with the
# PostgreSQL driver (the postgres extra), so one image serves both backends:
# SQLite in the /data volume by default, TTR_DATABASE_URL=postgresql://... to
# share a database between processes (docker-compose.yml).
#
# Two stages: the build stage (the full Python image, which has a C compiler)
# installs everything and compiles the integer core with mypyc; the image that
# runs takes only the finished virtual environment, so the hard AI's rollouts
# run compiled without a compiler in the image. Both stages use the same Python.
ARG PYTHON=3.11

FROM python:${PYTHON} AS build
ENV PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

# 1. dependencies in their own layer: only pyproject.toml and empty packages
COPY pyproject.toml README.md ./
RUN for p in engine maps render bot cogs words sentences web benchmarks; do mkdir -p $p && touch $p/__init__.py; done \
 && python3 -m venv /opt/venv && /opt/venv/bin/pip install -q '.[postgres]' \
 && /opt/venv/bin/pip uninstall -q -y ttrbot

# 2. the code; setup.py compiles the integer core, and the build stops if it did not
COPY engine engine
COPY maps maps
COPY render render
COPY bot bot
COPY cogs cogs
COPY words words
COPY sentences sentences
COPY web web
COPY benchmarks benchmarks
COPY setup.py ./
RUN /opt/venv/bin/pip install -q --no-deps '.[postgres]' \
 && cd / && /opt/venv/bin/python -c "import sys, engine.core; sys.exit(not engine.core.COMPILED)"

# The bot is PID 1 and needs no --init: its first act is to take SIGTERM and SIGINT, so a
# stop at any moment ends it within a second or two. A configuration error (no token, a token
# Discord refuses, a setting that does not parse) leaves the container running, unhealthy
# and idle, saying why every 10 minutes (TTR_ON_CONFIG_ERROR=wait), instead of an exit that
# the restart policy would repeat in a loop: docs/operators/container.md.
FROM python:${PYTHON}-slim
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 \
    TTR_DATABASE_PATH=/data/ttr.sqlite3 TTR_LOG_LEVEL=INFO PATH=/opt/venv/bin:$PATH \
    TTR_ON_CONFIG_ERROR=wait
COPY --from=build /opt/venv /opt/venv
RUN useradd --create-home --uid 10001 ttr && mkdir -p /data && chown ttr /data

USER ttr
WORKDIR /home/ttr
VOLUME ["/data"]
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "health"]
CMD ["python", "-m", "bot"]
