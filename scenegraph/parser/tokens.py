"""A light, list-based view of a spaCy ``Doc`` that the rules read.

Reading ``token.dep_`` and friends from spaCy costs a string lookup per access; the rules read
each label many times. :func:`view` copies the few columns the rules need into plain Python
lists with one ``Doc.to_array`` call, so the rules cost little next to the pipeline itself.
It also makes rules testable on hand-written parses (:meth:`TokenView.build`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class TokenView:
    """Columns of one parsed caption; token ``i`` is position ``i`` of every list."""

    orth: list[str]
    lower: list[str]
    lemma: list[str]
    pos: list[str]
    tag: list[str]
    dep: list[str]
    head: list[int]
    space: list[bool]
    children: list[list[int]] = field(default_factory=list)
    pronoun: dict[int, int] = field(default_factory=dict)
    by_dep: dict[str, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.children:
            self.reindex()

    def reindex(self) -> None:
        """Recompute ``children`` and ``by_dep`` after heads or labels changed."""
        children: list[list[int]] = [[] for _ in self.orth]
        by_dep: dict[str, list[int]] = {}
        for i, (h, d) in enumerate(zip(self.head, self.dep, strict=True)):
            if h != i:
                children[h].append(i)
            if d in by_dep:
                by_dep[d].append(i)
            else:
                by_dep[d] = [i]
        self.children, self.by_dep = children, by_dep

    def with_dep(self, *deps: str) -> list[int]:
        """Tokens whose dependency label is one of ``deps``, in order."""
        if len(deps) == 1:
            return self.by_dep.get(deps[0], [])
        return sorted(i for d in deps for i in self.by_dep.get(d, ()))

    def __len__(self) -> int:
        return len(self.orth)

    def kids(self, i: int, *deps: str) -> list[int]:
        """Children of token ``i`` whose dependency label is one of ``deps``."""
        children = self.children[i]
        if not children:
            return children
        dep = self.dep
        return [c for c in children if dep[c] in deps]

    def span_text(self, start: int, end: int) -> str:
        """Text of tokens ``start..end`` (inclusive) with their original spacing, lower case."""
        parts = []
        for i in range(start, end + 1):
            parts.append(self.lower[i])
            if self.space[i] and i < end:
                parts.append(" ")
        return "".join(parts)

    @classmethod
    def build(cls, rows: list[tuple[str, str, str, int]]) -> TokenView:
        """A view from ``(word, pos, dep, head)`` rows (tests and examples)."""
        words = [r[0] for r in rows]
        return cls(
            orth=words,
            lower=[w.lower() for w in words],
            lemma=[w.lower() for w in words],
            pos=[r[1] for r in rows],
            tag=["" for _ in rows],
            dep=[r[2] for r in rows],
            head=[r[3] for r in rows],
            space=[True for _ in rows],
        )


_LABELS: dict[int, str] = {}  # POS, tag and dependency labels: a small closed set


def _labels(keys: list[int], strings: Any) -> list[str]:
    values = list(map(_LABELS.get, keys))
    if None in values:
        for k in keys:
            _LABELS.setdefault(k, strings[k])
        values = list(map(_LABELS.get, keys))
    return values  # type: ignore[return-value]


def view(doc: Any) -> TokenView:
    """Copy the columns of a spaCy ``Doc`` into a :class:`TokenView`."""
    from spacy.attrs import DEP, HEAD, LOWER, POS, SPACY, TAG

    n = len(doc)
    if n == 0:
        return TokenView([], [], [], [], [], [], [], [])
    lower, pos, tag, dep, head, space = doc.to_array([LOWER, POS, TAG, DEP, HEAD, SPACY]).T.tolist()
    strings = doc.vocab.strings
    low = [strings[k] for k in lower]
    big = 1 << 63
    heads = [i + h if h < big else i + h - (big << 1) for i, h in enumerate(head)]
    return TokenView(
        orth=low,
        lower=low,
        lemma=low,
        pos=_labels(pos, strings),
        tag=_labels(tag, strings),
        dep=_labels(dep, strings),
        head=heads,
        space=list(map(bool, space)),
    )
