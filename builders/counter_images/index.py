"""The inverted index of the counter-image pool: atoms and compounds → pool regions.

Built once per pool, streamed: the readers of :mod:`.pool` yield one region at a time, each
region's graph is canonicalised (:class:`.terms.Terms`) and appended to a region store on disk
(``regions.jsonl`` with ``offsets.npy``), and only its keys stay in memory, as arrays of region
numbers. Keys are ``o:<object>``, ``a:<attribute>``, ``r:<predicate>``, ``ao:<attribute>|<object>``
and ``oro:<subject>|<predicate>|<object>`` of canonical names; an object whose compound name is a
kind of its head noun is keyed under both (:meth:`.terms.Terms.head`: "desk chair" and "chair").

Files of an index folder: ``regions.jsonl`` (one :meth:`.pool.PoolRegion.to_list` per line),
``offsets.npy`` (byte offset of each line), ``keys.json`` (``{key: [start, end]}`` into
``postings.npy``, the concatenated region numbers, ascending per key) and ``manifest.json``
(format, inputs with SHA-256, counts per source, drops). Identical inputs give identical files.

Cache: like the seen tables (:mod:`crepe_datasets.builders.systematicity.seen_source`), the
folder is ``<cache>/counter-pool/<key>/`` where ``key`` hashes the index format and the SHA-256
of every input file (pool files and the VG alias lists): a second build with the same pool
reads the index instead of building it. The folder is written under a temporary name and
renamed when complete, so an interrupted build leaves no half index.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from crepe_datasets.builders.counter_images.pool import PoolRegion, pool_sources, source_files
from crepe_datasets.generators.terms import Terms
from crepe_datasets.infra.provenance import (
    DropLog,
    cache_root,
    combined_checksum,
    describe_inputs,
    write_json_atomic,
)
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject

INDEX_FORMAT = "counter-pool-3"  # change with the readers or the canonical names
# the head of a region-store line: its source, image id and region id
_HEAD = re.compile(rb'^\["((?:[^"\\]|\\.)*)","((?:[^"\\]|\\.)*)","((?:[^"\\]|\\.)*)",')


def canonical_graph(graph: SceneGraph, terms: Terms) -> SceneGraph:
    """``graph`` with every name canonical; repeated attributes and triples once."""
    objects = []
    for o in graph.objects:
        attrs = tuple(dict.fromkeys(terms.canon("attribute", a) for a in o.attributes))
        objects.append(SGObject(o.id, terms.canon("object", o.name), attrs, o.box, o.synset))
    ids = {o.id for o in objects}
    seen, rels = set(), []
    for r in graph.relationships:
        key = (r.subject, terms.canon("relationship", r.predicate), r.object)
        if r.subject in ids and r.object in ids and key not in seen and r.subject != r.object:
            seen.add(key)
            rels.append(Relationship(*key))
    return SceneGraph(objects, rels, graph.image_id, graph.width, graph.height)


def graph_keys(graph: SceneGraph, head: Callable[[str], str | None] | None = None) -> set[str]:
    """The index keys of a canonical graph (``head``: an object is also keyed under the head
    noun it gives, :meth:`.terms.Terms.head`: "desk chair" under "chair" too)."""
    names: dict[int, list[str]] = {}
    for o in graph.objects:
        h = head(o.name) if head is not None else None
        names[o.id] = [o.name] if h is None else [o.name, h]
    keys = set()
    for o in graph.objects:
        for a in o.attributes:
            keys.add(f"a:{a}")
        for n in names[o.id]:
            keys.add(f"o:{n}")
            keys.update(f"ao:{a}|{n}" for a in o.attributes)
    for r in graph.relationships:
        if r.subject not in names or r.object not in names:
            continue
        keys.add(f"r:{r.predicate}")
        keys.update(f"oro:{x}|{r.predicate}|{y}" for x in names[r.subject] for y in names[r.object])
    return keys


def index_folder(vg: str, extra: list[str] | tuple[str, ...], cache_dir: str | None = None) -> Path:
    """The cache folder of the pool made of ``vg`` and the ``--counter-pool`` paths ``extra``."""
    files: list[Path] = []
    for path, _ in pool_sources(vg, extra):
        files += source_files(path)
    files += Terms().files(vg)
    raw = json.dumps([INDEX_FORMAT, combined_checksum(describe_inputs(files))])
    key = hashlib.sha256(raw.encode()).hexdigest()[:20]
    root = (
        Path(cache_dir).expanduser() / "counter-pool" if cache_dir else cache_root("counter-pool")
    )
    return root / key


def build_index(vg: str, extra: list[str] | tuple[str, ...], folder: Path) -> dict[str, Any]:
    """Read every pool source and write the index into ``folder``; return its manifest."""
    terms = Terms.from_vg(vg)
    drops = DropLog()
    tmp = folder.with_name(folder.name + f".tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    postings: dict[str, array] = defaultdict(lambda: array("I"))
    offsets = array("Q")
    counts: Counter = Counter()
    inputs: list[Path] = []
    n = 0
    with (tmp / "regions.jsonl").open("wb") as out:
        for path, reader in pool_sources(vg, extra):
            inputs += source_files(path)
            for region in reader(drops):
                region.graph = canonical_graph(region.graph, terms)
                offsets.append(out.tell())
                line = json.dumps(region.to_list(), ensure_ascii=False, separators=(",", ":"))
                out.write(line.encode("utf-8") + b"\n")
                for key in graph_keys(region.graph, terms.head):
                    postings[key].append(n)
                counts[region.source] += 1
                n += 1
    keys, start, chunks = {}, 0, []
    for key in sorted(postings):
        values = postings[key]
        keys[key] = [start, start + len(values)]
        start += len(values)
        chunks.append(np.frombuffer(values, dtype=np.uint32))
    np.save(tmp / "postings.npy", np.concatenate(chunks) if chunks else np.zeros(0, np.uint32))
    np.save(
        tmp / "offsets.npy",
        np.frombuffer(offsets, dtype=np.uint64) if n else np.zeros(0, np.uint64),
    )
    (tmp / "keys.json").write_text(
        json.dumps(keys, ensure_ascii=False, sort_keys=True), encoding="utf-8"
    )
    manifest = {
        "format": INDEX_FORMAT,
        "inputs": [f.to_dict() for f in describe_inputs(inputs + terms.files(vg))],
        "regions": n,
        "by_source": dict(sorted(counts.items())),
        "keys": len(keys),
        "postings": start,
        "drops": drops.to_dict(),
    }
    write_json_atomic(tmp / "manifest.json", manifest)
    shutil.rmtree(folder, ignore_errors=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp.rename(folder)
    return manifest


class CounterIndex:
    """A built index: postings in memory (memory-mapped), regions read from disk on demand."""

    def __init__(self, folder: str | Path, terms: Terms) -> None:
        self.folder = Path(folder)
        self.terms = terms
        self.manifest = json.loads((self.folder / "manifest.json").read_text(encoding="utf-8"))
        self.keys: dict[str, list[int]] = json.loads(
            (self.folder / "keys.json").read_text(encoding="utf-8")
        )
        self.postings = np.load(self.folder / "postings.npy", mmap_mode="r")
        self.offsets = np.load(self.folder / "offsets.npy", mmap_mode="r")
        self._handle = (self.folder / "regions.jsonl").open("rb")
        self.region = functools.lru_cache(maxsize=4096)(self._region)
        terms.add_predicates({k[2:] for k in self.keys if k.startswith("r:")})

    def __len__(self) -> int:
        return int(self.manifest["regions"])

    def posting(self, key: str) -> np.ndarray:
        """Region numbers holding ``key`` (ascending; empty when none)."""
        span = self.keys.get(key)
        if span is None:
            return np.zeros(0, np.uint32)
        return np.asarray(self.postings[span[0] : span[1]])

    def states(self, compounds: list[tuple[str, ...]], besides: str | None = None) -> bool:
        """Whether every compound, ``("ao", attribute, object)`` or ``("oro", subject,
        predicate, object)`` in any surface form, is a key of some region of an image other
        than ``besides``: a human graph there states it (:func:`~.match.find_counter` is the
        full rule)."""
        return not compounds or self.images_stating(compounds, besides) > 0

    def images_stating(self, compounds: list[tuple[str, ...]], besides: str | None = None) -> int:
        """How many images other than ``besides`` have a region stating each compound (the
        least over ``compounds``): how often people say it, where :meth:`states` says whether."""
        own = self._codes.get(str(besides))
        return min(
            (len(images) - (own in images) for images in map(self._images_of, compounds)),
            default=0,
        )

    @functools.lru_cache(maxsize=65536)  # noqa: B019 (one index per build, kept to its end)
    def _images_of(self, compound: tuple[str, ...]) -> frozenset[int]:
        """The image codes (:attr:`region_images`) of the regions holding the compound's key."""
        return frozenset(self.region_images[0][self.posting(self._key(compound))].tolist())

    @functools.cached_property
    def _codes(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.region_images[1])}

    def _key(self, compound: tuple[str, ...]) -> str:
        canon = self.terms.canon
        if compound[0] == "ao" and len(compound) == 3:
            return f"ao:{canon('attribute', compound[1])}|{canon('object', compound[2])}"
        if compound[0] == "oro" and len(compound) == 4:
            _, x, p, y = compound
            return f"oro:{canon('object', x)}|{canon('relationship', p)}|{canon('object', y)}"
        raise ValueError(f"not a compound: {compound!r}")

    @functools.cached_property
    def region_images(self) -> tuple[np.ndarray, list[str]]:
        """The image of every region (``names[images[number]]``); one pass over the region
        store's line heads, on first use."""
        codes: dict[str, int] = {}
        images = array("I")
        with (self.folder / "regions.jsonl").open("rb") as handle:
            for line in handle:
                head = _HEAD.match(line)
                name = json.loads(b'"' + head.group(2) + b'"') if head is not None else ""
                images.append(codes.setdefault(name, len(codes)))
        return np.frombuffer(images, dtype=np.uint32), list(codes)

    def _region(self, number: int) -> PoolRegion:
        self._handle.seek(int(self.offsets[number]))
        return PoolRegion.from_list(json.loads(self._handle.readline()))

    def lookup(self, wanted: set[tuple[str, str, str]]) -> dict[tuple[str, str, str], list[int]]:
        """Region numbers of the ``(source, image id, region id)`` keys in ``wanted``.

        One pass over the region store that reads each line's head only (a full parse per
        region of all of Visual Genome would take minutes).
        """
        return self.scan(wanted, set())[0]

    def scan(
        self, wanted: set[tuple[str, str, str]], images: set[str]
    ) -> tuple[dict[tuple[str, str, str], list[int]], dict[str, list[int]]]:
        """Region numbers of the keys in ``wanted`` (as :meth:`lookup`), and of every region of
        the images in ``images`` (any source), in one pass over the line heads."""
        out: dict[tuple[str, str, str], list[int]] = {}
        by_image: dict[str, list[int]] = {}
        with (self.folder / "regions.jsonl").open("rb") as handle:
            for number, line in enumerate(handle):
                head = _HEAD.match(line)
                if head is None:
                    continue
                key = tuple(json.loads(b'"' + part + b'"') for part in head.groups())
                if key in wanted:
                    out.setdefault(key, []).append(number)  # type: ignore[arg-type]
                if key[1] in images:
                    by_image.setdefault(key[1], []).append(number)
        return out, by_image

    def image_regions(self, images: set[str]) -> dict[str, list[int]]:
        """Region numbers of every pool region (any source) of each image in ``images``."""
        return self.scan(set(), images)[1]

    @functools.cached_property
    def whole_images(self) -> dict[str, int]:
        """Region number of each image's whole-image graph (source ``vg_image``), by image id.

        One pass over the region store's line heads, on first use.
        """
        out: dict[str, int] = {}
        with (self.folder / "regions.jsonl").open("rb") as handle:
            for number, line in enumerate(handle):
                if not line.startswith(b'["vg_image",'):
                    continue
                head = _HEAD.match(line)
                if head is not None:
                    out.setdefault(json.loads(b'"' + head.group(2) + b'"'), number)
        return out

    def image_graph(self, image_id: str) -> SceneGraph | None:
        """The canonical whole-image graph of ``image_id`` (``None``: not in the pool)."""
        number = self.whole_images.get(str(image_id))
        return None if number is None else self.region(number).graph

    def close(self) -> None:
        """Close the region store."""
        self._handle.close()


class PoolLookup:
    """The pool regions of the counter-regions a ``groups`` config names, the whole-image graphs
    of their images, and every pool region of its captions' own images (for the independent
    check, :func:`crepe_datasets.validation.counter_groups.check_groups`)."""

    def __init__(self, index: CounterIndex, rows: Any) -> None:
        self.index = index
        wanted = {
            (str(r["image_1_source"]), str(r["image_1_id"]), str(r["image_1_region_id"] or ""))
            for split in rows.values()
            for r in split
        }
        images = {str(r["image_0_id"]) for split in rows.values() for r in split}
        counters = {str(r["image_1_id"]) for split in rows.values() for r in split}
        wanted |= {("vg_image", image, "") for image in images | counters}
        self.numbers, self.by_image = index.scan(wanted, images)

    def __call__(self, source: str, image_id: str, region_id: str) -> list[PoolRegion]:
        return [self.index.region(n) for n in self.numbers.get((source, image_id, region_id), [])]

    def image(self, image_id: str) -> list[PoolRegion]:
        """Every pool region of ``image_id`` (its whole-image graph, region graphs, FACTUAL
        rows)."""
        return [self.index.region(n) for n in self.by_image.get(str(image_id), [])]


def open_index(
    vg: str, extra: list[str] | tuple[str, ...], cache_dir: str | None = None
) -> tuple[CounterIndex, dict[str, Any]]:
    """The pool's index, built now or read from the cache; and how it was obtained."""
    folder = index_folder(vg, extra, cache_dir)
    cached = (folder / "manifest.json").is_file()
    if not cached:
        build_index(vg, extra, folder)
    index = CounterIndex(folder, Terms.from_vg(vg))
    info = {"from_cache": cached, "cache_folder": str(folder), **{
        k: index.manifest[k] for k in ("regions", "by_source", "keys", "postings")}}  # fmt: skip
    return index, info
