"""The version of tokengen, on the ground floor so every module may read it."""

__version__ = "0.1.0"
