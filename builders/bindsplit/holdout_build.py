"""Write a controlled hold-out (:mod:`crepe_datasets.builders.bindsplit.holdout`) as a dataset folder.

One config, ``holdout`` (task ``binary``), with splits ``train``, ``fully_seen``,
``partially_unseen`` and ``fully_unseen``; the held-out block, its seed and every count are in the
manifest's ``summary``.
"""

from __future__ import annotations

from pathlib import Path

from crepe_datasets.builders.bindsplit.holdout import (
    SPLITS,
    build_holdout,
    grid_from_rows,
    make_grid,
    sample_row,
)
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.cards.metadata import CardInfo, ConfigInfo, TaskSpec
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.version import __version__


def build_holdout_dataset(
    out: str | Path,
    *,
    grid: str | Path | None = None,
    attributes: list[str] | None = None,
    objects: list[str] | None = None,
    k: int = 3,
    seed: int = 0,
    seen_test_fraction: float = 0.2,
) -> tuple[Path, BuildManifest]:
    """Build the hold-out dataset from a grid table, or from attribute and object lists.

    Raises:
        CrepeInputError: neither (or both) of ``grid`` and ``attributes``/``objects`` given, or a bad grid.
    """
    from crepe_datasets.builders.bindsplit.group_table import rows_of_file
    from crepe_datasets.builders.writer import write_dataset

    if (grid is None) == (attributes is None or objects is None):
        raise CrepeInputError("give either --grid FILE or both --attributes and --objects.")
    manifest = BuildManifest(
        dataset="crepe-bindsplit-holdout",
        version=__version__,
        builder="crepe_datasets.builders.bindsplit.holdout",
        card=CardInfo(
            pretty_name="CREPE BindSplit controlled hold-out",
            summary="Attribute-object bindings held out as a k x k block of a grid: fully seen, "
            "partially unseen and fully unseen test splits with balanced positives and swapped negatives.",
            tags=("compositionality", "vision-language", "benchmark", "binding"),
            how_built="A seeded k x k block of (attribute, object) bindings is removed from training; test "
            "samples hold 1 or 2 held-out bindings in both the positive and the swapped negative.",
        ),
        seed=seed,
        parameters={"k": k, "seen_test_fraction": seen_test_fraction, "grid": str(grid) if grid else None,
                    "attributes": attributes, "objects": objects},
    )  # fmt: skip
    if grid is not None:
        manifest.add_inputs(grid)
        samples = grid_from_rows(rows_of_file(Path(grid)), manifest.drops)
    else:
        samples = make_grid(attributes or [], objects or [])
    block, splits = build_holdout(samples, k, seed, seen_test_fraction, manifest.drops)
    manifest.configs["holdout"] = ConfigInfo(
        "holdout", f"{k}x{k} held-out block", TaskSpec(type="binary")
    )
    manifest.summary = {"block": block.to_dict(), "grid_samples": len(samples)} | {
        f"{s}_samples": len(splits[s]) for s in SPLITS
    }
    tables = {"holdout": {s: [sample_row(x, block) for x in splits[s]] for s in SPLITS}}
    return write_dataset(out, tables, manifest, features={"holdout": _features()}), manifest


def _features():
    from datasets import Features, List, Value

    string = Value("string")
    cols = {"id": string, "caption": string, "hard_negatives": List(string), "image_file": string,
            "bbox": List(Value("float64"))}  # fmt: skip
    cols |= {c: string for c in ("attr_1", "obj_1", "attr_2", "obj_2")}
    cols |= {"held_out_positive": Value("int64"), "held_out_negative": Value("int64")}
    return Features(cols)
