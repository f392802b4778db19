"""The learned noun-modifier lexicon: is "stone" in "stone wall" part of the name, an attribute,
or nothing?

WordNet lists "stone wall", "tennis racket" and "city street" alike, yet annotators write a
wall that is stone, a tennis racket, and a street. The lexicon in ``data/modifier_roles.json`` was
learned from FACTUAL's annotated captions (its training rows only; the held-out slice and dev
are never read) by :func:`crepe_datasets.validation.modifier_roles.learn_modifier_roles`;
``scripts/learn_modifier_roles.py`` rebuilds it. The rules of :mod:`.compounds` and
:func:`.words.compound_role` ask it first and fall back to WordNet where it has no entry.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

LEXICON_PATH = Path(__file__).with_name("data") / "modifier_roles.json"
ROLES = frozenset({"compound", "attribute", "drop"})


@functools.lru_cache(maxsize=1)
def _lexicon() -> tuple[dict[str, str], dict[str, str]]:
    data = json.loads(LEXICON_PATH.read_text(encoding="utf-8"))
    return data["modifiers"], data["pairs"]


@functools.lru_cache(maxsize=100_000)
def learned_role(modifier: str, head: str) -> str | None:
    """``"compound"``, ``"attribute"``, ``"drop"``, or None when the lexicon has no entry.

    Args:
        modifier: the modifier words, lower case ("stone", "chain link").
        head: the head noun's lemma ("wall").
    """
    modifiers, pairs = _lexicon()
    key = " ".join(modifier.split())
    return pairs.get(f"{key}|{head.replace(' ', '')}") or modifiers.get(key)
