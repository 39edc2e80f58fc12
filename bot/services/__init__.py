"""bot/services package."""
