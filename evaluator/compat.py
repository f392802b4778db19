"""Released benchmark files evaluated like built datasets, so numbers compare with published ones.

The kinds (``crepe-release:PATH``, ``aro-vga:PATH``, ``aro-vgr:PATH``, ``sugarcrepe:PATH``,
``bivlc:PATH``), their readers and where their samples go are registered in
:mod:`crepe_datasets.sources.releases`; this module turns the samples into the rows and task of a
:class:`~crepe_datasets.evaluator.datasets_io.DatasetSource`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from crepe_datasets.cards.metadata import TaskSpec
from crepe_datasets.evaluator.datasets_io import DatasetSource
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog, combined_checksum, describe_inputs
from crepe_datasets.sources.releases import get_release

_SCALAR = (str, int, float, bool)


def _pair_rows(
    samples: Iterable[Any], place: Callable[[Any], tuple[str, str]]
) -> dict[str, dict[str, list]]:
    tables: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for s in samples:
        config, split = place(s)
        neg_type = str(s.meta.get("negative_type", config))
        row = {k: v for k, v in s.meta.items() if isinstance(v, _SCALAR)}
        row.update(
            id=s.id, caption=s.caption, hard_negatives=list(s.negatives),
            negative_types=[neg_type] * len(s.negatives), image_id=s.image_id,
            image_file=s.image_file, bbox=None if s.bbox is None else list(s.bbox),
        )  # fmt: skip
        tables[config][split].append(row)
    return tables


def _group_rows(
    samples: Iterable[Any], place: Callable[[Any], tuple[str, str]]
) -> dict[str, dict[str, list]]:
    tables: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for s in samples:
        config, split = place(s)
        row = {k: v for k, v in s.meta.items() if isinstance(v, _SCALAR)}
        row.update(
            id=s.id, caption_0=s.caption_0, caption_1=s.caption_1,
            image_0_file=s.image_0_file, image_1_file=s.image_1_file,
        )  # fmt: skip
        tables[config][split].append(row)
    return tables


def read_benchmark(
    kind: str, path: str, drops: DropLog
) -> tuple[str, TaskSpec, dict[str, dict[str, list]]]:
    """``(name, task, {config: {split: rows}})`` of a released benchmark (module docstring).

    Raises:
        CrepeInputError: when ``kind`` is no registered release (the message lists them).
    """
    release = get_release(kind)
    rows = _group_rows if release.task == "group" else _pair_rows
    return release.name, TaskSpec(release.task), rows(release.read(path, drops), release.place)


def _check_images(spec: str, task: TaskSpec, tables: dict[str, dict[str, list]]) -> None:
    cols = task.image_file_columns if task.type == "group" else (task.image_file_column,)
    rows = [r for splits in tables.values() for rs in splits.values() for r in rs]
    if not rows:
        raise CrepeInputError(f"dataset {spec} holds no readable samples; check the path.")
    if not any(all(r.get(c) for c in cols) for r in rows):
        raise CrepeInputError(
            f"dataset {spec} names no image files ({', '.join(cols)} empty in every sample); give the "
            "release form that references images (e.g. ARO's visual_genome_attribution.json)."
        )


def open_compat(spec: str, kind: str, path: str) -> DatasetSource:
    """A released benchmark file or folder as a :class:`DatasetSource`."""
    location = Path(path).expanduser()
    if not location.exists():
        raise CrepeInputError(
            f"{kind} path {location} does not exist; fix the path in --dataset {spec}."
        )
    drops = DropLog()
    name, task, tables = read_benchmark(kind, str(location), drops)
    _check_images(spec, task, tables)
    checksum = combined_checksum(describe_inputs([location]))
    configs = dict.fromkeys(sorted(tables), task)
    source = DatasetSource(
        spec, name, f"files:{checksum[:12]}", f"{kind}:{checksum}", configs,
        lambda c: {s: tables[c][s] for s in sorted(tables[c])}, drops,
    )  # fmt: skip
    return source
