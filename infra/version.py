"""Version of the toolkit; written into every build manifest."""

__version__ = "0.1.0"
