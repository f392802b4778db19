"""The dataset writer: parquet shards + README card + build manifest, written atomically.

Layout of a dataset folder (what ``load_dataset(folder, config)`` opens, offline)::

    README.md                                    YAML front matter with ``configs:`` + the card
    build_manifest.json                          provenance (see :mod:`crepe_datasets.cards.manifest`)
    data/<config>/<split>-00000-of-00001.parquet one or more shards per split

A split with no rows is counted (0) in the manifest but has no file and is not declared in
the card, since ``datasets`` cannot load an empty parquet split.

Identical rows (in the same order) give identical parquet bytes: the schema comes from the
``datasets`` features, parquet settings are fixed, and no timestamps are written into the data.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from crepe_datasets.cards.image_digests import (
    IMAGES_SUMMARY,
    images_summary,
    note_on_card,
    with_crop_metadata,
)
from crepe_datasets.cards.manifest import MANIFEST_NAME, BuildManifest
from crepe_datasets.cards.plots import (
    DROPS_PLOT,
    ROWS_PLOT,
    VERIFICATION_PLOT,
    drops_by_reason,
    rows_per_split,
)
from crepe_datasets.cards.portable import portable_manifest
from crepe_datasets.cards.render import render_card
from crepe_datasets.cards.verification import check_verification
from crepe_datasets.infra.errors import CrepeInputError, FailedChecksError
from crepe_datasets.infra.explain import explain_drops
from crepe_datasets.infra.outputs import check_output
from crepe_datasets.infra.provenance import (
    InputFile,
    atomic_directory,
    describe_input,
    write_json_atomic,
    write_text_atomic,
)
from crepe_datasets.scenegraph.crops import ImageCropper, embed_rows, image_features

Rows = Sequence[Mapping[str, Any]]
DEFAULT_ROWS_PER_SHARD = 20_000
PARQUET_OPTIONS = {"compression": "zstd", "compression_level": 3, "write_statistics": True}


def _features_for(rows_by_split: Mapping[str, Rows]):
    """``datasets.Features`` inferred from the first non-empty split."""
    from datasets import Features

    for rows in rows_by_split.values():
        if rows:
            return Features.from_arrow_schema(pa.Table.from_pylist(list(rows[:1000])).schema)
    return None


# rows → (rows with their crops, failed crops by reason)
Embed = Callable[[list[dict]], tuple[list[dict], dict[str, int]]]

_LIST_TYPES = {"List": "list", "LargeList": "large_list"}


def _snake_case(name: str) -> str:
    """``ClassLabel`` → ``class_label``, ``Array2D`` → ``array2_d`` (the Hub's YAML type names)."""
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    return re.sub(r"([a-z\d])([A-Z])", r"\1_\2", name).lower()


def _yaml_feature(feature: Any) -> dict[str, Any]:
    """One entry of ``Features.to_dict()`` in the YAML form of a card's ``dataset_info``.

    The form the Hub documents for ``dataset_info.features``: a value is ``{dtype: string}``, a
    list ``{list: <inner>}`` (the inner form shortened to its dtype or its struct fields when that
    is all it holds), a struct ``{struct: [{name: ..., ...}, ...]}``, any other feature type
    ``{dtype: <snake_case type>}`` with its parameters beneath (class labels keyed ``'0'``, ``'1'`` …).
    """
    if isinstance(feature, list):  # the shorthand ``[feature]`` of a list
        return {"list": _short(_yaml_feature(feature[0]))}
    kind = feature.get("_type")
    params = {key: value for key, value in feature.items() if key != "_type"}
    if kind == "Value":
        return params
    if kind in _LIST_TYPES:
        inner = _yaml_feature(params.pop("feature"))
        return {_LIST_TYPES[kind]: _short(inner), **params}
    if kind is None:
        return {"struct": [{"name": name, **_yaml_feature(sub)} for name, sub in feature.items()]}
    if not params:
        return {"dtype": _snake_case(kind)}
    if kind == "ClassLabel" and isinstance(params.get("names"), list):
        params["names"] = {str(i): label for i, label in enumerate(params["names"])}
    return {"dtype": {_snake_case(kind): params}}


def _short(inner: dict[str, Any]) -> Any:
    """A list's inner form shortened: ``{dtype: x}`` → ``x``, ``{struct: [...]}`` → ``[...]``."""
    if list(inner) == ["dtype"]:
        return inner["dtype"]
    if list(inner) == ["struct"]:
        return inner["struct"]
    return inner


def yaml_features(features: Any) -> list[dict[str, Any]]:
    """``datasets.Features`` as the card's YAML ``dataset_info.features`` list.

    Built from the public ``Features.to_dict()`` (the form ``datasets`` writes to
    ``dataset_info.json``), so the card does not depend on a private method of ``datasets``.

    Args:
        features: a ``datasets.Features`` object.

    Returns:
        One ``{"name": column, ...}`` mapping per column, in column order.
    """
    plain = json.loads(json.dumps(features.to_dict()))
    return _yaml_feature(plain)["struct"]


def failed_checks(validation: Mapping[str, Any]) -> list[str]:
    """One line per failed check of a manifest's ``validation`` (``{name: {"passed": …}}``)."""
    out = []
    for name, result in sorted(validation.items()):
        if not isinstance(result, Mapping) or result.get("passed", True):
            continue
        configs = result.get("configs") or {}
        if "folds" in result:  # the trained blind audit: its target configs decide, pooled
            configs = {c: configs[c]["all"] for c in result["targets"] if configs[c].get("all")}
        elif "targets" in result:  # the blind audit: only its target configs decide, per split
            configs = {
                f"{c}/{split}": r
                for c in result["targets"]
                for split, r in (configs.get(c, {}).get("splits") or {}).items()
            }
        where = result.get("violations") or {
            c: f"{r.get('best_baseline')} R@1 {r.get('best_r1')} vs chance {r.get('chance')}"
            for c, r in configs.items()
            if not r.get("passed", True)
        }
        details = ", ".join(
            f"{c}: "
            + (", ".join(f"{k}={n}" for k, n in v.items()) if isinstance(v, Mapping) else v)
            for c, v in sorted(where.items())
        )
        out.append(f"{name} FAILED" + (f" ({details})" if details else ""))
    return out


def _image_embedder(cropper: ImageCropper, file_column: str, bbox_column: str) -> Embed:
    """Adds each row's PNG crop (``image``) and licence (see :func:`embed_rows`)."""

    def embed(rows: list[dict]) -> tuple[list[dict], dict[str, int]]:
        return embed_rows(rows, cropper, file_column, bbox_column)

    return embed


def _write_split(
    folder: Path,
    split: str,
    rows: Rows,
    schema: pa.Schema,
    rows_per_shard: int,
    embed: Embed | None = None,
) -> tuple[list[Path], int]:
    """Write one split shard by shard (crops are made per shard, so memory stays bounded).

    Returns the files written and the number of rows in them.
    """
    n_shards = max(1, math.ceil(len(rows) / rows_per_shard))
    paths, n_rows = [], 0
    for shard in range(n_shards):
        chunk = [dict(r) for r in rows[shard * rows_per_shard : (shard + 1) * rows_per_shard]]
        shard_schema = schema
        if embed is not None:
            chunk, failed = embed(chunk)
            shard_schema = with_crop_metadata(schema, failed)
        if not chunk:
            continue
        path = folder / f"{split}-{shard:05d}-of-{n_shards:05d}.parquet"
        pq.write_table(pa.Table.from_pylist(chunk, schema=shard_schema), path, **PARQUET_OPTIONS)
        paths.append(path)
        n_rows += len(chunk)
    return paths, n_rows


def _write_plots(folder: Path, manifest: BuildManifest) -> list[str]:
    """The card's plots (rows per split, drops by reason); returns their relative paths."""
    written = []
    for name, png in (
        (ROWS_PLOT, rows_per_split(manifest.counts)),
        (DROPS_PLOT, drops_by_reason(manifest.drops.to_dict())),
    ):
        if png is not None:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(png)
            written.append(name)
    return written


def _carry_verification(old: Path, new: Path, manifest: BuildManifest) -> None:
    """Keep the human verification of a folder rebuilt in place: current if its rows are
    unchanged (same row hashes), stale otherwise; its plot is copied over."""
    try:
        previous = json.loads((old / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    verification = previous.get("human_verification") if isinstance(previous, dict) else None
    if not verification or manifest.human_verification:
        return
    manifest.human_verification = check_verification(verification, new)
    if (old / VERIFICATION_PLOT).exists():
        (new / VERIFICATION_PLOT).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(old / VERIFICATION_PLOT, new / VERIFICATION_PLOT)
        manifest.assets = sorted(set(manifest.assets) | {VERIFICATION_PLOT})


def write_dataset(
    out_dir: str | Path,
    tables: Mapping[str, Mapping[str, Rows]],
    manifest: BuildManifest,
    *,
    features: Mapping[str, Any] | None = None,
    images: ImageCropper | None = None,
    rows_per_shard: int = DEFAULT_ROWS_PER_SHARD,
    allow_failed_checks: bool = False,
) -> Path:
    """Write a dataset folder atomically and return its path.

    Args:
        out_dir: the dataset folder; replaced as a whole when it exists.
        tables: ``{config: {split: rows}}``; each row is a plain dict (column → value).
        manifest: provenance; its ``counts`` and ``wall_time_s`` are filled here.
        features: optional ``{config: datasets.Features}``; inferred from the rows otherwise.
        images: when given, every row's ``image_file`` + ``bbox`` region is embedded as an
            ``image`` column (``datasets.Image``, PNG) with an ``image_license`` column (see
            :mod:`crepe_datasets.scenegraph.crops`); a row whose crop fails keeps an empty
            ``image`` (left out when ``images.drop_missing_rows``), counted by reason, and the
            manifest's ``summary["image_column"]`` gets the licence, crop rule and crop checksums.
        rows_per_shard: maximum rows per parquet file.
        allow_failed_checks: write even when a check in ``manifest.validation`` failed; the
            manifest (``validation.failed_checks``) and the top of the card then say which.

    The manifest and card are written through :func:`crepe_datasets.cards.portable.portable_manifest`
    (no absolute, home or cache path); ``out_dir`` may be new, empty or an earlier dataset of this
    toolkit (a folder holding anything else, or a file, is refused).

    Raises:
        CrepeInputError: when there is nothing to write, or ``out_dir`` is not safe to replace.
        FailedChecksError: when a validation check failed and ``allow_failed_checks`` is False
            (nothing is written then).
    """
    if not any(rows for splits in tables.values() for rows in splits.values()):
        raise CrepeInputError(
            f"nothing to write to {out_dir}: every config and split is empty; "
            f"{explain_drops(manifest.drops)}."
        )
    out_dir = check_output(out_dir, "dataset", overwrite=True)
    failed = failed_checks(manifest.validation)
    if failed and not allow_failed_checks:
        raise FailedChecksError(
            f"the build failed its checks ({'; '.join(failed)}); nothing was written to {out_dir}: "
            "fix the inputs or settings, or pass --allow-failed-checks to write it anyway, marked as failed"
        )
    if failed:
        manifest.validation["failed_checks"] = failed
    counts: dict[str, dict[str, int]] = {}
    card_features: dict[str, list] = {}
    written: list[Path] = []
    with atomic_directory(out_dir) as tmp:
        for config, splits in tables.items():
            config_info = manifest.configs.get(config)
            embed = None
            if images is not None and config_info is not None and config_info.task.type != "group":
                task = config_info.task
                embed = _image_embedder(images, task.image_file_column, task.bbox_column or "bbox")
            config_features = (features or {}).get(config) or _features_for(splits)
            if config_features is not None and embed is not None:
                config_features = image_features(config_features, images.license)
            if config_features is None:
                manifest.drops.drop("writer", "empty_config", example=config)
                continue
            folder = tmp / "data" / config
            folder.mkdir(parents=True, exist_ok=True)
            counts[config] = {}
            card_features[config] = yaml_features(config_features)
            schema = config_features.arrow_schema
            for split, rows in splits.items():
                # An empty split stays in the counts (as 0) but gets no file: `datasets`
                # cannot load an empty parquet split, and the card declares only real ones.
                paths, counts[config][split] = _write_split(
                    folder, split, rows, schema, rows_per_shard, embed
                )
                written += paths
        manifest.counts = counts
        manifest.features = card_features
        if images is not None:
            manifest.summary[IMAGES_SUMMARY] = images_summary(tmp, images.license)
            note_on_card(manifest, images.license)
        manifest.outputs = [
            InputFile(str(p.relative_to(tmp)), d.bytes, d.sha256)
            for p in written
            for d in [describe_input(p)]
        ]
        _carry_verification(out_dir, tmp, manifest)
        manifest.assets = sorted(set(manifest.assets) | set(_write_plots(tmp, manifest)))
        manifest.wall_time_s = round(time.time() - manifest.started_at, 3)
        published = portable_manifest(manifest)
        write_json_atomic(tmp / MANIFEST_NAME, published.to_dict())
        write_text_atomic(tmp / "README.md", render_card(published))
    return out_dir
