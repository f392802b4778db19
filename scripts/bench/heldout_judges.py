"""Text-only judges that neither a build nor its audit uses, on built configs side by side.

The build balances its negatives against two scorers and audits them with two trained
classifiers (:mod:`crepe_datasets.validation.trained_blind`); a cue those four miss may still be
found by another model. This script scores each set of a config with:

* three classifiers trained and tested with five folds grouped by image (as the audit does):
  binary word unigrams with a linear SVM, Bernoulli naive Bayes on binary word 1–3-grams, and a
  random forest on character 3–4-grams;
* an untrained word bigram LM (add-0.1 smoothing) of the Visual Genome region descriptions of
  ``--vg`` (the descriptions of the very images the positives come from, so it knows which
  pairs those images hold), picking the most (``max``) or least (``min``) likely text.

Expected R@1 with ties shared, beside chance::

    .venv/bin/python scripts/bench/heldout_judges.py hn_atom out/before out/now \\
        [--vg ../shared/data/visual_genome/images_1-100]
"""

from __future__ import annotations

import argparse
import glob
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
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


def bigram_lm(texts: list[str]) -> Callable[[str], float]:
    """Mean log-probability per word under an add-0.1 word bigram LM of ``texts``."""
    uni: Counter = Counter()
    bi: Counter = Counter()
    for t in texts:
        w = ["<s>", *_WORD.findall(t.lower()), "</s>"]
        uni.update(w)
        bi.update(itertools.pairwise(w))
    vocab = len(uni)

    def score(t: str) -> float:
        w = ["<s>", *_WORD.findall(t.lower()), "</s>"]
        pairs = list(itertools.pairwise(w))
        return sum(math.log((bi[p] + 0.1) / (uni[p[0]] + 0.1 * vocab)) for p in pairs) / len(pairs)

    return score


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config")
    ap.add_argument("builds", nargs="+")
    ap.add_argument("--vg", default="../shared/data/visual_genome/images_1-100")
    a = ap.parse_args()
    regions = json.loads((Path(a.vg) / "region_descriptions.json").read_text(encoding="utf-8"))
    lm = bigram_lm([r["phrase"] for image in regions for r in image["regions"]])
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
        result["vg_region_lm:max"] = round(
            float(np.mean([r1([lm(t) for t in s]) for s in sets])), 3
        )
        result["vg_region_lm:min"] = round(
            float(np.mean([r1([-lm(t) for t in s]) for s in sets])), 3
        )
        for name, (vec, clf) in judges.items():
            result[name] = round(trained_r1(sets, groups, vec, clf), 3)
        print(folder, json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
