"""Inputs of the captioning build: COCO captions grouped by image, their parsed facts (cached).

Captions are read with the streaming COCO reader (:func:`crepe_datasets.sources.coco.read_coco_captions`,
which also rejects a file without ``annotations``) and grouped by image, in annotation order.
The ``images`` list gives each image's ``file_name``; an image without a caption, or a caption
of an image the file does not list, is dropped with a counted reason.

Facts (:mod:`.concepts`) are parsed in shards on an engine (:mod:`crepe_datasets.builders.engines`) and
cached as ``<cache>/facts-<key>.json``, where ``key`` hashes the input files' checksums and the
parser, spaCy and facts versions: a rebuild from the same files parses nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crepe_datasets.builders.captioning.concepts import (
    CaptionFacts,
    facts_shard_json,
    parser_versions,
)
from crepe_datasets.builders.engines.base import Engine
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.jsonstream import iter_json_items
from crepe_datasets.infra.provenance import DropLog, cache_root, write_text_atomic
from crepe_datasets.sources.coco import read_coco_captions

STAGE = "captioning_input"
SHARD_SIZE = 2_000


@dataclass
class CocoImage:
    """One COCO image with its captions (annotation order) and, once parsed, their facts."""

    image_id: str
    file_name: str
    folder: str = ""
    captions: list[str] = field(default_factory=list)
    facts: list[CaptionFacts] = field(default_factory=list)

    @property
    def image_file(self) -> str:
        """``<folder>/<file_name>`` (``val2017/000000397133.jpg``), relative to the image root."""
        return f"{self.folder}/{self.file_name}" if self.folder else self.file_name

    def base_row(self) -> dict[str, Any]:
        """The columns every config shares."""
        return {
            "image_id": self.image_id,
            "image_file": self.image_file,
            "captions": list(self.captions),
        }


def coco_path(spec: str) -> Path:
    """The file of a ``coco:PATH`` spec (a bare path is accepted too)."""
    kind, sep, rest = spec.partition(":")
    if sep and kind.lower() == "coco":
        return Path(rest)
    if sep and len(kind) > 1 and not Path(spec).exists():
        raise CrepeInputError(
            f"--captions {spec!r}: only COCO captions files (coco:PATH) are read."
        )
    return Path(spec)


def image_folder(path: Path) -> str:
    """COCO's image folder for a captions file: ``captions_val2014.json`` → ``val2014``.

    Other file names give no folder (``image_file`` is then the bare ``file_name``).
    """
    match = re.fullmatch(r"captions_((?:train|val|test)\d{4})", path.stem)
    return match.group(1) if match else ""


def read_images(paths: list[Path], drops: DropLog) -> dict[str, CocoImage]:
    """Images with captions from COCO captions files, sorted by numeric image id.

    Raises:
        CrepeInputError: a file is missing, is not COCO captions JSON, or yields no caption.
    """
    images: dict[str, CocoImage] = {}
    orphans: dict[str, list[str]] = {}
    for path in paths:
        if not path.is_file():
            raise CrepeInputError(f"captions file {path} does not exist; fix --captions.")
        listed: set[str] = set()
        for entry in iter_json_items(path, "images.item"):
            if isinstance(entry, dict) and entry.get("id") is not None:
                iid = str(entry["id"])
                listed.add(iid)
                if iid in images:
                    drops.repair(STAGE, "image_listed_twice")
                else:
                    images[iid] = CocoImage(
                        iid, str(entry.get("file_name") or ""), image_folder(path)
                    )
            else:
                drops.drop(STAGE, "image_entry_without_id", f"{path.name}")
        for rec in read_coco_captions(path, drops):
            if rec.image_id in images:
                images[rec.image_id].captions.append(rec.text)
            else:
                orphans.setdefault(rec.image_id or "", []).append(rec.text)
    for iid, texts in orphans.items():
        drops.drop(STAGE, "caption_of_unlisted_image", f"image_id {iid}", n=len(texts))
    kept = {}
    for iid, img in images.items():
        if img.captions:
            kept[iid] = img
        else:
            drops.drop(STAGE, "image_without_captions", f"image_id {iid}")
    if not kept:
        names = ", ".join(p.name for p in paths)
        raise CrepeInputError(f"no captioned image in {names}; give COCO captions files.")
    return dict(sorted(kept.items(), key=lambda kv: (len(kv[0]), kv[0])))


def facts_cache_key(checksum: str, versions: dict[str, str]) -> str:
    raw = "|".join([checksum, *(f"{k}={v}" for k, v in sorted(versions.items()))])
    return hashlib.sha256(raw.encode()).hexdigest()[:24]


def attach_facts(
    images: dict[str, CocoImage],
    checksum: str,
    engine: Engine,
    *,
    cache_dir: str | Path | None = None,
    model: str | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Parse every caption (or read the cache) and attach the facts; returns parse info."""
    from tqdm import tqdm

    versions = parser_versions(model)
    cache = Path(cache_dir).expanduser() if cache_dir else cache_root("captioning")
    path = cache / f"facts-{facts_cache_key(checksum, versions)}.json"
    texts = [c for img in images.values() for c in img.captions]
    info: dict[str, Any] = {**versions, "captions": len(texts), "engine": engine.describe()}
    rows = None
    if path.is_file():
        rows = json.loads(path.read_text(encoding="utf-8"))
        rows = rows if isinstance(rows, list) and len(rows) == len(texts) else None
    info["from_cache"] = rows is not None
    if rows is None:
        shards = [(texts[i : i + SHARD_SIZE], model) for i in range(0, len(texts), SHARD_SIZE)]
        rows = []
        bar = tqdm(total=len(texts), desc="parsing captions", unit="cap", disable=not progress)
        for result in engine.imap(facts_shard_json, shards):
            part = json.loads(result)
            rows.extend(part)
            bar.update(len(part))
        bar.close()
        write_text_atomic(path, json.dumps(rows, ensure_ascii=False, separators=(",", ":")))
    info["cache_path"] = str(path)
    it = iter(rows)
    for img in images.values():
        img.facts = [CaptionFacts.from_list(next(it)) for _ in img.captions]
    return info
