"""Invariant checks catch each kind of broken row."""

from __future__ import annotations

from crepe_datasets.generators.negatives import compact_json
from crepe_datasets.scenegraph.types import Relationship, SceneGraph, SGObject
from crepe_datasets.validation.invariants import check_rows, read_tables

SUB = SceneGraph(
    [SGObject(1, "boy", ("tall",)), SGObject(2, "grass", ("green",))],
    [Relationship(1, "on", 2)],
    "5",
)


def _graph(boy="boy", tall="tall", on="on", subject=1, obj=2, green="green") -> str:
    g = SceneGraph(
        [SGObject(1, boy, (tall,)), SGObject(2, "grass", (green,))],
        [Relationship(subject, on, obj)],
    )
    return compact_json(g)


def _row(**changes):
    row = {
        "image_id": "5",
        "caption": "tall boy on green grass",
        "subgraph": SUB.to_json(),
        "n": 5,
        "n_objects": 2,
        "n_attributes": 2,
        "n_relationships": 1,
        "hard_negatives": [
            "tall grass on green boy",
            "short boy on green grass",
            "there is no tall boy on green grass",
            "boy that is not tall on green grass",
        ],
        "negative_types": ["swap", "atom", "negate", "negate"],
        "negative_subgraphs": [
            _graph(boy="grass").replace('"grass",["green"]', '"boy",["green"]'),
            _graph(tall="short"),
            compact_json(SUB),
            _graph(tall="not tall"),
        ],
    }
    row.update(changes)
    return row


def _violations(row, **extra_tables):
    tables = {"hn": {"complexity_5": [row]}, **extra_tables}
    return check_rows(tables).to_dict()["violations"].get("hn", {})


def test_a_good_row_passes():
    report = check_rows({"hn": {"complexity_5": [_row()]}})
    assert report.passed and report.rows == 1


def test_wrong_atom_count():
    assert "subgraph_not_n_atoms" in _violations(_row(n=6))
    assert "subgraph_not_n_atoms" in _violations(_row(n_attributes=3))


def test_caption_must_cover_atoms():
    assert "caption_misses_atom" in _violations(_row(caption="boy on green grass"))


def test_negative_equal_to_caption_or_other_caption_of_image():
    row = _row()
    row["hard_negatives"] = ["tall boy on green grass", *row["hard_negatives"][1:]]
    assert "negative_equals_caption" in _violations(row)
    other = {"raw": {"complexity_4": [{"image_id": "5", "caption": "short boy on green grass"}]}}
    assert "negative_equals_image_caption" in _violations(_row(), **other)


def test_swap_must_keep_atoms_and_atom_must_change_one():
    row = _row()
    row["negative_subgraphs"] = [
        _graph(tall="short"),
        _graph(tall="short", green="red"),
        *row["negative_subgraphs"][2:],
    ]
    found = _violations(row)
    assert found.get("swap_changes_atoms") == 1 and found.get("atom_not_one_change") == 1


def test_negation_must_negate_one_atom():
    row = _row()
    row["negative_subgraphs"] = [*row["negative_subgraphs"][:3], _graph(tall="short")]
    assert _violations(row) == {"negate_not_one_negation": 1}


def test_duplicates_and_lengths():
    row = _row()
    row["hard_negatives"] = [row["hard_negatives"][1]] * 4
    assert "duplicate_negatives" in _violations(row)
    assert "types_length_mismatch" in _violations(_row(negative_types=["swap"]))


def test_read_tables_from_built_folder(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / "data" / "hn"
    folder.mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist([_row()]), folder / "complexity_5-00000-of-00001.parquet")
    tables = read_tables(tmp_path)
    assert (
        list(tables) == ["hn"]
        and tables["hn"]["complexity_5"][0]["caption"] == "tall boy on green grass"
    )
    assert check_rows(tables).passed
