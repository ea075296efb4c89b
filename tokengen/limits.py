"""Default limits per run (issue: hostile input), in a module of their own so the command line
can show them without importing the builder. Both can be raised on the command line."""

#: Most tokens one build places (``--max-tokens``).
MAX_TOKENS = 200_000
#: Most pages one build writes (``--max-pages``).
MAX_PAGES = 5_000
