"""Preflight: read any PDF and judge it, check by check (the page walk, the checks, PDF/X)."""
