"""An exact, fast stand-in for spaCy's ``attribute_ruler`` for the labels the parser reads.

In the English pipelines the ``attribute_ruler`` maps fine-grained tags to coarse POS
(``NN`` -> ``NOUN``) and applies a few exceptions (``TAG=IN, DEP=mark`` -> ``SCONJ``; "there
is" -> ``VERB``). It does so with a ``Matcher`` over all of its patterns, which costs about a
third of the whole ``en_core_web_sm`` pipeline on short captions (measured by
``scripts/bench/parser_vs_sng.py``), mostly to set ``MORPH`` and ``LEMMA``, which the parser
never reads.

:class:`AttributeRules` compiles the ruler's own patterns, keeps those that set ``POS``, ``TAG``
or ``DEP``, and applies them to the columns of a :class:`~crepe_datasets.scenegraph.parser.tokens.TokenView`
with spaCy's precedence: patterns in the order they were added, a later one overriding an
earlier one, every pattern matched against the labels the statistical pipes predicted. The
result of the single-token patterns depends only on the token's own labels, so it is cached.
:meth:`AttributeRules.from_pipeline` returns ``None`` when a pattern uses a matcher feature
this module does not reproduce (operators, other token attributes); the parser then keeps
spaCy's ``attribute_ruler`` in the pipeline. ``tests/scenegraph/test_attribute_rules.py``
checks that the labels equal spaCy's on real captions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

#: Token attributes the parser reads and this module sets.
READ_ATTRS = ("POS", "TAG", "DEP")
#: Token attributes a pattern may test (the columns of a TokenView, and whitespace).
TESTED_ATTRS = frozenset({"LOWER", "TAG", "DEP", "IS_SPACE"})

Labels = tuple[list[str], list[str], list[str]]  # POS, TAG and DEP of every token
Condition = Callable[[str, str, str], bool]  # (lower, tag, dep) -> matches
_MAX_CACHE = 200_000


def _value_test(value: Any) -> Callable[[Any], bool] | None:
    """A test for one attribute value of a matcher pattern, or None if not reproduced."""
    if isinstance(value, (str, bool)):
        return lambda v: v == value
    if isinstance(value, dict) and len(value) == 1:
        ((op, arg),) = value.items()
        if op == "IN":
            members = frozenset(arg)
            return lambda v: v in members
        if op == "NOT_IN":
            excluded = frozenset(arg)
            return lambda v: v not in excluded
        if op == "REGEX":
            pattern = re.compile(arg)
            return lambda v: bool(pattern.search(v))
    return None


def _token_condition(spec: dict[str, Any]) -> Condition | None:
    """A test of one pattern token on (lower, tag, dep), or None if not reproduced."""
    if not spec or not set(spec) <= TESTED_ATTRS:
        return None
    tests: list[tuple[int, Callable[[Any], bool]]] = []
    for attr, value in spec.items():
        test = _value_test(value)
        if test is None:
            return None
        tests.append((_COLUMN[attr], test))

    def condition(lower: str, tag: str, dep: str) -> bool:
        values = (lower, tag, dep)
        return all(test(values[k] if k < 3 else lower.isspace()) for k, test in tests)

    return condition


_COLUMN = {"LOWER": 0, "TAG": 1, "DEP": 2, "IS_SPACE": 3}


# What the rules make of one token: POS, TAG, DEP, the orders of the rules that set them, and
# the (multi-token rule, position) pairs whose token test it passes.
_Entry = tuple[str, str, str, tuple[int, ...], frozenset[tuple[int, int]]]


class _Rule:
    """One pattern of the ruler: its token tests, the token it changes, what it sets."""

    __slots__ = ("conditions", "index", "order", "sets")

    def __init__(self, order: int, conditions: list[Condition], index: int, sets: dict) -> None:
        self.order, self.conditions, self.sets = order, conditions, sets
        self.index = index if index >= 0 else len(conditions) + index


class AttributeRules:
    """The ``POS``/``TAG``/``DEP`` part of a spaCy ``attribute_ruler``, applied to label lists.

    Use :meth:`from_pipeline`; then :meth:`apply` on the labels the pipeline predicted.
    """

    def __init__(self, single: list[_Rule], multi: list[_Rule]) -> None:
        self._single = single
        self._multi = multi
        self._cache: dict[tuple[str, str, str, str], _Entry] = {}

    @classmethod
    def from_pipeline(cls, nlp: Any, name: str = "attribute_ruler") -> AttributeRules | None:
        """Rules of the pipeline's ruler; None if it has none or one this cannot reproduce."""
        if name not in nlp.pipe_names and name not in getattr(nlp, "disabled", ()):
            return None
        ruler = nlp.get_pipe(name)
        single: list[_Rule] = []
        multi: list[_Rule] = []
        for order, entry in enumerate(ruler.patterns):
            attrs = {k.upper(): v for k, v in entry["attrs"].items()}
            sets = {k: attrs[k] for k in READ_ATTRS if k in attrs}
            for pattern in entry["patterns"]:
                if not isinstance(pattern, list) or not pattern:
                    return None  # a Doc pattern (phrase matching): not reproduced here
                conditions = [_token_condition(spec) for spec in pattern]
                if any(c is None for c in conditions):
                    return None
                if not sets:
                    continue  # sets only MORPH or LEMMA: nothing the parser reads
                rule = _Rule(order, conditions, int(entry.get("index", 0)), sets)  # type: ignore[arg-type]
                (single if len(conditions) == 1 else multi).append(rule)
        return cls(single, multi)

    def _entry(self, lower: str, pos: str, tag: str, dep: str) -> _Entry:
        """What the rules make of one token, from its own labels only (cached).

        (POS, TAG, DEP after the single-token rules; the order of the rule that set each, -1
        where none did; the (multi-token rule, position) pairs whose token test it passes).
        """
        values = [pos, tag, dep]
        orders = [-1, -1, -1]
        for rule in self._single:
            if rule.conditions[0](lower, tag, dep):
                for k, attr in enumerate(READ_ATTRS):
                    if attr in rule.sets:
                        values[k], orders[k] = rule.sets[attr], rule.order
        fits = frozenset(
            (m, j)
            for m, rule in enumerate(self._multi)
            for j, cond in enumerate(rule.conditions)
            if cond(lower, tag, dep)
        )
        return values[0], values[1], values[2], tuple(orders), fits

    def apply(self, lower: list[str], pos: list[str], tag: list[str], dep: list[str]) -> Labels:
        """POS, TAG and DEP of every token after the ruler, from the predicted labels.

        ``pos`` holds the POS before the ruler (usually empty); it is kept where no rule sets one.
        Returns new lists; the arguments are not changed.
        """
        cache = self._cache
        keys = list(zip(lower, pos, tag, dep, strict=True))
        entries = list(map(cache.get, keys))
        if None in entries:
            if len(cache) > _MAX_CACHE:
                cache.clear()
            for k, key in enumerate(keys):
                if entries[k] is None:
                    entries[k] = cache[key] = self._entry(*key)
        new_pos, new_tag, new_dep, _, fits = zip(*entries, strict=True)
        columns = (list(new_pos), list(new_tag), list(new_dep))
        if any(fits):
            self._apply_multi(entries, columns)  # type: ignore[arg-type]
        return columns

    def _apply_multi(self, entries: list[_Entry], columns: Labels) -> None:
        """Multi-token rules, in order, over the single-token result (spaCy's precedence)."""
        orders = [list(e[3]) for e in entries]
        for m, rule in enumerate(self._multi):
            width = len(rule.conditions)
            for start in range(len(entries) - width + 1):
                if all((m, j) in entries[start + j][4] for j in range(width)):
                    i = start + rule.index
                    for k, attr in enumerate(READ_ATTRS):
                        if attr in rule.sets and rule.order > orders[i][k]:
                            columns[k][i], orders[i][k] = rule.sets[attr], rule.order
