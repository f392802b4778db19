"""Build crepe-captioning (SPEC §5): compositional splits of COCO captions.

Steps: (1) captions grouped by image (:mod:`.inputs`); (2) every caption parsed once into
length and bindings on an engine, cached by input checksum (:mod:`.concepts`); (3) per image,
the held-out pairs its captions bind, its average length, its synonym-group words and (with
``--instances``) its box count; (4) the split rules of :mod:`.splits`; (5) one row per image
and config through :func:`crepe_datasets.builders.writer.write_dataset`. Configs:
``systematicity``, ``productivity_length``, ``substitutivity`` and, with instances,
``productivity_density``. Every image is in exactly one split of each config.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from crepe_datasets.builders.captioning import rows as R
from crepe_datasets.builders.captioning import splits as S
from crepe_datasets.builders.captioning.inputs import attach_facts, coco_path, read_images
from crepe_datasets.builders.captioning.instances import STAGE as DENSITY_STAGE
from crepe_datasets.builders.captioning.instances import read_box_counts
from crepe_datasets.builders.captioning.pairs import load_pairs, load_synonyms, pairs_in
from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.cards.metadata import CardInfo
from crepe_datasets.scenegraph.errors import CrepeInputError
from crepe_datasets.scenegraph.provenance import DropLog, combined_checksum, describe_inputs
from crepe_datasets.scenegraph.version import __version__

CITATION = """@inproceedings{nikolaus2019compositional,
  title     = {Compositional Generalization in Image Captioning},
  author    = {Nikolaus, Mitja and Abdou, Mostafa and Lamm, Matthew and Aralikatte, Rahul and Elliott, Desmond},
  booktitle = {Proceedings of the 23rd Conference on Computational Natural Language Learning (CoNLL)},
  year      = {2019}
}"""
PAPER_SIZES = {"train": S.PAPER_TRAIN_IMAGES, "validation": 5000, "test_rich": 5000, "test_base": 5000}


@dataclass
class CaptioningSettings:
    """Inputs and settings of one build (serialised into the manifest's parameters)."""

    captions: list[str]
    out: str
    instances: list[str] = field(default_factory=list)
    images: str | None = None
    pairs: str | None = None
    synonyms: str | None = None
    seed: int = 0
    split_size: int | None = None
    engine: str = "local"
    workers: int = 1
    scheduler: str | None = None
    cache_dir: str | None = None
    spacy_model: str | None = None
    version: str = __version__
    progress: bool = True


def _folder(path: Path) -> str:
    """COCO's image folder for a captions file: captions_val2014.json → val2014."""
    stem = path.stem
    return stem.split("_", 1)[1] if stem.startswith("captions_") else ""


def _row(img: Any, folder: str) -> dict[str, Any]:
    image_file = f"{folder}/{img.file_name}" if folder else img.file_name
    return {"image_id": img.image_id, "image_file": image_file, "captions": list(img.captions)}


def _card(s: CaptioningSettings, size: int, n: int, tables: dict[str, str]) -> CardInfo:
    how = (
        f"From {n:,} COCO images ({', '.join(s.captions)}), seed {s.seed}. Captions are parsed by the "
        "toolkit's caption parser (spaCy); a held-out pair is found on the parsed, lemmatised "
        "attribute–object and verb–subject bindings, never by substring. Held-out split size: "
        f"**{size:,} images** ({'given' if s.split_size else S.SIZE_RULE}); the paper uses 5,000 "
        f"beside {S.PAPER_TRAIN_IMAGES:,} training images. Length = mean number of spaCy tokens per "
        "caption (punctuation not counted).\n\n### Held-out pairs\n\n"
        + tables["pairs"]
        + "\n\n### Average caption length per image (productivity_length)\n\n"
        + tables["length"]
        + ("\n\n### Boxes per image (productivity_density)\n\n" + tables["density"] if tables.get("density") else "")
    )
    return CardInfo(
        pretty_name="CREPE captioning",
        summary="Compositional splits of COCO captions for captioning models: held-out concept "
        "pairs (systematicity), long captions and dense images (productivity), synonyms "
        "(substitutivity).",
        task_categories=("image-to-text",),
        tags=("compositionality", "image-captioning", "benchmark"),
        source_datasets=("COCO",),
        limitations=(
            "Pairs are found by a rule-based parser: a missed binding leaves a held-out pair in train.",
            "test_no_comb images name the pair's noun when enough such images exist; others are drawn "
            "from the remaining pair-free images (counted per pair).",
            "Density counts every COCO instance annotation, crowd regions included.",
        ),
        citations=(CITATION,),
        how_built=how,
    )


def build_captioning(s: CaptioningSettings) -> tuple[Path, BuildManifest]:
    """Build the dataset folder; return it and its manifest.

    Raises:
        CrepeInputError: no or bad captions file, bad pairs / synonyms / instances file.
    """
    from crepe_datasets.builders.engines.base import make_engine
    from crepe_datasets.builders.writer import write_dataset

    if not s.captions:
        raise CrepeInputError("give at least one --captions coco:PATH (a COCO captions JSON file).")
    paths = [coco_path(c) for c in s.captions]
    pairs, groups = load_pairs(s.pairs), load_synonyms(s.synonyms)
    drops = DropLog()
    images = read_images(paths, drops)
    folder_of = {}
    for path in paths:
        for iid in _ids_in(path):
            folder_of.setdefault(iid, _folder(path))
    inputs = describe_inputs(paths)
    with make_engine(s.engine, s.workers, s.scheduler) as engine:
        parse_info = attach_facts(images, combined_checksum(inputs), engine, cache_dir=s.cache_dir, model=s.spacy_model, progress=s.progress)  # fmt: skip
    ids = list(images)
    size = S.scaled_size(len(ids), s.split_size)
    present = {i: pairs_in(pairs, img.facts) for i, img in images.items()}
    nouns = {i: {p.id for p in pairs if any(p.noun_in(f) for f in img.facts)} for i, img in images.items()}
    split_sys, balances, pair_stats = S.systematicity(ids, present, nouns, [p.id for p in pairs], size, s.seed)
    avg_len = {i: sum(f.n_tokens for f in img.facts) / len(img.facts) for i, img in images.items()}
    split_len = S.by_score(ids, avg_len, size, s.seed, ("test_rich", "test_base"), "length")
    uses = {i: {g.canonical: set().union(*(g.words_in(f) for f in img.facts)) for g in groups} for i, img in images.items()}  # fmt: skip
    split_sub = S.substitutivity(uses, ids)
    assignments = {"systematicity": split_sys, "productivity_length": split_len, "substitutivity": split_sub}
    tables: dict[str, dict[str, list]] = {c: {} for c in assignments}
    for i, img in images.items():
        base = _row(img, folder_of.get(i, ""))
        tables["systematicity"].setdefault(split_sys[i], []).append({**base, "heldout_pairs": present[i], "no_comb_pair": balances.get(i)})  # fmt: skip
        tables["productivity_length"].setdefault(split_len[i], []).append({**base, "avg_length": round(avg_len[i], 4)})  # fmt: skip
        used = {c: sorted(w) for c, w in uses[i].items() if w}
        tables["substitutivity"].setdefault(split_sub[i], []).append({**base, "synonym_groups": sorted(used), "words_used": sorted(set().union(*map(set, used.values())))})  # fmt: skip
    card_tables = {
        "pairs": R.pairs_table(pair_stats, {p.id: sum(p.in_facts(f) for img in images.values() for f in img.facts) for p in pairs}),  # fmt: skip
        "length": R.histogram_table(avg_len, split_len, "avg tokens"),
    }
    density: dict[str, Any] = {"instances": "not given (--instances): no productivity_density config"}
    if s.instances:
        boxes = read_box_counts([Path(p) for p in s.instances], drops)
        dense_ids = [i for i in ids if i in boxes]
        for i in ids:
            if i not in boxes:
                drops.drop(DENSITY_STAGE, "image_not_in_instances", f"image_id {i}")
        dsize = S.scaled_size(len(dense_ids), s.split_size)
        split_den = S.by_score(dense_ids, boxes, dsize, s.seed, ("test_high_density", "test_low_density"), "density")  # fmt: skip
        assignments["productivity_density"] = split_den
        tables["productivity_density"] = {}
        for i in dense_ids:
            row = {**_row(images[i], folder_of.get(i, "")), "n_boxes": boxes[i], "avg_length": round(avg_len[i], 4)}
            tables["productivity_density"].setdefault(split_den[i], []).append(row)
        card_tables["density"] = R.histogram_table({i: float(boxes[i]) for i in dense_ids}, split_den, "boxes")
        density = {"images_with_boxes": len(dense_ids), "split_size": dsize}
    for config, assignment in assignments.items():
        S.check_partition(ids if config != "productivity_density" else list(assignment), assignment)
    manifest = BuildManifest(
        dataset="crepe-captioning",
        version=s.version,
        builder="crepe_datasets.builders.captioning",
        card=_card(s, size, len(ids), card_tables),
        configs=R.config_infos(list(tables)),
        parameters={k: v for k, v in asdict(s).items() if k not in ("progress", "cache_dir")},
        seed=s.seed,
        models={"spacy": parse_info["spacy_model"], "caption_parser": parse_info["parser_version"]},
    )
    manifest.add_inputs(*paths, *[Path(p) for p in s.instances])
    for extra in (s.pairs, s.synonyms):
        if extra:
            manifest.add_inputs(Path(extra))
    manifest.drops.merge(drops)
    manifest.summary = {
        "images": len(ids),
        "captions": parse_info["captions"],
        "split_size": size,
        "size_rule": "given by --split-size" if s.split_size else S.SIZE_RULE,
        "paper_sizes": {"productivity_length": PAPER_SIZES, "systematicity": "test_comb = test_no_comb per pair"},
        "pairs": {p.id: {**p.to_dict(), "modifier_forms": sorted(p.modifier_forms), "noun_forms": sorted(p.noun_forms), **pair_stats[p.id]} for p in pairs},  # fmt: skip
        "synonym_groups": {g.canonical: list(g.synonyms) for g in groups},
        "density": density,
        "parse": {k: v for k, v in parse_info.items() if k != "cache_path"},
    }
    tables = {c: R.ordered(t) for c, t in tables.items()}
    out = write_dataset(s.out, tables, manifest, features={c: R.features(c) for c in tables})
    return out, manifest


def _ids_in(path: Path) -> list[str]:
    from crepe_datasets.scenegraph.jsonstream import iter_json_items

    return [str(e["id"]) for e in iter_json_items(path, "images.item") if isinstance(e, dict) and "id" in e]
