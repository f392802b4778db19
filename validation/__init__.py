"""Checks of parsers and built datasets: FACTUAL parser scores, row invariants, text-only
shortcut audits."""
