"""bot/storage package."""
