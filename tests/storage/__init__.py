"""Tests of bot.host.storage on real SQLite files."""
