"""Tests of bot.storage on real SQLite files."""
