"""engine/ai package."""
