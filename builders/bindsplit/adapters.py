"""Benchmark adapters: each turns a benchmark's samples into :class:`BindingSample` records.

Two ways of finding a sample's bindings, recorded in ``BindingSample.form``:

* ``"swap"`` — the four bindings of SPEC §4.2: ``(A1,O1), (A2,O2)`` from the positive and
  ``(A2,O1), (A1,O2)`` from the negative.

  - **ARO VG-Attribution**: both lower-cased captions must match
    ``^the (\\S+) (\\S+) and the (\\S+) (\\S+)$`` (:data:`ARO_PATTERN`); the positive gives
    ``(A1,O1), (A2,O2)`` and the negative, parsed the same way, its two bindings in caption
    order (``(A2,O1), (A1,O2)`` for a true swap). Samples where either caption does not match are
    excluded with reason ``positive_no_match`` / ``negative_no_match`` / ``neither_matches``, and
    those whose negative parses to the positive's bindings (two equal attributes: the "swap" is
    the caption itself) with ``negative_equals_caption`` (none in the real VG-Attribution).
  - **Free-form captions** (SugarCrepe, BiVLC, VisMin, 2×2 tables): both captions are parsed with
    the training-side noun-phrase extractor (:mod:`crepe_datasets.builders.bindsplit.extract`; attributes
    lower-cased, objects singularised). When two positive bindings ``(a1,o1), (a2,o2)`` with
    ``a1 ≠ a2`` and ``o1 ≠ o2`` reappear swapped in the negative — ``(a2,o1)`` and ``(a1,o2)``
    both among its bindings — the first such pair (caption order) gives the four bindings.

* ``"all"`` — free-form samples without such a swapped pair (BiVLC and VisMin change objects,
  relations, counts …): every distinct binding of the positive and every distinct binding of the
  negative. A sample where neither caption yields a binding is excluded (``no_binding``).

Objects are normalised with :func:`crepe_datasets.scenegraph.lexicon.normalize_object` and attributes with
:func:`crepe_datasets.scenegraph.lexicon.normalize_attribute` on both sides, so lookups match the training table.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from crepe_datasets.builders.bindsplit.extract import doc_bindings
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.lexicon import normalize_attribute, normalize_object
from crepe_datasets.sources.records import GroupSample, PairSample

ARO_PATTERN = re.compile(r"^the (\S+) (\S+) and the (\S+) (\S+)$")
Binding = tuple[str, str]


@dataclass(frozen=True)
class BindingSample:
    """One benchmark sample with the bindings of its positive and negative caption.

    Attributes:
        id: The source sample id.
        positive: The true caption (``caption_0`` of a group).
        negative: The swapped / hard-negative caption (``caption_1`` of a group).
        pos_bindings: ``(attr, obj)`` bindings of the positive.
        neg_bindings: ``(attr, obj)`` bindings of the negative.
        form: ``"swap"`` (exactly the four swapped bindings) or ``"all"``.
        image_id: Source image id, when known.
        image_file: Image of the positive (``image_0_file`` of a group).
        image_1_file: Image of the negative in a group, when known.
        bbox: ``(x, y, w, h)`` region, when known.
        meta: Source extras (subset, type …).
    """

    id: str
    positive: str
    negative: str
    pos_bindings: tuple[Binding, ...]
    neg_bindings: tuple[Binding, ...]
    form: str
    image_id: str | None = None
    image_file: str | None = None
    image_1_file: str | None = None
    bbox: tuple[float, float, float, float] | None = None
    meta: dict[str, Any] = field(default_factory=dict, compare=False)


def _norm(attr: str, obj: str) -> Binding:
    return normalize_attribute(attr), normalize_object(obj)


def parse_aro_caption(caption: str) -> tuple[Binding, Binding] | None:
    """``((A1,O1), (A2,O2))`` of an ARO caption "the A1 O1 and the A2 O2", or ``None``."""
    match = ARO_PATTERN.match(caption.strip().lower())
    if match is None:
        return None
    a1, o1, a2, o2 = match.groups()
    return _norm(a1, o1), _norm(a2, o2)


def aro_samples(
    pairs: Iterable[PairSample], drops: DropLog, stage: str = "aro_vga"
) -> Iterator[BindingSample]:
    """ARO VG-Attribution samples whose two captions both match :data:`ARO_PATTERN`."""
    for pair in pairs:
        negative = pair.negatives[0] if pair.negatives else ""
        pos, neg = parse_aro_caption(pair.caption), parse_aro_caption(negative)
        if pos is None or neg is None:
            reason = (
                "neither_matches"
                if pos is None and neg is None
                else ("positive_no_match" if pos is None else "negative_no_match")
            )
            drops.drop(stage, reason, f"{pair.id}: {pair.caption} | {negative}")
            continue
        if pos == neg:  # "the green bench and the green kite": swapping equal attributes
            drops.drop(stage, "negative_equals_caption", f"{pair.id}: {pair.caption}")
            continue
        yield BindingSample(
            pair.id, pair.caption, negative, pos, neg, "swap",
            pair.image_id, pair.image_file, None, pair.bbox, dict(pair.meta),
        )  # fmt: skip


def find_swap(pos: tuple[Binding, ...], neg: tuple[Binding, ...]) -> tuple[Binding, ...] | None:
    """The first ``(a1,o1), (a2,o2)`` of ``pos`` whose swap ``(a2,o1), (a1,o2)`` is all in ``neg``."""
    neg_set = set(neg)
    for i, (a1, o1) in enumerate(pos):
        for a2, o2 in pos[i + 1 :]:
            if a1 != a2 and o1 != o2 and (a2, o1) in neg_set and (a1, o2) in neg_set:
                return (a1, o1), (a2, o2), (a2, o1), (a1, o2)
    return None


def _distinct(bindings: Iterable[Any]) -> tuple[Binding, ...]:
    return tuple(dict.fromkeys((b.attr, b.obj) for b in bindings))


def free_form_samples(
    items: Iterable[PairSample | GroupSample],
    nlp: Any,
    drops: DropLog,
    stage: str,
    batch_size: int = 256,
) -> Iterator[BindingSample]:
    """Free-form samples with bindings from the noun-phrase extractor (module docstring)."""
    items = list(items)
    texts = []
    for item in items:
        texts += _captions(item)
    docs = iter(nlp.pipe(texts, batch_size=batch_size))
    for item in items:
        pos, neg = _distinct(doc_bindings(next(docs))), _distinct(doc_bindings(next(docs)))
        positive, negative = _captions(item)
        swap = find_swap(pos, neg)
        if swap is not None:
            pos, neg, form = swap[:2], swap[2:], "swap"
        elif pos or neg:
            form = "all"
        else:
            drops.drop(stage, "no_binding", f"{item.id}: {positive} | {negative}")
            continue
        if isinstance(item, GroupSample):
            yield BindingSample(
                item.id, positive, negative, pos, neg, form,
                None, item.image_0_file, item.image_1_file, None, dict(item.meta),
            )  # fmt: skip
        else:
            yield BindingSample(
                item.id, positive, negative, pos, neg, form,
                item.image_id, item.image_file, None, item.bbox, dict(item.meta),
            )  # fmt: skip


def _captions(item: PairSample | GroupSample) -> list[str]:
    if isinstance(item, GroupSample):
        return [item.caption_0, item.caption_1]
    return [item.caption, item.negatives[0] if item.negatives else ""]
