from __future__ import annotations

import json
import random

import pytest

from crepe_datasets.infra import jsonstream
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.jsonstream import ENGINES, IJSON_BACKEND, iter_json_items, load_json
from tests.conftest import require_shared


def test_ijson_backend_is_reported():
    assert IJSON_BACKEND in {"yajl2_c", "yajl2_cffi", "yajl2", "python"}


@pytest.mark.parametrize("engine", ENGINES)
def test_engines_agree_on_the_real_sample(engine):
    path = require_shared("visual_genome", "images_1-100", "scene_graphs.json")
    assert list(iter_json_items(path, engine=engine)) == json.loads(
        path.read_text(encoding="utf-8")
    )


@pytest.mark.parametrize("chunk", [1, 5, 64])
def test_stdlib_engine_matches_json_for_any_chunk_size(tmp_path, monkeypatch, chunk):
    monkeypatch.setattr(jsonstream, "CHUNK_CHARS", chunk)
    rng = random.Random(chunk)
    scalars = [1, -2.5, 1e20, 123456789, True, None, 'é\\"q', "", "a" * 30]
    for _ in range(40):
        data = [
            rng.choice([rng.choice(scalars), {"k": [rng.choice(scalars)] * rng.randint(0, 3)}])
            for _ in range(rng.randint(0, 5))
        ]
        path = tmp_path / "a.json"
        path.write_text(
            "\ufeff" + json.dumps(data, indent=rng.choice([None, 2]), ensure_ascii=False)
        )
        assert list(iter_json_items(path)) == data


@pytest.mark.parametrize("engine", ENGINES)
def test_floats_come_back_as_float(tmp_path, engine):
    path = tmp_path / "a.json"
    path.write_text('[{"x": 1.5}, {"x": 2}]')
    items = list(iter_json_items(path, engine=engine))
    assert items == [{"x": 1.5}, {"x": 2}] and isinstance(items[0]["x"], float)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "content, message",
    [
        (b'[{"a": 1}, {"a": 2', r"not valid JSON near (character|byte) [\d,]+ of 18 bytes"),
        (b'[{"a": "\xff"}]', "not valid JSON"),
        (b"", "found an empty file"),
        (b'{"a": []}', "must hold a JSON list"),
        (b'[{"a": 1} {"a": 2}]', "not valid JSON"),
        (b'[{"a": 1}, {"a": tru}]', "not valid JSON"),
    ],
)
def test_broken_files(tmp_path, engine, content, message):
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    with pytest.raises(CrepeInputError, match=message):
        list(iter_json_items(path, engine=engine))


def test_stdlib_engine_positions_and_trailing_content(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonstream, "CHUNK_CHARS", 4)
    path = tmp_path / "a.json"
    path.write_bytes(b'[{"a": "ok"}, {"a": "b\xc3\x28"}]')
    with pytest.raises(CrepeInputError, match=r"byte 22 .*invalid UTF-8"):
        list(iter_json_items(path))
    path.write_text("[1, 2] [3]")
    with pytest.raises(CrepeInputError, match="after the closing"):
        list(iter_json_items(path))


def test_missing_and_small_files(tmp_path):
    with pytest.raises(CrepeInputError, match="does not exist"):
        list(iter_json_items(tmp_path / "missing.json"))
    with pytest.raises(ValueError, match="unknown JSON engine"):
        list(iter_json_items(tmp_path / "missing.json", engine="fast"))
    (tmp_path / "t.json").write_text('{"a": [1,')
    with pytest.raises(CrepeInputError, match="line 1, column 10"):
        load_json(tmp_path / "t.json")
    (tmp_path / "u.json").write_bytes(b'{"a": "\xff"}')
    with pytest.raises(CrepeInputError, match="not UTF-8"):
        load_json(tmp_path / "u.json")
