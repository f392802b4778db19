"""A light, list-based view of a spaCy ``Doc`` that the rules read.

Reading ``token.dep_`` and friends from spaCy costs a string lookup per access, and the rules
read each label many times. :func:`view` copies the few columns the rules need into plain
Python lists with one ``Doc.to_array`` call, so that the rules cost little next to the pipeline
itself (``scripts/bench/parser_vs_sng.py`` measures both). It also makes rules testable on
hand-written parses (:meth:`TokenView.build`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crepe_datasets.scenegraph.parser.attribute_rules import AttributeRules


class TokenView:
    """Columns of one parsed caption; token ``i`` is position ``i`` of every list.

    Attributes:
        lower, pos, tag, dep: lower-case text, coarse and fine POS, dependency label.
        head: index of each token's head (a root is its own head).
        space: whether whitespace follows the token.
        children: each token's dependents, in order.
        by_dep: tokens by dependency label, in order.
        pronoun: pronoun token -> the noun token it stands for (set by repairs).
    """

    __slots__ = ("by_dep", "children", "dep", "head", "lower", "pos", "pronoun", "space", "tag")

    def __init__(
        self,
        lower: list[str],
        pos: list[str],
        tag: list[str],
        dep: list[str],
        head: list[int],
        space: list[bool],
    ) -> None:
        self.lower, self.pos, self.tag, self.dep = lower, pos, tag, dep
        self.head, self.space = head, space
        self.pronoun: dict[int, int] = {}
        self.reindex()

    def reindex(self) -> None:
        """Recompute ``children`` and ``by_dep`` after heads or labels changed."""
        children: list[list[int]] = [[] for _ in self.head]
        by_dep: dict[str, list[int]] = {}
        for i, h in enumerate(self.head):
            if h != i:
                children[h].append(i)
            d = self.dep[i]
            if d in by_dep:
                by_dep[d].append(i)
            else:
                by_dep[d] = [i]
        self.children: list[list[int]] = children
        self.by_dep: dict[str, list[int]] = by_dep

    def with_dep(self, *deps: str) -> list[int]:
        """Tokens whose dependency label is one of ``deps``, in order."""
        found = [self.by_dep[d] for d in deps if d in self.by_dep]
        if len(found) <= 1:
            return found[0] if found else []
        return sorted(i for tokens in found for i in tokens)

    def __len__(self) -> int:
        return len(self.lower)

    def kids(self, i: int, *deps: str) -> list[int]:
        """Children of token ``i`` whose dependency label is one of ``deps``."""
        children = self.children[i]
        if not children:
            return children
        dep = self.dep
        return [c for c in children if dep[c] in deps]

    def span_text(self, start: int, end: int) -> str:
        """Text of tokens ``start..end`` (inclusive) with their original spacing, lower case."""
        if start == end:
            return self.lower[start]
        parts = []
        for i in range(start, end + 1):
            parts.append(self.lower[i])
            if self.space[i] and i < end:
                parts.append(" ")
        return "".join(parts)

    @classmethod
    def build(cls, rows: list[tuple[str, str, str, int]]) -> TokenView:
        """A view from ``(word, pos, dep, head)`` rows (tests and examples)."""
        return cls(
            lower=[r[0].lower() for r in rows],
            pos=[r[1] for r in rows],
            tag=["" for _ in rows],
            dep=[r[2] for r in rows],
            head=[r[3] for r in rows],
            space=[True for _ in rows],
        )


_STRINGS: dict[int, str] = {}  # spaCy string hash -> string, for the words and labels seen
_MAX_STRINGS = 200_000  # bound on the cache above; cleared when reached
_COLUMNS: list[int] = []  # spaCy attribute ids: LOWER, POS, TAG, DEP, HEAD, SPACY
_SIGN = 1 << 63  # HEAD offsets come back as uint64; negative ones wrap around


def _strings(keys: tuple[int, ...], strings: Any) -> list[str]:
    values = list(map(_STRINGS.get, keys))
    if None in values:
        if len(_STRINGS) > _MAX_STRINGS:
            _STRINGS.clear()
        for k in keys:
            if k not in _STRINGS:
                _STRINGS[k] = strings[k]
        values = list(map(_STRINGS.get, keys))
    return values  # type: ignore[return-value]


def view(doc: Any, attribute_rules: AttributeRules | None = None) -> TokenView:
    """Copy the columns of a spaCy ``Doc`` into a :class:`TokenView`.

    Args:
        doc: a parsed ``Doc``.
        attribute_rules: the pipeline's ``attribute_ruler`` patterns, for a ``Doc`` made with
            that pipe disabled (:class:`~crepe_datasets.scenegraph.parser.CaptionParser` does so); None reads
            POS as is.
    """
    if not _COLUMNS:
        from spacy.attrs import DEP, HEAD, LOWER, POS, SPACY, TAG

        _COLUMNS.extend([LOWER, POS, TAG, DEP, HEAD, SPACY])
    if not len(doc):
        return TokenView([], [], [], [], [], [])
    lower, pos, tag, dep, head, space = zip(*doc.to_array(_COLUMNS).tolist(), strict=True)
    n = len(lower)
    labels = _strings(lower + pos + tag + dep, doc.vocab.strings)
    words, pos_, tag_, dep_ = labels[:n], labels[n : 2 * n], labels[2 * n : 3 * n], labels[3 * n :]
    if attribute_rules is not None:
        pos_, tag_, dep_ = attribute_rules.apply(words, pos_, tag_, dep_)
    return TokenView(
        lower=words,
        pos=pos_,
        tag=tag_,
        dep=dep_,
        head=[i + h if h < _SIGN else i + h - (_SIGN << 1) for i, h in enumerate(head)],
        space=list(map(bool, space)),
    )
