"""Fuzz test over every reader: real files from ../shared/data, randomly truncated, overwritten
with random bytes, or given the wrong JSON shapes. Each reader must either read or raise one
:class:`CrepeInputError`; any other exception (a traceback for the user) fails the test.

By default the examples are the same on every run (CI-stable), 60 per reader;
``CREPE_FUZZ_EXAMPLES`` and ``CREPE_FUZZ_RANDOM=1`` run a longer, random search.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crepe_datasets.builders.bindsplit.group_table import read_group_table
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.scenegraph.visual_genome import (
    iter_attributes,
    iter_objects,
    iter_regions,
    iter_relationships,
    iter_scene_graphs,
    read_aliases,
    read_image_data,
    read_synsets,
)
from crepe_datasets.sources.aro import read_aro_attribution, read_aro_relation
from crepe_datasets.sources.bivlc import read_bivlc
from crepe_datasets.sources.caption_lines import read_caption_lines
from crepe_datasets.sources.corpus import iter_corpus
from crepe_datasets.sources.crepe_release import read_crepe_release
from crepe_datasets.sources.negclip import read_negclip
from crepe_datasets.sources.sugarcrepe import read_sugarcrepe
from crepe_datasets.validation.factual import read_factual
from tests.conftest import require_shared

VG = ("visual_genome", "images_1-100")
#: Examples per reader; ``CREPE_FUZZ_EXAMPLES=2000 CREPE_FUZZ_RANDOM=1`` for a long random search.
EXAMPLES = int(os.environ.get("CREPE_FUZZ_EXAMPLES", "60"))


def _json_prefix(*parts: str, n: int = 3) -> bytes:
    data = json.loads(require_shared(*parts).read_text())
    if isinstance(data, dict):
        data = dict(list(data.items())[:n])
    else:
        data = data[:n]
    return json.dumps(data).encode()


def _lines(*parts: str, n: int = 30) -> bytes:
    with open(require_shared(*parts), "rb") as handle:
        return b"".join(line for _, line in zip(range(n), handle, strict=False))


def _coco() -> bytes:
    data = json.loads(require_shared("coco", "captions_val2017.json").read_text())
    return json.dumps(
        {"images": data["images"][:5], "annotations": data["annotations"][:20]}
    ).encode()


def _jsonl() -> bytes:
    data = json.loads(require_shared("coco", "captions_val2017.json").read_text())
    return "".join(json.dumps(a) + "\n" for a in data["annotations"][:20]).encode()


def _laion() -> bytes:
    table = pq.read_table(require_shared("laion_like", "test_10000.parquet")).slice(0, 40)
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


def _vismin_like() -> bytes:
    """A VisMin-style 2×2 table built from real SugarCrepe rows (VisMin itself is not here)."""
    rows = json.loads(require_shared("sugarcrepe", "swap_att.json").read_text())
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["caption_0", "caption_1", "image_0", "image_1"])
    for row in list(rows.values())[:15]:
        w.writerow([row["caption"], row["negative_caption"], row["filename"], row["filename"]])
    return out.getvalue().encode()


def _drain(result: object) -> None:
    if isinstance(result, Iterable) and not isinstance(result, (str, bytes, dict)):
        for _ in result:
            pass


def _corpus(kind: str) -> Callable[[Path], object]:
    return lambda p: iter_corpus(f"{kind}:{p}", DropLog())


# name -> (file name, real content, reader(path))
READERS: dict[str, tuple[str, Callable[[], bytes], Callable[[Path], object]]] = {
    "vg_scene_graphs": ("scene_graphs.json", lambda: _json_prefix(*VG, "scene_graphs.json"),
                        lambda p: iter_scene_graphs(p, DropLog())),
    "vg_objects": ("objects.json", lambda: _json_prefix(*VG, "objects.json"),
                   lambda p: iter_objects(p, DropLog())),
    "vg_attributes": ("attributes.json", lambda: _json_prefix(*VG, "attributes.json"),
                      lambda p: iter_attributes(p, DropLog())),
    "vg_relationships": ("relationships.json", lambda: _json_prefix(*VG, "relationships.json"),
                         lambda p: iter_relationships(p, DropLog())),
    "vg_regions": ("region_descriptions.json",
                   lambda: _json_prefix(*VG, "region_descriptions.json"),
                   lambda p: iter_regions(p, DropLog())),
    "vg_image_data": ("image_data.json", lambda: _json_prefix(*VG, "image_data.json", n=10),
                      lambda p: read_image_data(p, DropLog())),
    "vg_image_data_strict": ("image_data.json", lambda: _json_prefix(*VG, "image_data.json", n=10),
                             read_image_data),
    "vg_aliases": ("object_alias.txt", lambda: _lines(*VG, "object_alias.txt"),
                   lambda p: read_aliases(p, DropLog())),
    "vg_synsets": ("object_synsets.json", lambda: _json_prefix(*VG, "object_synsets.json", n=30),
                   read_synsets),
    "coco": ("captions.json", _coco, _corpus("coco")),
    "cc": ("captions.tsv", lambda: _lines("cc3m", "Validation_GCC-1.1.0-Validation.tsv"),
           _corpus("cc")),
    "jsonl": ("captions.jsonl", _jsonl, _corpus("jsonl")),
    "text": ("captions.txt", lambda: _lines("cc3m", "Validation_GCC-1.1.0-Validation.tsv"),
             _corpus("text")),
    "laion": ("part-0.parquet", _laion, _corpus("laion")),
    "parse_input": ("captions.txt", lambda: _lines("cc3m", "Validation_GCC-1.1.0-Validation.tsv"),
                    lambda p: read_caption_lines(p, DropLog())),
    "aro_official": ("visual_genome_relation.json",
                     lambda: require_shared("aro", "visual_genome_relation.first17.json").read_bytes(),
                     lambda p: read_aro_relation(p, DropLog())),
    "aro_lists": ("att-original-true.json", lambda: _json_prefix("aro", "att-original-true.json", n=30),
                  lambda p: read_aro_attribution(p, DropLog())),
    "sugarcrepe": ("swap_att.json", lambda: _json_prefix("sugarcrepe", "swap_att.json", n=20),
                   lambda p: read_sugarcrepe(p, DropLog())),
    "bivlc": ("BiVLC_ViT-B-32.csv", lambda: _lines("bivlc", "BiVLC_ViT-B-32.csv", n=15),
              lambda p: read_bivlc(p, DropLog())),
    "crepe_release": ("prod_vg_hard_negs_swap_complexity_4.csv",
                      lambda: _lines("crepe_release", "prod_hard_negatives", "swap",
                                     "prod_vg_hard_negs_swap_complexity_4.csv", n=15),
                      lambda p: read_crepe_release(p, DropLog())),
    "negclip": ("valid_neg_clip.tsv", lambda: _lines("coco", "valid_neg_clip.tsv", n=15),
                lambda p: read_negclip(p, DropLog())),
    "factual": ("dev.csv", lambda: _lines("factual", "factual_sg", "random", "dev.csv", n=30),
                lambda p: read_factual(p, DropLog())),
    "group_table": ("vismin.csv", _vismin_like, lambda p: read_group_table(p, DropLog())),
}  # fmt: skip

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def mutations(draw: st.DrawFn, data: bytes, is_json: bool) -> bytes:
    """One malformed version of ``data``."""
    kinds = ["truncate", "overwrite", "insert"] + (["shape", "field"] if is_json else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "truncate":
        return data[: draw(st.integers(0, max(len(data) - 1, 0)))]
    if kind in ("overwrite", "insert"):
        out = bytearray(data)
        for _ in range(draw(st.integers(1, 8))):
            pos = draw(st.integers(0, len(out)))
            chunk = draw(st.binary(min_size=1, max_size=16))
            out[pos : pos + (len(chunk) if kind == "overwrite" else 0)] = chunk
        return bytes(out)
    doc = json.loads(data)
    if kind == "shape":
        return json.dumps(draw(JSON_VALUES)).encode()
    # "field": a wrong value somewhere inside one record (or the document)
    target = doc
    for _ in range(draw(st.integers(1, 4))):
        if isinstance(target, list) and target:
            i = draw(st.integers(0, len(target) - 1))
            if not isinstance(target[i], (list, dict)) or draw(st.booleans()):
                target[i] = draw(JSON_VALUES)
                break
            target = target[i]
        elif isinstance(target, dict) and target:
            key = draw(st.sampled_from(sorted(target)))
            if not isinstance(target[key], (list, dict)) or draw(st.booleans()):
                target[key] = draw(JSON_VALUES)
                break
            target = target[key]
        else:
            break
    return json.dumps(doc).encode()


def _partner(folder: Path, name: str, real: bytes) -> None:
    """The ARO list reader needs the -false partner of a -true file: the real one."""
    if name.endswith("-true.json"):
        false = require_shared("aro", "att-original-false.json")
        n = len(json.loads(real))
        (folder / name.replace("-true", "-false")).write_text(
            json.dumps(json.loads(false.read_text())[:n])
        )


@pytest.mark.parametrize("reader", sorted(READERS))
def test_reader_reads_or_raises_one_clear_error(reader: str) -> None:
    name, make, read = READERS[reader]
    real = make()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _partner(folder, name, real)
        path = folder / name
        path.write_bytes(real)
        _drain(read(path))  # the real file itself reads

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            derandomize=not os.environ.get("CREPE_FUZZ_RANDOM"),
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(bad=mutations(real, name.endswith(".json")))
        def check(bad: bytes) -> None:
            path.write_bytes(bad)
            try:
                _drain(read(path))
            except CrepeInputError as err:
                assert str(err) and "\n" not in str(err).strip()

        check()


def test_a_parquet_whose_text_column_has_the_wrong_type_is_one_clear_error(tmp_path):
    table = pa.table({"TEXT": pa.array([[1, 2]] * 3), "URL": ["a", "b", "c"]})
    pq.write_table(table, tmp_path / "t.parquet")
    with pytest.raises(CrepeInputError, match="not text"):
        list(iter_corpus(f"laion:{tmp_path / 't.parquet'}", DropLog()))
