"""engine/rules package."""
