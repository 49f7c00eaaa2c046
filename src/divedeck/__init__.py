"""divedeck: the digital box for four small underwater card games."""

__version__ = "0.1.0"
