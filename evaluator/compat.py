"""Released benchmark files evaluated like built datasets, so numbers compare with published ones.

========================  =======================================  =======================
spec                      configs / splits                          task
========================  =======================================  =======================
``crepe-release:PATH``    ``hn_<type>`` / ``complexity_<n>``        retrieval (1 + 5)
``aro-vga:PATH``          ``vg_attribution`` / ``test``             binary
``aro-vgr:PATH``          ``vg_relation`` / ``test``                binary
``sugarcrepe:PATH``       ``<subset>`` (``swap_att`` …) / ``test``  binary
``bivlc:PATH``            ``bivlc`` / ``test``                      group (2×2)
========================  =======================================  =======================

CREPE's types map to our productivity config names (``atom`` → ``hn_atom``, ``swap`` →
``hn_swap``, ``negate`` → ``hn_negate``), so the same report plots apply to both. Samples come
from the foundation readers in :mod:`crepe_datasets.builders.sources`; what a reader skips is counted there.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from crepe_datasets.cards.metadata import TaskSpec
from crepe_datasets.evaluator.datasets_io import DatasetSource
from crepe_datasets.scenegraph.errors import CrepeInputError
from crepe_datasets.scenegraph.provenance import DropLog, combined_checksum, describe_inputs

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


def _group_rows(samples: Iterable[Any]) -> dict[str, dict[str, list]]:
    rows = []
    for s in samples:
        row = {k: v for k, v in s.meta.items() if isinstance(v, _SCALAR)}
        row.update(
            id=s.id, caption_0=s.caption_0, caption_1=s.caption_1,
            image_0_file=s.image_0_file, image_1_file=s.image_1_file,
        )  # fmt: skip
        rows.append(row)
    return {"bivlc": {"test": rows}}


def read_benchmark(
    kind: str, path: str, drops: DropLog
) -> tuple[str, TaskSpec, dict[str, dict[str, list]]]:
    """``(name, task, {config: {split: rows}})`` of a released benchmark (module docstring)."""
    if kind == "crepe-release":
        from crepe_datasets.builders.sources.crepe_release import read_crepe_release

        def place(s: Any) -> tuple[str, str]:
            return f"hn_{s.meta.get('negative_type', 'all')}", f"complexity_{s.meta.get('n')}"

        return (
            "crepe-release",
            TaskSpec("retrieval"),
            _pair_rows(read_crepe_release(path, drops), place),
        )
    if kind in ("aro-vga", "aro-vgr"):
        from crepe_datasets.builders.sources.aro import read_aro_attribution, read_aro_relation

        reader, config = (
            (read_aro_attribution, "vg_attribution")
            if kind == "aro-vga"
            else (read_aro_relation, "vg_relation")
        )
        return (
            "aro",
            TaskSpec("binary"),
            _pair_rows(reader(path, drops), lambda s: (config, "test")),
        )
    if kind == "sugarcrepe":
        from crepe_datasets.builders.sources.sugarcrepe import read_sugarcrepe

        samples = read_sugarcrepe(path, drops)
        return (
            "sugarcrepe",
            TaskSpec("binary"),
            _pair_rows(samples, lambda s: (s.meta.get("subset", "all"), "test")),
        )
    from crepe_datasets.builders.sources.bivlc import read_bivlc

    return "bivlc", TaskSpec("group"), _group_rows(read_bivlc(path, drops))


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


COMPAT_KINDS = ("crepe-release", "aro-vga", "aro-vgr", "sugarcrepe", "bivlc")


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
