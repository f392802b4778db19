"""The inverted index: postings, cache by checksum, identical bytes on rebuild."""

from __future__ import annotations

import hashlib

from crepe_datasets.builders.counter_images.index import build_index, open_index
from tests.builders.counter_images.conftest import FACTUAL, VG
from tests.conftest import require_shared


def test_postings_point_at_regions_holding_the_key(pool_index) -> None:
    index, info, _ = pool_index
    assert info["by_source"] == {"factual": len(index) - 100, "vg_image": 100}
    found = index.posting("ao:red|chair")
    assert len(found) > 10
    for n in found[:20]:
        g = index.region(int(n)).graph
        assert any(
            "chair" in (o.name, index.terms.head(o.name)) and "red" in o.attributes
            for o in g.objects
        )
    assert len(index.posting("ao:no such|thing")) == 0


def test_compound_names_also_under_their_head_noun(pool_index) -> None:
    index, _, _ = pool_index
    terms = index.terms
    assert terms.head("desk chair") == "chair" and terms.head("water bottle") == "bottle"
    assert terms.head("hot dog") is None and terms.head("teddy bear") is None
    assert terms.head("chair") is None
    # a region whose only chair is a "desk chair" is found under "o:chair"
    chairs = set(index.posting("o:chair").tolist())
    desk_chairs = index.posting("o:desk chair")
    assert len(desk_chairs) and set(desk_chairs.tolist()) <= chairs
    assert not set(index.posting("o:hot dog").tolist()) <= set(index.posting("o:dog").tolist())


def test_names_canonical_in_the_index(pool_index) -> None:
    index, _, _ = pool_index
    # plurals singularised and VG predicates lemmatised ("wearing" -> "wear")
    assert len(index.posting("o:man")) and not len(index.posting("o:men"))
    assert len(index.posting("r:wear")) and not len(index.posting("r:wearing"))


def test_cached_by_checksum_and_identical_on_rebuild(pool_index, tmp_path) -> None:
    index, _, cache = pool_index
    vg, factual = str(require_shared(*VG)), str(require_shared(*FACTUAL))
    again, info = open_index(vg, [factual], str(cache))
    again.close()
    assert info["from_cache"] and info["cache_folder"] == str(index.folder)
    build_index(vg, [factual], tmp_path / "copy")
    for name in ("regions.jsonl", "keys.json", "postings.npy", "offsets.npy", "manifest.json"):
        a = hashlib.sha256((index.folder / name).read_bytes()).hexdigest()
        b = hashlib.sha256((tmp_path / "copy" / name).read_bytes()).hexdigest()
        assert a == b, name


def test_states_needs_a_region_of_another_image(pool_index) -> None:
    index, _, _ = pool_index
    images, names = index.region_images
    assert len(images) == len(index)
    assert (
        names[images[index.posting("o:chair")[0]]]
        == index.region(int(index.posting("o:chair")[0])).image_id
    )
    assert index.states([("ao", "red", "chairs")], besides="4")  # surface forms canonicalised
    assert not index.states([("ao", "ribbed", "chair")])
    assert not index.states([("ao", "red", "chair"), ("oro", "chair", "ride", "elephant")])
    # a compound that only one image's regions state is stated for any other image only
    key = next(
        k for k in sorted(index.keys)
        if k.startswith("ao:") and len({int(images[n]) for n in index.posting(k)}) == 1
    )  # fmt: skip
    attribute, name = key[3:].split("|")
    only = names[images[index.posting(key)[0]]]
    assert not index.states([("ao", attribute, name)], besides=only)
    assert index.states([("ao", attribute, name)], besides=f"not {only}")
    # how many images state it: distinct images of its regions, the one left out not counted
    assert index.images_stating([("ao", attribute, name)]) == 1
    assert index.images_stating([("ao", attribute, name)], besides=only) == 0
    chairs = len({int(images[n]) for n in index.posting("ao:red|chair")})
    assert index.images_stating([("ao", "red", "chairs")]) == chairs > 1
    assert index.images_stating([("ao", "red", "chair"), ("ao", attribute, name)]) == 1  # least
