"""Dataset rows and column types of the BindSplit configs.

Binary configs (ARO, SugarCrepe): ``caption``, ``hard_negatives`` (one item), ``image_id``,
``image_file``, ``bbox``; group configs (BiVLC, VisMin): ``caption_0``, ``caption_1``,
``image_0_file``, ``image_1_file``. Both add ``bucket`` (granular), ``split`` (collapsed),
``binding_form`` (``swap``/``all``), ``pos_bindings`` / ``neg_bindings`` (``attr``, ``obj``,
``label``, ``perfect_count``, ``close_count``, in order: for a swap sample ``(A1,O1),(A2,O2)`` and
``(A2,O1),(A1,O2)``), ``pos_labels`` / ``neg_labels`` and ``subset`` (source type, when any).
"""

from __future__ import annotations

from typing import Any

from crepe_datasets.builders.bindsplit.labels import LabelledSample

TABLE_FEATURES = {
    "attr": "string",
    "obj_lemma": "string",
    "perfect_count": "int64",
    "close_count": "int64",
}


def _bindings(bindings: tuple, counts: tuple, labels: tuple) -> list[dict[str, Any]]:
    return [
        {"attr": a, "obj": o, "label": lab, "perfect_count": p, "close_count": c}
        for (a, o), (p, c), lab in zip(bindings, counts, labels, strict=True)
    ]


def _subset(meta: dict[str, Any]) -> str | None:
    if "subset" in meta:
        return str(meta["subset"])
    parts = [str(meta[k]) for k in ("type", "subtype", "category") if meta.get(k)]
    return "_".join(parts) or None


def sample_row(item: LabelledSample, task: str) -> dict[str, Any]:
    """One dataset row of a labelled sample for a ``binary`` or ``group`` config."""
    s = item.sample
    if task == "group":
        head: dict[str, Any] = {
            "id": s.id,
            "caption_0": s.positive,
            "caption_1": s.negative,
            "image_0_file": s.image_file,
            "image_1_file": s.image_1_file,
        }
    else:
        head = {
            "id": s.id,
            "caption": s.positive,
            "hard_negatives": [s.negative],
            "image_id": s.image_id,
            "image_file": s.image_file,
            "bbox": list(s.bbox) if s.bbox is not None else None,
        }
    return {
        **head,
        "bucket": item.bucket,
        "split": item.split,
        "binding_form": s.form,
        "pos_bindings": _bindings(s.pos_bindings, item.pos_counts, item.pos_labels),
        "neg_bindings": _bindings(s.neg_bindings, item.neg_counts, item.neg_labels),
        "pos_labels": list(item.pos_labels),
        "neg_labels": list(item.neg_labels),
        "subset": _subset(s.meta),
    }


def features_for(task: str) -> Any:
    """``datasets.Features`` of a config (explicit, so empty splits and null columns keep their types)."""
    from datasets import Features, List, Value

    string = Value("string")
    binding = {
        "attr": string,
        "obj": string,
        "label": string,
        "perfect_count": Value("int64"),
        "close_count": Value("int64"),
    }
    if task == "group":
        head = {k: string for k in ("id", "caption_0", "caption_1", "image_0_file", "image_1_file")}
    elif task == "none":
        return Features({k: Value(v) for k, v in TABLE_FEATURES.items()})
    else:
        head = {
            "id": string,
            "caption": string,
            "hard_negatives": List(string),
            "image_id": string,
            "image_file": string,
            "bbox": List(Value("float64")),
        }
    tail = {
        "bucket": string,
        "split": string,
        "binding_form": string,
        "pos_bindings": List(binding),
        "neg_bindings": List(binding),
        "pos_labels": List(string),
        "neg_labels": List(string),
        "subset": string,
    }
    return Features({**head, **tail})


def table_rows(counts: dict[tuple[str, str], tuple[int, int]]) -> list[dict[str, Any]]:
    """Rows of the ``training_table`` config, sorted by ``(attr, obj_lemma)``."""
    return [
        {"attr": a, "obj_lemma": o, "perfect_count": p, "close_count": c}
        for (a, o), (p, c) in sorted(counts.items())
    ]
