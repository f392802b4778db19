"""The benchmark registry: ``--benchmark NAME`` → how to read it and which config it becomes.

Each entry names the config, the task type the evaluator uses ("binary" for one image with a
positive and one negative caption, "group" for 2 images × 2 captions) and a ``read`` function
``read(path, drops, nlp) -> Iterator[BindingSample]``. Registering a name twice is an error naming
both entries; an unknown name is a :class:`CrepeInputError` listing the known ones (the
:class:`~crepe_datasets.sources.registry.Registry` of the readers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crepe_datasets.builders.bindsplit.adapters import BindingSample, aro_samples, free_form_samples
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.registry import Registry

Reader = Callable[[Path, DropLog, Any], Iterator[BindingSample]]


@dataclass(frozen=True)
class Benchmark:
    """One registered benchmark (see the module docstring)."""

    name: str
    config: str
    task: str
    description: str
    read: Reader
    stage: str


BENCHMARKS: Registry[Benchmark] = Registry(
    "benchmark",
    "benchmarks",
    lambda name, b: f"{name} ({b.description})",
    lambda s: s.strip().lower().replace("_", "-"),
)


def register(name: str, config: str, task: str, description: str) -> Callable[[Reader], Reader]:
    """Decorator registering a reader under ``name`` in :data:`BENCHMARKS`."""

    def decorate(read: Reader) -> Reader:
        benchmark = Benchmark(name, config, task, description, read, f"bindsplit_{config}")
        BENCHMARKS.add(name, benchmark, read)
        return read

    return decorate


def known_benchmarks() -> dict[str, Benchmark]:
    """Every registered benchmark, by name (sorted)."""
    return BENCHMARKS.known()


def get_benchmark(name: str) -> Benchmark:
    """The benchmark registered as ``name``, or an error listing the known names."""
    return BENCHMARKS.get(name)


@register(
    "aro-vga",
    "aro_vga",
    "binary",
    "ARO VG-Attribution: official JSON or att-original-true/false.json lists",
)
def _aro_vga(path: Path, drops: DropLog, nlp: Any) -> Iterator[BindingSample]:
    from crepe_datasets.sources.aro import read_aro_attribution

    return aro_samples(read_aro_attribution(path, drops), drops, stage="bindsplit_aro_vga")


@register(
    "sugarcrepe-swap-att", "sugarcrepe_swap_att", "binary", "SugarCrepe swap_att.json or its folder"
)
def _sugarcrepe_swap_att(path: Path, drops: DropLog, nlp: Any) -> Iterator[BindingSample]:
    from crepe_datasets.sources.sugarcrepe import read_sugarcrepe

    subsets = ["swap_att"] if Path(path).is_dir() else None
    pairs = read_sugarcrepe(path, drops, subsets=subsets)
    return free_form_samples(pairs, nlp, drops, stage="bindsplit_sugarcrepe_swap_att")


@register("bivlc", "bivlc", "group", "BiVLC text table (CSV) or its folder")
def _bivlc(path: Path, drops: DropLog, nlp: Any) -> Iterator[BindingSample]:
    from crepe_datasets.sources.bivlc import read_bivlc

    return free_form_samples(read_bivlc(path, drops), nlp, drops, stage="bindsplit_bivlc")


@register(
    "vismin",
    "vismin",
    "group",
    "VisMin bench table (text_0/text_1/image_0/image_1) or save_to_disk folder",
)
def _vismin(path: Path, drops: DropLog, nlp: Any) -> Iterator[BindingSample]:
    from crepe_datasets.builders.bindsplit.group_table import read_group_table

    return free_form_samples(
        read_group_table(path, drops, "vismin"), nlp, drops, stage="bindsplit_vismin"
    )


@register(
    "group-table",
    "group_table",
    "group",
    "any 2x2 table with caption_0/caption_1 (+ image_0_file/image_1_file)",
)
def _group_table(path: Path, drops: DropLog, nlp: Any) -> Iterator[BindingSample]:
    from crepe_datasets.builders.bindsplit.group_table import read_group_table

    groups = read_group_table(path, drops, "group_table")
    return free_form_samples(groups, nlp, drops, stage="bindsplit_group_table")
