# syntax=docker/dockerfile:1
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine engine
COPY maps maps
COPY render render
COPY bot bot
COPY cogs cogs
COPY benchmarks benchmarks
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 \
    TTR_DATABASE_PATH=/data/ttr.sqlite3 TTR_LOG_LEVEL=INFO
RUN useradd --create-home --uid 10001 ttr && mkdir /data && chown ttr /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER ttr
WORKDIR /home/ttr
VOLUME ["/data"]
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "health"]
CMD ["python", "-m", "bot", "run"]
