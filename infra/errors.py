"""Errors a user can fix: one sentence naming the file, the record and the fix.

The command line prints these without a traceback; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations


class CrepeInputError(ValueError):
    """Bad input that the user can fix (a missing file, an unreadable format, an empty corpus)."""


class MissingResourceError(RuntimeError):
    """A language resource (spaCy pipeline, WordNet, a model) is not installed; the message says how."""


class FailedChecksError(CrepeInputError):
    """A build whose invariant or audit checks failed; written only with ``--allow-failed-checks``."""
