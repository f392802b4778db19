"""The ``groups`` checks of a build, registered for ``crepe validate dataset``
(:mod:`crepe_datasets.validation.registry`) for crepe-systematicity and crepe-productivity.

``groups_checks`` (and ``groups_comp_checks``) are the build manifest's
``validation.groups_checks`` (``groups_comp_checks``): every group re-verified
independently against the pool the build searched
(:func:`crepe_datasets.validation.counter_groups.check_groups`, through
:func:`.config.verify_groups`, the function the build runs). The pool is found where the manifest
records it, or at the paths given with ``--counter-pool`` (and ``--vg``, one more candidate for
the Visual Genome source) when it moved (:func:`.sources.resolve_pool`); a pool whose files
differ from the build's is refused. The pool's index is read from the cache (the build's
``--cache-dir`` when it is still there, else ``$CREPE_CACHE``) or built again. Each check claims
its config: the common checks leave it out (the build adds the groups after them), and so does
``systematicity_checks``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from crepe_datasets.builders.counter_images.config import verify_groups
from crepe_datasets.builders.counter_images.groups import COMP_CONFIG, CONFIG
from crepe_datasets.builders.counter_images.index import open_index
from crepe_datasets.builders.counter_images.sources import resolve_pool
from crepe_datasets.builders.productivity.checks import DATASET as PRODUCTIVITY
from crepe_datasets.builders.systematicity.checks import DATASET as SYSTEMATICITY
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.validation.invariants import InvariantReport
from crepe_datasets.validation.registry import CheckInput, register_check

# both declared (register_dataset) by their builders' check modules, imported above
DATASETS = (SYSTEMATICITY, PRODUCTIVITY)


def check_config(given: CheckInput, config: str = CONFIG) -> InvariantReport | None:
    """Re-verify every group of ``config`` against the pool; ``None`` when the build has no such
    config.

    Raises:
        CrepeInputError: the pool is not where the manifest says and no ``--counter-pool``
            path holds it, or its files differ from the build's.
    """
    if config not in given.manifest.configs:
        return None
    pool = (given.manifest.summary.get(config) or {}).get("pool") or {}
    sources = pool.get("sources")
    if not sources:
        raise CrepeInputError(
            f"{given.folder} records no counter pool sources (built before they were "
            "recorded); rebuild it to validate its groups."
        )
    candidates = (*given.counter_pool, *([given.vg] if given.vg is not None else []))
    vg, extra = resolve_pool(sources, candidates, given.folder)
    cache = given.manifest.parameters.get("cache_dir")
    cache_dir = cache if cache and (Path(cache) / "counter-pool").is_dir() else None
    index, _ = open_index(vg, extra, cache_dir)
    try:
        return verify_groups(index, given.tables.get(config) or {}, config)
    finally:
        index.close()


def _for(config: str) -> Callable[[CheckInput], InvariantReport | None]:
    def check(given: CheckInput) -> InvariantReport | None:
        return check_config(given, config)

    check.__name__ = f"{config}_checks"
    return check


groups_checks = _for(CONFIG)
groups_comp_checks = _for(COMP_CONFIG)

for _dataset in DATASETS:
    register_check(_dataset, "groups_checks", groups_checks, configs=(CONFIG,))
    register_check(_dataset, "groups_comp_checks", groups_comp_checks, configs=(COMP_CONFIG,))
