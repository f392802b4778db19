"""Trained blind audit: can a text-only classifier, trained on part of a benchmark, find the positive?

The untrained baselines of :mod:`crepe_datasets.generators.balance.blind` ask whether a *fixed* judge
(word frequency, an n-gram LM) prefers the caption; a benchmark can pass them and still carry
cues that a model *learns*: words used almost only in negatives ("lacks", "beneath"), a foil
vocabulary, a rendering difference. This audit is the hypothesis-only baseline of NLI
(Gururangan et al., 2018; Poliak et al., 2018), as SugarCrepe (Hsieh et al., 2023) applied it to
vision–language benchmarks: a classifier that never sees an image is trained to tell positives
from negatives on part of the benchmark and tested on the rest.

Procedure (deterministic; scikit-learn):

1. every retrieval set (caption first, then its negatives) belongs to a *group*, its image id, so
   that no image has texts on both sides of a fold;
2. for each of :data:`FOLDS` folds (``GroupKFold``), each model of :data:`MODELS` is fitted on
   the texts of the training sets (label 1 for a caption, 0 for a negative; classes weighted to
   balance) and scores every text of the held-out sets;
3. a held-out set is solved when its caption scores highest; ties count as a uniform random
   choice, so a classifier without information scores chance exactly (expected R@1, as in the
   other audits). Figures are pooled over the folds, per config and per split.

Models (two feature views, so that a cue seen by one is not hidden by the other):

* ``ngram_logreg`` — TF-IDF of word 1–2-grams and character 2–5-grams (within word
  boundaries), logistic regression;
* ``word_nb`` — counts of word 1–2-grams, multinomial naive Bayes.

A config is *judged* when it has at least :data:`MIN_SETS` sets over at least :data:`FOLDS`
images. It fails when its best R@1 over all its sets exceeds chance + its margin and the exact
one-sided binomial test of :func:`crepe_datasets.generators.balance.blind.excess_p_value` gives
p < 0.05: the classifiers are trained on the config's sets of every split together, so the
verdict is the config's. Each split's figures are reported beside it, flagged by the same test
(``above`` in a split tells where a cue lives). :data:`TARGETS` decide ``passed``; other configs
are reported (HN-NEG, whose negation is inherent, and the paper's HN-COMP, whose negatives are
longer by construction).
The report also lists the n-grams the classifier, fitted on all sets, finds most indicative of
a negative and of a positive: where a cue lives.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crepe_datasets.generators.balance.blind import (
    ALPHA,
    REPORTED_TARGETS,
    BlindResult,
    excess_p_value,
)
from crepe_datasets.generators.balance.shortcuts import MARGIN

FOLDS = 5
MIN_SETS = 50
TARGETS: dict[str, float] = {"hn_atom": MARGIN, "hn_swap": MARGIN}
TOP_FEATURES = 12
MODELS: dict[str, str] = {
    "ngram_logreg": "TF-IDF word 1-2-grams + char 2-5-grams (char_wb), logistic regression (C=1)",
    "word_nb": "word 1-2-gram counts, multinomial naive Bayes (alpha=1)",
}


@dataclass(frozen=True)
class AuditSet:
    """One retrieval set: ``texts[0]`` is the caption; ``group`` is its image."""

    group: str
    split: str
    texts: tuple[str, ...]


@dataclass
class SplitScore(BlindResult):
    """Expected R@1 of each model over the held-out sets of one split (the untrained audit's
    accumulator, one sum per model)."""

    def add(self, model: str, r1: float) -> None:
        self.sums[model] = self.sums.get(model, 0.0) + r1

    def report(self, margin: float, judged: bool) -> dict[str, Any]:
        values = self.r1()
        best, value = max(values.items(), key=lambda kv: (kv[1], kv[0])) if values else ("none", 0)
        # excess_p_value tests against chance + MARGIN: shift chance for another margin
        p = excess_p_value(value, self.chance + margin - MARGIN, self.rows)
        above = value > self.chance + margin + 1e-9 and p < ALPHA
        return {
            "rows": self.rows,
            "chance": round(self.chance, 4),
            "models": {m: round(v, 4) for m, v in values.items()},
            "best_baseline": best,
            "best_r1": round(value, 4),
            "p_value": round(p, 4),
            "judged": judged,
            "passed": not (judged and above),
        }


def _expected_r1(scores: Sequence[float]) -> float:
    best = max(scores)
    return 1.0 / sum(1 for s in scores if s == best) if scores[0] == best else 0.0


def _make_model(name: str) -> Any:
    from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.pipeline import make_pipeline, make_union

    if name == "ngram_logreg":
        features = make_union(
            TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, lowercase=True),
            TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True, min_df=2),
        )
        return make_pipeline(
            features, LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced")
        )
    if name == "word_nb":
        return make_pipeline(CountVectorizer(ngram_range=(1, 2)), MultinomialNB(alpha=1.0))
    raise ValueError(f"unknown trained blind model {name!r}; known: {', '.join(MODELS)}")


def _score(model: Any, texts: list[str]) -> list[float]:
    if hasattr(model, "decision_function"):
        return [float(x) for x in model.decision_function(texts)]
    log_p = model.predict_log_proba(texts)
    return [float(a - b) for b, a in log_p]  # log P(caption) - log P(negative)


def _training_data(sets: Sequence[AuditSet]) -> tuple[list[str], list[int], list[float]]:
    """Texts, labels and weights: each set weighs one on each side (caption vs its negatives)."""
    texts, labels, weights = [], [], []
    for s in sets:
        texts.append(s.texts[0])
        labels.append(1)
        weights.append(1.0)
        for neg in s.texts[1:]:
            texts.append(neg)
            labels.append(0)
            weights.append(1.0 / (len(s.texts) - 1))
    return texts, labels, weights


def _fit(name: str, sets: Sequence[AuditSet]) -> Any:
    texts, labels, weights = _training_data(sets)
    model = _make_model(name)
    step = model.steps[-1][0]
    model.fit(texts, labels, **{f"{step}__sample_weight": weights})
    return model


def cross_validated(sets: Sequence[AuditSet], folds: int = FOLDS) -> dict[str, SplitScore]:
    """Held-out expected R@1 per split (and ``"all"``) of every model (steps 1–3)."""
    from sklearn.model_selection import GroupKFold

    by_split: dict[str, SplitScore] = {"all": SplitScore()}
    for s in sets:
        for key in ("all", s.split):
            score = by_split.setdefault(key, SplitScore())
            score.rows += 1
            score.chance_sum += 1.0 / len(s.texts)
    groups = [s.group for s in sets]
    for train_idx, test_idx in GroupKFold(n_splits=folds).split(sets, groups=groups):
        train = [sets[i] for i in train_idx]
        test = [sets[i] for i in test_idx]
        for name in MODELS:
            model = _fit(name, train)
            flat = [t for s in test for t in s.texts]
            scores = iter(_score(model, flat))
            for s in test:
                r1 = _expected_r1([next(scores) for _ in s.texts])
                by_split["all"].add(name, r1)
                by_split[s.split].add(name, r1)
    return by_split


def indicative_ngrams(sets: Sequence[AuditSet], top: int = TOP_FEATURES) -> dict[str, list[str]]:
    """The word n-grams of the logistic model (fitted on every set) that most indicate a
    negative and a caption."""
    model = _fit("ngram_logreg", sets)
    union, classifier = model.steps[0][1], model.steps[-1][1]
    words = union.transformer_list[0][1].get_feature_names_out()
    weights = classifier.coef_[0][: len(words)]
    order = weights.argsort()
    return {
        "negative": [str(words[i]) for i in order[:top]],
        "caption": [str(words[i]) for i in order[::-1][:top]],
    }


@dataclass
class TrainedReport:
    """Per config: the cross-validated scores per split, and where the cues live."""

    configs: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return all(c["passed"] for name, c in self.configs.items() if name in TARGETS)

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "margin": MARGIN,
            "targets": [c for c in TARGETS if c in self.configs],
            "folds": FOLDS,
            "min_sets": MIN_SETS,
            "models": dict(MODELS),
            "configs": self.configs,
        }


def audit_config(sets: Sequence[AuditSet], margin: float) -> dict[str, Any]:
    """The report of one config (see the module docstring)."""
    n_groups = len({s.group for s in sets})
    judged = len(sets) >= MIN_SETS and n_groups >= FOLDS
    out: dict[str, Any] = {"sets": len(sets), "images": n_groups, "judged": judged}
    if not judged:
        out.update(passed=True, margin=margin, all=None, splits={}, indicative=None)
        return out
    scores = cross_validated(sets)
    pooled = scores.pop("all")
    splits = {s: scores[s].report(margin, True) for s in sorted(scores, key=_split_key)}
    out.update(
        margin=margin,
        all=pooled.report(margin, True),
        splits=splits,
        indicative=indicative_ngrams(sets),
    )
    out["passed"] = out["all"]["passed"]
    return out


def _split_key(split: str) -> tuple:
    tail = split.rsplit("_", 1)[-1]
    return (split[: -len(tail)], int(tail)) if tail.isdigit() else (split, -1)


def sets_from_rows(
    splits: Mapping[str, Iterable[Mapping[str, Any]]],
) -> list[AuditSet]:
    """Retrieval sets of a config's rows (``caption``, ``hard_negatives``, ``image_id``), splits
    in their natural order (``complexity_4`` before ``complexity_10``), so that the folds, and so
    the figures, do not depend on the order the splits were read in (a build's or a folder's)."""
    out = []
    for split in sorted(splits, key=_split_key):
        rows = splits[split]
        for i, row in enumerate(rows):
            negatives = [n for n in (row.get("hard_negatives") or []) if isinstance(n, str)]
            caption = row.get("caption")
            if not isinstance(caption, str) or not negatives:
                continue
            group = row.get("image_id")
            group = str(group) if group not in (None, "") else f"{split}:{caption}:{i}"
            out.append(AuditSet(group, split, (caption, *negatives)))
    return out


def trained_audit(
    tables: Mapping[str, Mapping[str, Iterable[Mapping[str, Any]]]],
    margins: Mapping[str, float] | None = None,
) -> TrainedReport:
    """Audit ``{config: {split: rows}}``; ``margins`` overrides the margin of some configs
    (default: :data:`TARGETS`' margins, the blind audit's ``REPORTED_TARGETS`` (reported, not
    deciding), chance + 0.05 elsewhere)."""
    margins = {**REPORTED_TARGETS, **TARGETS, **(margins or {})}
    report = TrainedReport()
    for config in sorted(tables):
        sets = sets_from_rows(tables[config])
        if sets:
            report.configs[config] = audit_config(sets, margins.get(config, MARGIN))
            report.configs[config]["target"] = config in TARGETS
    return report


def trained_lines(report: Mapping[str, Any]) -> list[str]:
    """A plain-text table of a report's ``to_dict()``: held-out R@1 per model beside chance."""
    models = list(report.get("models", MODELS))
    lines = [
        f"trained blind audit (text-only classifiers, {report.get('folds')}-fold CV grouped by "
        f"image; target <= chance + {report.get('margin')} on "
        f"{', '.join(report.get('targets', [])) or 'none'}): "
        f"{'passed' if report.get('passed') else 'FAILED'}",
        f"{'config':<16} {'split':<16} {'sets':>5} {'chance':>6} "
        + " ".join(f"{m:>12}" for m in models),
    ]
    for config, data in report.get("configs", {}).items():
        if not data.get("judged"):
            lines.append(f"{config:<16} {'all':<16} {data['sets']:>5} (too few sets to judge)")
            continue
        for split, r in [("all", data["all"]), *data["splits"].items()]:
            cells = " ".join(f"{r['models'].get(m, float('nan')):>12.3f}" for m in models)
            flag = "" if r["passed"] else "  above target" if data.get("target") else "  (cue)"
            if split != "all" and flag:
                flag = "  above (this split)"
            lines.append(
                f"{config:<16} {split:<16} {r['rows']:>5} {r['chance']:>6.3f} {cells}{flag}"
            )
        ind = data.get("indicative") or {}
        if ind:
            lines.append(f"  {config}: negative-leaning n-grams: {', '.join(ind['negative'][:8])}")
    return lines
