"""cogs/ttr package."""
