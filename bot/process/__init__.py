"""The process around the bot: settings, start-up and shutdown, health, logs,
memory tuning and metrics."""
