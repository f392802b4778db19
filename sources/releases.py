"""Released benchmarks by spec kind: how to read each and where its samples go.

========================  =======================================  =======================
kind                      configs / splits                          task
========================  =======================================  =======================
``crepe-release``         ``hn_<type>`` / ``complexity_<n>``        retrieval (1 + 5)
``aro-vga``               ``vg_attribution`` / ``test``             binary
``aro-vgr``               ``vg_relation`` / ``test``                binary
``sugarcrepe``            ``<subset>`` (``swap_att`` …) / ``test``  binary
``bivlc``                 ``bivlc`` / ``test``                      group (2×2)
========================  =======================================  =======================

CREPE's types map to the productivity config names (``atom`` → ``hn_atom``, ``swap`` →
``hn_swap``, ``negate`` → ``hn_negate``). The evaluator (``crepe evaluate --dataset KIND:PATH``)
and ``crepe audit`` look kinds up in :data:`RELEASES`; what a reader skips is counted in its
:class:`~crepe_datasets.infra.provenance.DropLog`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources.registry import Registry

ReleaseReader = Callable[[str, DropLog], Iterable[Any]]
Place = Callable[[Any], "tuple[str, str]"]


@dataclass(frozen=True)
class ReleaseFormat:
    """One registered benchmark release.

    Attributes:
        kind: the spec kind (``aro-vga`` …).
        name: the benchmark's name in results (``aro``).
        task: the evaluator's task type: ``retrieval``, ``binary`` or ``group``.
        read: ``read(path, drops)`` yielding :class:`~crepe_datasets.sources.records.PairSample`
            (or :class:`~crepe_datasets.sources.records.GroupSample` for ``group``).
        place: ``place(sample) -> (config, split)`` of a pair sample.
        help: one line for error messages.
    """

    kind: str
    name: str
    task: str
    read: ReleaseReader
    place: Place
    help: str


RELEASES: Registry[ReleaseFormat] = Registry(
    "benchmark release", "releases", lambda kind, r: f"{kind} ({r.help})"
)


def register_release(
    kind: str, name: str, task: str, help: str, place: Place
) -> Callable[[ReleaseReader], ReleaseReader]:
    """Decorator registering ``read`` under ``kind`` in :data:`RELEASES`."""

    def decorate(read: ReleaseReader) -> ReleaseReader:
        RELEASES.add(kind, ReleaseFormat(kind, name, task, read, place, help), read)
        return read

    return decorate


@register_release(
    "crepe-release",
    "crepe-release",
    "retrieval",
    "CREPE's released CSV files or their folder",
    lambda s: (f"hn_{s.meta.get('negative_type', 'all')}", f"complexity_{s.meta.get('n')}"),
)
def _crepe_release(path: str, drops: DropLog) -> Iterable[Any]:
    from crepe_datasets.sources.crepe_release import read_crepe_release

    return read_crepe_release(path, drops)


@register_release(
    "aro-vga",
    "aro",
    "binary",
    "ARO VG-Attribution JSON or caption lists",
    lambda s: ("vg_attribution", "test"),
)
def _aro_vga(path: str, drops: DropLog) -> Iterable[Any]:
    from crepe_datasets.sources.aro import read_aro_attribution

    return read_aro_attribution(path, drops)


@register_release(
    "aro-vgr",
    "aro",
    "binary",
    "ARO VG-Relation JSON or caption lists",
    lambda s: ("vg_relation", "test"),
)
def _aro_vgr(path: str, drops: DropLog) -> Iterable[Any]:
    from crepe_datasets.sources.aro import read_aro_relation

    return read_aro_relation(path, drops)


@register_release(
    "sugarcrepe",
    "sugarcrepe",
    "binary",
    "SugarCrepe JSON files or their folder",
    lambda s: (s.meta.get("subset", "all"), "test"),
)
def _sugarcrepe(path: str, drops: DropLog) -> Iterable[Any]:
    from crepe_datasets.sources.sugarcrepe import read_sugarcrepe

    return read_sugarcrepe(path, drops)


@register_release(
    "bivlc", "bivlc", "group", "BiVLC text table (CSV) or its folder", lambda s: ("bivlc", "test")
)
def _bivlc(path: str, drops: DropLog) -> Iterable[Any]:
    from crepe_datasets.sources.bivlc import read_bivlc

    return read_bivlc(path, drops)


def known_releases() -> dict[str, ReleaseFormat]:
    """Every registered release, by kind (sorted)."""
    return RELEASES.known()


def get_release(kind: str) -> ReleaseFormat:
    """The release registered as ``kind``, or an error listing the known kinds."""
    return RELEASES.get(kind)
