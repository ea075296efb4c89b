"""Preflight: read any PDF and judge it, check by check (page walk, PDF/X, cut checks)."""
