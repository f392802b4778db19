"""Text-only judges that neither a build nor its audit uses, on built configs side by side.

The build balances its negatives against two scorers and audits them with two trained
classifiers (:mod:`crepe_datasets.validation.trained_blind`); a cue those four miss may still be
found by another model. This script scores each set of a config with:

* three classifiers trained and tested with five folds grouped by image (as the audit does):
  binary word unigrams with a linear SVM, Bernoulli naive Bayes on binary word 1–3-grams, and a
  random forest on character 3–4-grams;
* untrained word bigram LMs (add-0.1 smoothing), each picking the most (``max``) or least
  (``min``) likely text: one of the Visual Genome region descriptions of ``--vg`` (the
  descriptions of the very images the positives come from, so it knows which pairs those images
  hold), the same without the set's own image (``vg_region_lm_other``: in-domain plausibility
  without the image's own facts), and one per other caption corpus given (``--corpus
  NAME=KIND:PATH``, e.g. FACTUAL's region captions of other VG images, COCO, CC3M, LAION; the
  readers of :mod:`crepe_datasets.sources`).

Expected R@1 with ties shared, beside chance::

    .venv/bin/python scripts/bench/heldout_judges.py hn_atom out/before out/now \\
        [--vg ../shared/data/visual_genome/images_1-100] \\
        [--corpus factual=jsonl:factual.jsonl --corpus coco=coco:captions_val2017.json ...]
"""

from __future__ import annotations

import argparse
import glob
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.model_selection import GroupKFold
from sklearn.naive_bayes import BernoulliNB
from sklearn.svm import LinearSVC

_WORD = re.compile(r"[a-z]+")


def load_sets(folder: str, config: str) -> tuple[list[list[str]], list[str]]:
    """``[caption, *negatives]`` of every row of a config (all splits) and each row's image."""
    files = sorted(glob.glob(f"{folder}/data/{config}/*.parquet"))
    if not files:
        raise SystemExit(f"{folder} has no config {config!r}")
    df = pd.concat([pd.read_parquet(f) for f in files])
    sets = [[r["caption"], *r["hard_negatives"]] for _, r in df.iterrows()]
    return sets, df["image_id"].astype(str).tolist()


def r1(scores: Sequence[float]) -> float:
    """Expected R@1 of picking the highest score (the positive first; ties shared)."""
    s = np.asarray(scores)
    winners = s == s.max()
    return float(winners[0] / winners.sum())


def trained_r1(
    sets: list[list[str]], groups: list[str], vectorizer: Callable, classifier: Callable
) -> float:
    """Held-out R@1 of a classifier over five folds grouped by image."""
    out = []
    for train, test in GroupKFold(5).split(sets, groups=groups):
        texts = [t for i in train for t in sets[i]]
        labels = [int(j == 0) for i in train for j in range(len(sets[i]))]
        vec, clf = vectorizer(), classifier()
        clf.fit(vec.fit_transform(texts), labels)
        for i in test:
            x = vec.transform(sets[i])
            score = (
                clf.decision_function(x)
                if hasattr(clf, "decision_function")
                else clf.predict_proba(x)[:, 1]
            )
            out.append(r1(score))
    return float(np.mean(out))


def ngram_counts(texts: Iterable[str]) -> tuple[Counter, Counter]:
    """Word unigram and bigram counts of ``texts`` (with sentence marks)."""
    uni: Counter = Counter()
    bi: Counter = Counter()
    for t in texts:
        w = ["<s>", *_WORD.findall(t.lower()), "</s>"]
        uni.update(w)
        bi.update(itertools.pairwise(w))
    return uni, bi


def bigram_lm(
    texts: Iterable[str], without: Mapping[str, tuple[Counter, Counter]] | None = None
) -> Callable[..., float]:
    """Mean log-probability per word under an add-0.1 word bigram LM of ``texts``.

    With ``without`` (counts by group), ``score(text, group)`` leaves that group's counts out.
    """
    uni, bi = ngram_counts(texts)
    vocab = len(uni)
    none: tuple[Counter, Counter] = (Counter(), Counter())

    def score(t: str, group: str | None = None) -> float:
        u0, b0 = (without or {}).get(group, none) if group is not None else none
        w = ["<s>", *_WORD.findall(t.lower()), "</s>"]
        pairs = list(itertools.pairwise(w))
        return sum(
            math.log((bi[p] - b0[p] + 0.1) / (uni[p[0]] - u0[p[0]] + 0.1 * vocab)) for p in pairs
        ) / len(pairs)

    return score


def corpus_texts(spec: str) -> list[str]:
    """Every caption of a ``KIND:PATH`` corpus, read by the toolkit's corpus readers."""
    from crepe_datasets.infra.provenance import DropLog
    from crepe_datasets.sources.corpus import iter_corpus

    return [c.text for c in iter_corpus(spec, DropLog())]


def lm_r1(sets: list[list[str]], score: Callable[[str], float], sign: int) -> float:
    """Mean expected R@1 of picking the most (``sign=1``) or least (``-1``) likely text."""
    return float(np.mean([r1([sign * score(t) for t in s]) for s in sets]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config")
    ap.add_argument("builds", nargs="+")
    ap.add_argument("--vg", default="../shared/data/visual_genome/images_1-100")
    ap.add_argument(
        "--corpus", action="append", default=[], metavar="NAME=KIND:PATH",
        help="another caption corpus whose bigram LM judges the sets (repeatable)",
    )  # fmt: skip
    a = ap.parse_args()
    regions = json.loads((Path(a.vg) / "region_descriptions.json").read_text(encoding="utf-8"))
    by_image = {str(image["id"]): [r["phrase"] for r in image["regions"]] for image in regions}
    lm = bigram_lm(t for texts in by_image.values() for t in texts)
    lm_other = bigram_lm(
        (t for texts in by_image.values() for t in texts),
        without={i: ngram_counts(texts) for i, texts in by_image.items()},
    )
    corpora = {}
    for item in a.corpus:
        name, _, spec = item.partition("=")
        corpora[name] = bigram_lm(corpus_texts(spec))
    judges: dict[str, tuple[Callable, Callable]] = {
        "svm_word1": (lambda: CountVectorizer(binary=True), lambda: LinearSVC(C=0.5)),
        "bernoulli_nb_word1-3": (
            lambda: CountVectorizer(binary=True, ngram_range=(1, 3)),
            BernoulliNB,
        ),
        "forest_char3-4": (
            lambda: CountVectorizer(analyzer="char", ngram_range=(3, 4), min_df=2),
            lambda: RandomForestClassifier(200, random_state=0, n_jobs=1),
        ),
    }
    for folder in a.builds:
        sets, groups = load_sets(folder, a.config)
        result = {"sets": len(sets), "chance": round(1 / len(sets[0]), 3)}
        for sign, end in ((1, "max"), (-1, "min")):
            result[f"vg_region_lm:{end}"] = round(lm_r1(sets, lm, sign), 3)
            other = [
                r1([sign * lm_other(t, g) for t in s]) for s, g in zip(sets, groups, strict=True)
            ]
            result[f"vg_region_lm_other:{end}"] = round(float(np.mean(other)), 3)
            for name, score in corpora.items():
                result[f"{name}_lm:{end}"] = round(lm_r1(sets, score, sign), 3)
        for name, (vec, clf) in judges.items():
            result[name] = round(trained_r1(sets, groups, vec, clf), 3)
        print(folder, json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
