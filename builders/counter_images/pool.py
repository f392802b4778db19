"""Readers of the counter-image pool: annotated graphs of Visual Genome images and regions.

Each reader streams :class:`PoolRegion` records (one at a time; nothing is held beyond one
image's record), counting what it skips in the :class:`~crepe_datasets.infra.provenance.DropLog`
under stage ``counter_pool``:

* :func:`iter_vg_images` — ``scene_graphs.json`` of a Visual Genome folder: one record per image,
  its whole human scene graph (objects keep their boxes, so a match is localised to the union of
  the matched objects' boxes);
* :func:`iter_vg_region_graphs` — ``region_graphs.json`` (Visual Genome v1.2+), when the folder
  has it: one record per region, the region's own graph and box;
* :func:`iter_factual` — a FACTUAL CSV (``image_id, region_id, caption, scene_graph``): one
  record per row, the human graph of one Visual Genome region description. FACTUAL gives no
  box: a region whose id is in the ``--vg`` folder's ``region_descriptions.json`` gets that box,
  the others have none (the evaluator then shows the whole image). FACTUAL writes objects by
  name, so two objects of one name are one node: rows relating a name to itself ("( fridge , on
  top of , fridge )") are dropped (``factual_same_name_objects``), their attributes being ambiguous.

:func:`pool_sources` turns the ``--counter-pool`` paths into readers: a ``.csv`` file is read as
FACTUAL, a folder with ``scene_graphs.json`` as Visual Genome.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject

STAGE = "counter_pool"
SOURCES = ("vg_image", "vg_region", "factual")


@dataclass
class PoolRegion:
    """One annotated image or region of the pool."""

    source: str
    image_id: str
    region_id: str
    box: list[float] | None
    width: int | None
    height: int | None
    file: str
    text: str
    graph: SceneGraph

    def to_list(self) -> list:
        """A compact JSON-friendly form (the index's region store)."""
        return [self.source, self.image_id, self.region_id, self.box, self.width, self.height,
                self.file, self.text, self.graph.to_dict()]  # fmt: skip

    @classmethod
    def from_list(cls, data: list) -> PoolRegion:
        """Inverse of :meth:`to_list`."""
        return cls(*data[:8], graph=SceneGraph.from_dict(data[8]))

    @property
    def relative_area(self) -> float | None:
        """The box's share of the image, when both are known."""
        if not self.box or not self.width or not self.height:
            return None
        return (self.box[2] * self.box[3]) / float(self.width * self.height)


def _image_data(folder: Path, drops: DropLog) -> dict:
    from crepe_datasets.scenegraph.visual_genome import read_image_data

    path = folder / "image_data.json"
    return read_image_data(path, drops) if path.is_file() else {}


def _file(infos: dict, image_id: str) -> str:
    info = infos.get(image_id)
    return info.file_name if info is not None else f"{image_id}.jpg"


def iter_vg_images(folder: str | Path, drops: DropLog) -> Iterator[PoolRegion]:
    """Whole-image scene graphs of a Visual Genome folder."""
    from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs

    folder = Path(folder)
    infos = _image_data(folder, drops)
    for g in iter_scene_graphs(folder / "scene_graphs.json", drops, infos or None):
        image_id = str(g.image_id)
        box = [0.0, 0.0, float(g.width), float(g.height)] if g.width and g.height else None
        yield PoolRegion("vg_image", image_id, "", box, g.width, g.height,
                         _file(infos, image_id), "", g)  # fmt: skip


def iter_vg_region_graphs(folder: str | Path, drops: DropLog) -> Iterator[PoolRegion]:
    """Region graphs of ``region_graphs.json`` (nothing when the folder has none)."""
    from crepe_datasets.infra.jsonstream import iter_json_items
    from crepe_datasets.scenegraph.vg.parse import read_box
    from crepe_datasets.scenegraph.vg.scene_graphs import collect_objects, graph_relationships

    folder = Path(folder)
    path = folder / "region_graphs.json"
    if not path.is_file():
        return
    infos = _image_data(folder, drops)
    for rec in iter_json_items(path, "item"):
        if not isinstance(rec, dict) or not isinstance(rec.get("regions"), list):
            drops.drop(STAGE, "region_graph_record_malformed", str(rec)[:60])
            continue
        image_id = str(rec.get("image_id", rec.get("id")))
        info = infos.get(image_id)
        for d in rec["regions"]:
            where = f"region_graphs image {image_id}"
            if not isinstance(d, dict):
                drops.drop(STAGE, "region_graph_malformed", where)
                continue
            objects = collect_objects(d.get("objects") or [], info, drops, STAGE, where)
            rels = graph_relationships(d.get("relationships"), objects, drops, STAGE, where)
            box = read_box(d)
            if not objects:
                drops.drop(STAGE, "region_graph_no_objects", where)
                continue
            w, h = (info.width, info.height) if info else (None, None)
            yield PoolRegion(
                "vg_region", image_id, str(d.get("region_id", d.get("id", ""))),
                box.to_list() if box else None, w, h, _file(infos, image_id),
                str(d.get("phrase") or ""), SceneGraph(list(objects.values()), rels, image_id, w, h),
            )  # fmt: skip


def factual_graph(text: str, image_id: str) -> SceneGraph:
    """A FACTUAL ``scene_graph`` string as a :class:`SceneGraph` (one object per name).

    Raises:
        ValueError: a tuple has neither one nor three parts.
    """
    from crepe_datasets.validation.factual import parse_scene_graph

    objects, attributes, relations = parse_scene_graph(text)
    ids = {name: i for i, name in enumerate(objects)}
    attrs: dict[str, list[str]] = {name: [] for name in objects}
    for obj, attr in attributes:
        if attr not in attrs[obj]:
            attrs[obj].append(attr)
    nodes = [SGObject(ids[n], n, tuple(attrs[n])) for n in objects]
    rels = [Relationship(ids[s], p, ids[o]) for s, p, o in relations]
    return SceneGraph(nodes, rels, image_id)


def _factual_boxes(path: Path, vg: Path | None, drops: DropLog) -> dict[str, list[float]]:
    """Boxes of the FACTUAL regions that the VG folder's region file describes."""
    from crepe_datasets.scenegraph.visual_genome import iter_regions

    regions = vg / "region_descriptions.json" if vg else None
    if regions is None or not regions.is_file():
        return {}
    with path.open(newline="", encoding="utf-8-sig", errors="surrogateescape") as handle:
        wanted = {row.get("region_id") or "" for row in csv.DictReader(handle)}
    return {
        str(r.region_id): r.box.to_list()
        for r in iter_regions(regions, DropLog())
        if str(r.region_id) in wanted
    }


def iter_factual(
    path: str | Path, drops: DropLog, vg: str | Path | None = None
) -> Iterator[PoolRegion]:
    """The rows of a FACTUAL CSV as pool regions; malformed rows counted.

    Raises:
        CrepeInputError: the file is missing or lacks FACTUAL's columns.
    """
    from crepe_datasets.infra.hygiene import clean_text
    from crepe_datasets.validation.factual import REQUIRED_COLUMNS

    p = Path(path)
    if not p.is_file():
        raise CrepeInputError(
            f"--counter-pool {p} does not exist; give a FACTUAL CSV or a VG folder."
        )
    vg_folder = Path(vg) if vg else None
    boxes = _factual_boxes(p, vg_folder, drops)
    infos = _image_data(vg_folder, drops) if vg_folder else {}
    csv.field_size_limit(1 << 30)
    with p.open(newline="", encoding="utf-8-sig", errors="surrogateescape") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in (*REQUIRED_COLUMNS, "image_id") if c not in (reader.fieldnames or [])]
        if missing:
            raise CrepeInputError(
                f"--counter-pool {p} lacks column(s) {', '.join(missing)}; a FACTUAL CSV has "
                "image_id,region_id,caption,scene_graph."
            )
        for n, row in enumerate(reader):
            image_id, region_id = str(row.get("image_id") or ""), str(row.get("region_id") or "")
            caption = clean_text(
                (row.get("caption") or "").strip(), drops, STAGE, f"{p.name} row {n}"
            )
            if not image_id or not caption:
                drops.drop(STAGE, "factual_row_incomplete", f"{p.name} row {n}")
                continue
            try:
                graph = factual_graph(row.get("scene_graph") or "", image_id)
            except ValueError as err:
                drops.drop(STAGE, "factual_malformed_scene_graph", f"{p.name} row {n}: {err}")
                continue
            if not graph.objects:
                drops.drop(STAGE, "factual_empty_scene_graph", f"{p.name} row {n}")
                continue
            if any(r.subject == r.object for r in graph.relationships):
                # "( fridge , on top of , fridge )": two objects of one name merged into one node,
                # whose attributes then belong to either ("the fridge on top of the blue one")
                drops.drop(STAGE, "factual_same_name_objects", f"{p.name} row {n}")
                continue
            info = infos.get(image_id)
            w, h = (info.width, info.height) if info else (None, None)
            yield PoolRegion("factual", image_id, region_id, boxes.get(region_id), w, h,
                             _file(infos, image_id), caption, graph)  # fmt: skip


def pool_sources(
    vg: str | Path, extra: list[str] | tuple[str, ...] = ()
) -> list[tuple[Path, Callable]]:
    """``(path, reader)`` of every pool source: the ``--vg`` folder first, then each
    ``--counter-pool`` path (a FACTUAL ``.csv`` or another VG folder), duplicates once.

    Raises:
        CrepeInputError: a path is neither a CSV file nor a folder with ``scene_graphs.json``.
    """
    out: list[tuple[Path, Callable]] = []
    seen: set[Path] = set()
    for raw in [str(vg), *extra]:
        p = Path(raw).resolve()
        if p in seen:
            continue
        seen.add(p)
        if p.is_dir() and (p / "scene_graphs.json").is_file():
            folder = p
            out.append((p, lambda d, f=folder: _vg_folder(f, d)))
        elif p.is_file() and p.suffix.lower() == ".csv":
            out.append((p, lambda d, f=p: iter_factual(f, d, vg)))
        else:
            raise CrepeInputError(
                f"--counter-pool {raw} is neither a FACTUAL CSV nor a Visual Genome folder "
                "with scene_graphs.json."
            )
    return out


def _vg_folder(folder: Path, drops: DropLog) -> Iterator[PoolRegion]:
    yield from iter_vg_images(folder, drops)
    yield from iter_vg_region_graphs(folder, drops)


def source_files(path: Path) -> list[Path]:
    """The files a pool source reads (for the cache key)."""
    if path.is_file():
        return [path]
    names = (
        "scene_graphs.json",
        "image_data.json",
        "region_graphs.json",
        "region_descriptions.json",
    )
    return [path / n for n in names if (path / n).is_file()]
