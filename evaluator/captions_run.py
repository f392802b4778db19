"""``crepe evaluate-captions``: score generated captions on the splits of a crepe-captioning folder.

Predictions are JSON Lines, one object per line: ``{"image_id": 139, "caption": "..."}`` or
``{"image_id": 139, "captions": ["...", ...]}`` (several lines of one image are appended in
order). The first caption of an image is scored with BLEU / METEOR / ROUGE-L / CIDEr against the
row's ``captions``; all of them (up to 5) give the held-out pairs' Recall@K. One record per
model × config × split (:mod:`crepe_datasets.evaluator.records`), keys
``crepe-captioning::<config>/<split>[/pair=<id>]::<metric>``; ``crepe report`` renders them.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from crepe_datasets.cards.manifest import MANIFEST_NAME, library_versions, read_manifest
from crepe_datasets.evaluator.caption_scores import MAX_K, coco_scores, pair_recall
from crepe_datasets.evaluator.records import EvalRecord, write_record
from crepe_datasets.evaluator.statistics import bootstrap_ci
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import sha256_file

LIBRARIES = ("pycocoevalcap", "spacy", "numpy")


@dataclass
class CaptionEvalSettings:
    """One ``crepe evaluate-captions`` run (recorded in every record's ``parameters``)."""

    dataset: str
    predictions: Path
    out: Path
    model: str | None = None
    splits: list[str] = field(default_factory=list)
    meteor: bool = True
    seed: int = 0
    n_boot: int = 1000


def read_predictions(path: Path) -> dict[str, list[str]]:
    """Generated captions per image id, in file order.

    Raises:
        CrepeInputError: missing file, a line that is not a JSON object with an ``image_id`` and
            non-empty caption(s), or no prediction at all.
    """
    if not path.is_file():
        raise CrepeInputError(f"predictions file {path} does not exist; fix --predictions.")
    out: dict[str, list[str]] = {}
    with open(path, encoding="utf-8") as handle:
        for n, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as err:
                raise CrepeInputError(f"{path} line {n} is not JSON ({err.msg}).") from err
            texts = obj.get("captions", obj.get("caption")) if isinstance(obj, dict) else None
            texts = [texts] if isinstance(texts, str) else texts
            if not isinstance(obj, dict) or obj.get("image_id") is None or not texts:
                raise CrepeInputError(
                    f"{path} line {n} needs an image_id and a non-empty caption or captions list."
                )
            if not all(isinstance(t, str) and t.strip() for t in texts):
                raise CrepeInputError(
                    f"{path} line {n} has an empty caption; every caption needs text."
                )
            out.setdefault(str(obj["image_id"]), []).extend(t.strip() for t in texts)
    if not out:
        raise CrepeInputError(f"predictions file {path} holds no prediction; it is empty.")
    return out


def _open(spec: str) -> tuple[Path, Any, list[str]]:
    folder, _, config = (
        spec.rpartition(":") if ":" in spec and not Path(spec).is_dir() else (spec, "", "")
    )
    folder_path = Path(folder)
    manifest = read_manifest(folder_path)
    usable = [c for c, info in sorted(manifest.configs.items()) if info.task.type == "captioning"]
    if not usable:
        raise CrepeInputError(
            f"{folder} has no captioning config; build it with `crepe build captioning`."
        )
    if config and config not in usable:
        raise CrepeInputError(
            f"{folder} has no captioning config {config!r}; it has {', '.join(usable)}."
        )
    return folder_path, manifest, [config] if config else usable


def _rows(folder: Path, config: str) -> dict[str, list[dict[str, Any]]]:
    import pyarrow.parquet as pq

    splits: dict[str, list[dict[str, Any]]] = {}
    for f in sorted((folder / "data" / config).glob("*.parquet")):
        split = f.name.rsplit("-", 3)[0]
        names = pq.read_schema(f).names
        columns = [
            c for c in ("image_id", "captions", "heldout_pairs", "no_comb_pair") if c in names
        ]
        splits.setdefault(split, []).extend(pq.read_table(f, columns=columns).to_pylist())
    return splits


def _pairs(manifest: Any) -> dict[str, Any]:
    from crepe_datasets.builders.captioning.pairs import ConceptPair

    out = {}
    for pid, p in (manifest.summary.get("pairs") or {}).items():
        forms_m, forms_n = frozenset(p["modifier_forms"]), frozenset(p["noun_forms"])
        out[pid] = ConceptPair(pid, p["type"], p["modifier"], p["noun"], forms_m, forms_n)
    return out


def _add_pair_metrics(
    rec: EvalRecord,
    rows: list[dict[str, Any]],
    predictions: dict[str, list[str]],
    pairs: dict[str, Any],
    facts_cache: dict[str, list[Any]],
) -> None:
    """Held-out pair Recall@K (``test_comb``) or pair rate@K (``test_no_comb``), overall and per pair."""
    from crepe_datasets.builders.captioning.concepts import parse_facts

    items = [(r["image_id"], p) for r in rows for p in r.get("heldout_pairs") or [] if p in pairs]
    items += [(r["image_id"], r["no_comb_pair"]) for r in rows if r.get("no_comb_pair") in pairs]
    if not items:
        return
    for i in {i for i, _ in items} - set(facts_cache):
        facts_cache[i] = parse_facts(predictions[i][:MAX_K])
    overall, per_pair = pair_recall(items, facts_cache, pairs)
    name = "pair_rate" if rec.split == "test_no_comb" else "pair_R"
    for k, v in overall.items():
        rec.metrics[rec.key(k.replace("R", name, 1))] = v
    for pid, values in per_pair.items():
        for k, v in values.items():
            metric = k.replace("R", name, 1) if k != "n" else "n"
            rec.metrics[rec.key(metric, f"pair={pid}")] = v


def run_caption_eval(s: CaptionEvalSettings, echo: Any = print) -> list[EvalRecord]:
    """Score the predictions on every (chosen) split but ``train``; write and return the records.

    Raises:
        CrepeInputError: bad dataset spec, bad predictions, predictions for images the config
            does not hold, or no prediction for any image of the scored splits.
    """
    folder, manifest, configs = _open(s.dataset)
    predictions = read_predictions(s.predictions)
    model = s.model or s.predictions.stem
    pairs = _pairs(manifest)
    digest = sha256_file(folder / MANIFEST_NAME)
    records: list[EvalRecord] = []
    facts_cache: dict[str, list[Any]] = {}
    for config in configs:
        splits = _rows(folder, config)
        known = {r["image_id"] for rows in splits.values() for r in rows}
        unknown = sorted(set(predictions) - known)
        if unknown:
            raise CrepeInputError(
                f"{len(unknown):,} predicted image ids are not in {folder}:{config} (e.g. {unknown[0]}); "
                "check --dataset and the image_id values of --predictions."
            )
        wanted = s.splits or [sp for sp in splits if sp != "train"]
        for split in wanted:
            if split not in splits:
                raise CrepeInputError(
                    f"{folder}:{config} has no split {split!r}; it has {', '.join(splits)}."
                )
            rows = [r for r in splits[split] if r["image_id"] in predictions]
            missing = len(splits[split]) - len(rows)
            echo(f"{config}/{split}: scoring {len(rows):,} of {len(splits[split]):,} images"
                 + (f" ({missing:,} without a prediction)" if missing else ""))  # fmt: skip
            if not rows:
                continue
            started = time.perf_counter()
            refs = {r["image_id"]: r["captions"] for r in rows}
            cands = {i: predictions[i][0] for i in refs}
            corpus, per_image = coco_scores(refs, cands, meteor=s.meteor)
            rec = EvalRecord(
                model=model, model_spec=str(s.predictions), benchmark=manifest.dataset,
                dataset_spec=s.dataset, dataset_revision=manifest.version,
                dataset_fingerprint=f"manifest:{digest}", config=config, split=split,
                task="captioning", main_metric="CIDEr", precision="n/a", device="cpu",
                seed=s.seed, n=len(rows), metrics={},
                drops={"predictions": {"missing_prediction": missing}} if missing else {},
                libraries=library_versions(LIBRARIES),
                parameters={"predictions_sha256": sha256_file(s.predictions), "meteor": s.meteor, "max_k": MAX_K},
            )  # fmt: skip
            rec.metrics = {rec.key(m): v for m, v in corpus.items()}
            lo, hi = bootstrap_ci(np.asarray(per_image["CIDEr"]), s.n_boot, seed=s.seed)
            rec.metrics.update({rec.key("CIDEr_ci_low"): lo, rec.key("CIDEr_ci_high"): hi})
            rec.metrics[rec.key("n")] = float(len(rows))
            _add_pair_metrics(rec, rows, predictions, pairs, facts_cache)
            rec.timing = {"scoring_s": round(time.perf_counter() - started, 3)}
            sample = {
                "image_id": np.asarray(sorted(refs)),
                **{m: np.asarray(v) for m, v in per_image.items()},
            }
            write_record(s.out, rec, sample)
            records.append(rec)
    if not records:
        raise CrepeInputError(
            f"no prediction is for an image of the scored splits of {s.dataset}; "
            "predict captions for their images (train is not scored)."
        )
    return records
