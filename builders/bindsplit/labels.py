"""Binding labels, the seven buckets, STRICT/LOOSE rates and the familiarity asymmetry (SPEC §4.3-4.5).

**Binding label** (one binding against the training table):

* ``perfect`` — ``perfect_count > 0`` (seen as the only attribute of a noun phrase);
* ``close-only`` — ``perfect_count == 0`` and ``close_count > 0`` (seen only next to other attributes);
* ``none`` — in neither column.

**Bucket** of a sample: by the *set* of labels among its bindings (the four of an ARO sample,
or all of a free-form one). With P / C / N meaning "at least one perfect / close-only / none":

=====================  ===========================  =========
bucket                 rule                         collapsed
=====================  ===========================  =========
``definitely_seen``    only P (all perfect)         seen
``amb_perfect_close``  P and C, no N                mixed
``amb_mixed``          P, C and N                   mixed
``amb_perfect_none``   P and N, no C                mixed
``amb_close_only``     only C (all close-only)      mixed
``amb_close_none``     C and N, no P                mixed
``definitely_unseen``  only N (all none)            unseen
=====================  ===========================  =========

The seven cases are the seven non-empty subsets of {P, C, N}, so every sample with at least one
binding lands in exactly one bucket.

**Headline rates** (share of samples):

* STRICT all-seen: every binding ``perfect`` (= definitely_seen);
  LOOSE all-seen: every binding ``perfect`` or ``close-only``
  (= definitely_seen + amb_perfect_close + amb_close_only);
* STRICT all-unseen: no binding ``perfect`` (= amb_close_only + amb_close_none + definitely_unseen);
  LOOSE all-unseen: every binding ``none`` (= definitely_unseen).

**Familiarity asymmetry**: the share of positive captions whose bindings *all occur in the
training table* (label ``perfect`` or ``close-only``) beside the same share of negatives, over all
samples and over the mixed subset; the ``strict`` variant counts only ``perfect``. A side without
any binding (possible for free-form samples) is left out of that side's denominator.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from crepe_datasets.builders.bindsplit.adapters import BindingSample

PERFECT, CLOSE, NONE = "perfect", "close-only", "none"
BUCKETS = (
    "definitely_seen",
    "amb_perfect_close",
    "amb_mixed",
    "amb_perfect_none",
    "amb_close_only",
    "amb_close_none",
    "definitely_unseen",
)
# The bucket of each label set, the table of the module docstring as data.
BUCKET_OF_LABEL_SET = {
    frozenset({PERFECT}): "definitely_seen",
    frozenset({PERFECT, CLOSE}): "amb_perfect_close",
    frozenset({PERFECT, CLOSE, NONE}): "amb_mixed",
    frozenset({PERFECT, NONE}): "amb_perfect_none",
    frozenset({CLOSE}): "amb_close_only",
    frozenset({CLOSE, NONE}): "amb_close_none",
    frozenset({NONE}): "definitely_unseen",
}
COLLAPSED = {
    b: ("seen" if b == "definitely_seen" else "unseen" if b == "definitely_unseen" else "mixed")
    for b in BUCKETS
}
SPLITS = ("seen", "mixed", "unseen")


def label_binding(perfect_count: int, close_count: int) -> str:
    """``perfect``, ``close-only`` or ``none`` for a binding's two training counts."""
    if perfect_count > 0:
        return PERFECT
    return CLOSE if close_count > 0 else NONE


def bucket_of(labels: Sequence[str]) -> str:
    """The granular bucket of a non-empty sequence of labels.

    Raises:
        ValueError: when ``labels`` is empty or holds an unknown label.
    """
    key = frozenset(labels)
    if key not in BUCKET_OF_LABEL_SET:
        raise ValueError(f"cannot bucket labels {list(labels)!r}")
    return BUCKET_OF_LABEL_SET[key]


@dataclass(frozen=True)
class LabelledSample:
    """A benchmark sample with the training counts and labels of its bindings."""

    sample: BindingSample
    pos_counts: tuple[tuple[int, int], ...]
    neg_counts: tuple[tuple[int, int], ...]
    pos_labels: tuple[str, ...]
    neg_labels: tuple[str, ...]
    bucket: str

    @property
    def split(self) -> str:
        """``seen``, ``mixed`` or ``unseen``."""
        return COLLAPSED[self.bucket]


def label_sample(sample: BindingSample, lookup: Any) -> LabelledSample:
    """Label every binding of ``sample`` with ``lookup(attr, obj) -> (perfect, close)``."""
    pos_counts = tuple(lookup(a, o) for a, o in sample.pos_bindings)
    neg_counts = tuple(lookup(a, o) for a, o in sample.neg_bindings)
    pos_labels = tuple(label_binding(*c) for c in pos_counts)
    neg_labels = tuple(label_binding(*c) for c in neg_counts)
    return LabelledSample(
        sample, pos_counts, neg_counts, pos_labels, neg_labels, bucket_of(pos_labels + neg_labels)
    )


def _rate(n: int, d: int) -> float | None:
    return round(n / d, 4) if d else None


def asymmetry(samples: Sequence[LabelledSample], seen: frozenset[str]) -> dict[str, Any]:
    """Share of positives vs negatives whose every binding has a label in ``seen``."""
    out: dict[str, Any] = {}
    for side in ("positive", "negative"):
        labels = [s.pos_labels if side == "positive" else s.neg_labels for s in samples]
        with_bindings = [lab for lab in labels if lab]
        full = sum(all(x in seen for x in lab) for lab in with_bindings)
        out[side] = {
            "fully_seen": full,
            "with_bindings": len(with_bindings),
            "rate": _rate(full, len(with_bindings)),
        }
    return out


def summarize(labelled: Iterable[LabelledSample]) -> dict[str, Any]:
    """Every count of SPEC §4.4-4.5 for one benchmark (bucket counts, rates, asymmetry)."""
    samples = list(labelled)
    n = len(samples)
    buckets = Counter(s.bucket for s in samples)
    bucket_counts = {b: buckets.get(b, 0) for b in BUCKETS}
    collapsed = {s: sum(c for b, c in bucket_counts.items() if COLLAPSED[b] == s) for s in SPLITS}
    loose_seen = (
        bucket_counts["definitely_seen"]
        + bucket_counts["amb_perfect_close"]
        + bucket_counts["amb_close_only"]
    )
    strict_unseen = (
        bucket_counts["amb_close_only"]
        + bucket_counts["amb_close_none"]
        + bucket_counts["definitely_unseen"]
    )
    mixed = [s for s in samples if s.split == "mixed"]
    in_table, perfect_only = frozenset({PERFECT, CLOSE}), frozenset({PERFECT})
    return {
        "samples": n,
        "forms": dict(sorted(Counter(s.sample.form for s in samples).items())),
        "buckets": bucket_counts,
        "collapsed": collapsed,
        "rates": {
            "strict": {
                "all_seen": _rate(bucket_counts["definitely_seen"], n),
                "all_unseen": _rate(strict_unseen, n),
            },
            "loose": {
                "all_seen": _rate(loose_seen, n),
                "all_unseen": _rate(bucket_counts["definitely_unseen"], n),
            },
        },
        "asymmetry": {
            "in_table": {"full": asymmetry(samples, in_table), "mixed": asymmetry(mixed, in_table)},
            "strict": {
                "full": asymmetry(samples, perfect_only),
                "mixed": asymmetry(mixed, perfect_only),
            },
        },
    }
