"""The attribute_ruler stand-in: the same POS, TAG and DEP as spaCy's own pipe, on real captions."""

from __future__ import annotations

import pytest
import spacy
from spacy.tokens import Doc

from crepe_datasets.scenegraph.parser import CaptionParser, parse_caption
from crepe_datasets.scenegraph.parser.attribute_rules import AttributeRules
from crepe_datasets.scenegraph.parser.tokens import view
from crepe_datasets.validation.factual import read_factual
from tests.conftest import require_shared

EDGE_CASES = [
    "there are two dogs on a couch",  # the two-token "expl + is/are" -> VERB rule
    "a dog  on a couch\n\nnext to a cat",  # whitespace tokens: TAG _SP, POS SPACE, DEP dep
    "a man is sitting but the woman is not",
    "something red on the table that is on it",
    "",
]


def labels_both_ways(parser: CaptionParser, captions: list[str]) -> list[tuple[tuple, tuple]]:
    """(spaCy's attribute_ruler labels, ours) for every caption."""
    nlp = parser.nlp
    unused = [p for p in parser._disable if p != "attribute_ruler"]
    with_ruler = nlp.pipe(captions, disable=unused)
    without = nlp.pipe(captions, disable=parser._disable)
    out = []
    for a, b in zip(with_ruler, without, strict=True):
        spacy_view, our_view = view(a), view(b, parser.attribute_rules)
        out.append(
            (
                (spacy_view.pos, spacy_view.tag, spacy_view.dep),
                (our_view.pos, our_view.tag, our_view.dep),
            )
        )
    return out


def test_parser_runs_without_the_ruler(parser: CaptionParser) -> None:
    assert parser.attribute_rules is not None
    assert "attribute_ruler" in parser._disable


def test_same_labels_as_spacy_on_edge_cases(parser: CaptionParser) -> None:
    pairs = labels_both_ways(parser, EDGE_CASES)
    for (theirs, ours), caption in zip(pairs, EDGE_CASES, strict=True):
        assert ours == theirs, caption
    assert pairs[0][1][0][1] == "VERB"  # "there are": POS of "are"
    assert "SPACE" in pairs[1][1][0] and "_SP" in pairs[1][1][1]


@pytest.mark.slow
def test_same_labels_and_graphs_as_spacy_on_factual_and_cc3m(parser: CaptionParser) -> None:
    gold = read_factual(require_shared("factual", "factual_sg", "random", "dev.csv"))
    captions = [g.caption for g in gold]
    with open(require_shared("cc3m", "Validation_GCC-1.1.0-Validation.tsv"), encoding="utf-8") as f:
        captions += [line.split("\t")[0] for _, line in zip(range(1000), f, strict=False)]
    pairs = labels_both_ways(parser, captions)
    assert sum(theirs != ours for theirs, ours in pairs) == 0
    unused = [p for p in parser._disable if p != "attribute_ruler"]
    reference = [parse_caption(d) for d in parser.nlp.pipe(captions[:300], disable=unused)]
    assert parser.parse(captions[:300]) == reference


def ruler_pipeline(patterns: list[dict]) -> spacy.language.Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("attribute_ruler").add_patterns(patterns)
    return nlp


def test_precedence_follows_spacy_order() -> None:
    """Later patterns win, multi-token ones included; every pattern sees the predicted labels."""
    patterns = [
        {"patterns": [[{"TAG": "NN"}]], "attrs": {"POS": "NOUN"}},
        {
            "patterns": [[{"DEP": "expl"}, {"LOWER": {"IN": ["is", "are"]}}]],
            "attrs": {"POS": "AUX"},
            "index": 1,
        },
        {"patterns": [[{"LOWER": "are", "TAG": "VBP"}]], "attrs": {"POS": "VERB", "TAG": "VB"}},
        {"patterns": [[{"DEP": "expl"}, {"TAG": "VBP"}]], "attrs": {"DEP": "cop"}, "index": -1},
        {"patterns": [[{"TAG": "VB"}]], "attrs": {"POS": "X"}},  # tags before the ruler: no match
        {
            "patterns": [[{"LOWER": {"REGEX": "^do"}, "TAG": {"NOT_IN": ["VB"]}}]],
            "attrs": {"POS": "PROPN"},
        },
        {"patterns": [[{"TAG": "DT"}]], "attrs": {"MORPH": "PronType=Art"}},  # not read: skipped
    ]
    nlp = ruler_pipeline(patterns)
    rules = AttributeRules.from_pipeline(nlp)
    assert rules is not None and len(rules._single) == 4 and len(rules._multi) == 2
    words = ["there", "are", "dogs", "and", "a", "dog"]
    tags = ["EX", "VBP", "NNS", "CC", "DT", "NN"]
    deps = ["expl", "ROOT", "attr", "cc", "det", "conj"]
    heads = [1, 1, 1, 2, 5, 2]
    doc = nlp.get_pipe("attribute_ruler")(Doc(nlp.vocab, words, tags=tags, deps=deps, heads=heads))
    pos, tag, dep = rules.apply(words, [""] * 6, tags, deps)
    assert (pos, tag, dep) == ([t.pos_ for t in doc], [t.tag_ for t in doc], [t.dep_ for t in doc])
    assert pos[1] == "VERB" and tag[1] == "VB" and dep[1] == "cop" and pos[5] == "PROPN"


@pytest.mark.parametrize(
    "pattern",
    [
        [{"LOWER": "dog", "OP": "+"}],  # operators are not reproduced
        [{"POS": "NOUN"}],  # POS is set by the ruler itself
        [{"ORTH": "Dog"}],  # an attribute the view does not copy
    ],
)
def test_unsupported_patterns_keep_spacy_ruler(pattern: list[dict]) -> None:
    nlp = ruler_pipeline([{"patterns": [pattern], "attrs": {"POS": "NOUN"}}])
    assert AttributeRules.from_pipeline(nlp) is None
    assert AttributeRules.from_pipeline(spacy.blank("en")) is None
