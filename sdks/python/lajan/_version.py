"""The library's version, as its User-Agent names it."""

__version__ = "2.0.0"
