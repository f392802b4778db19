"""A light, list-based view of a spaCy ``Doc`` that the rules read.

Reading ``token.dep_`` and friends from spaCy costs a string lookup per access; the rules read
each label many times. :func:`view` copies the few columns the rules need into plain Python
lists with one ``Doc.to_array`` call, so the rules cost little next to the pipeline itself.
It also makes rules testable on hand-written parses (:meth:`TokenView.build`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

_STRINGS: dict[int, str] = {}


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

    def __post_init__(self) -> None:
        if not self.children:
            self.children = [[] for _ in self.orth]
            for i, h in enumerate(self.head):
                if h != i:
                    self.children[h].append(i)

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


def view(doc: Any) -> TokenView:
    """Copy the columns of a spaCy ``Doc`` into a :class:`TokenView`."""
    from spacy.attrs import DEP, HEAD, LOWER, POS, SPACY, TAG

    n = len(doc)
    if n == 0:
        return TokenView([], [], [], [], [], [], [], [])
    lower, pos, tag, dep, head, space = doc.to_array([LOWER, POS, TAG, DEP, HEAD, SPACY]).T.tolist()
    get = _STRINGS.get
    strings = doc.vocab.strings

    def miss(key: int) -> str:
        value = _STRINGS[key] = strings[key]
        return value

    low = [get(k) or miss(k) for k in lower]
    big = 1 << 63
    heads = [i + h if h < big else i + h - (big << 1) for i, h in enumerate(head)]
    return TokenView(
        orth=low,
        lower=low,
        lemma=low,
        pos=[get(k) or miss(k) for k in pos],
        tag=[get(k) or miss(k) for k in tag],
        dep=[get(k) or miss(k) for k in dep],
        head=heads,
        space=[x == 1 for x in space],
    )
