"""The caption parser, loaded once per test module, and its output as comparable sets."""

from __future__ import annotations

import pytest

from crepe_datasets.scenegraph.parser import CaptionParser


@pytest.fixture(scope="module")
def parser() -> CaptionParser:
    return CaptionParser()


def tuples(parser: CaptionParser, caption: str) -> tuple[set, set, set]:
    """Object names, (object, attribute) pairs and (subject, predicate, object) triples."""
    g = parser.parse_one(caption)
    by_id = g.object_by_id()
    objects = {o.name for o in g.objects}
    attrs = {(o.name, a) for o in g.objects for a in o.attributes}
    rels = {(by_id[r.subject].name, r.predicate, by_id[r.object].name) for r in g.relationships}
    return objects, attrs, rels
