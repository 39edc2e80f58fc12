"""maps package."""
