"""WordNet foil lists: ranked, plausible, never synonyms."""

from __future__ import annotations

import pytest

from crepe_datasets.generators.negatives.foils import (
    attribute_foils,
    colour_sense,
    first_senses,
    in_captions,
    object_foils,
    ranked_cohyponyms,
    relation_foils,
    synset_cohyponyms,
)

pytestmark = pytest.mark.slow  # WordNet (first load)


def test_first_senses_index():
    offset, count = first_senses()[("dog", "n")]
    assert offset > 0 and count > 0


def test_cohyponyms_keep_words_whose_main_sense_is_related():
    foils = ranked_cohyponyms("boy", "male_child.n.01")
    assert "man" in foils and "head" not in foils and len(foils) <= 10
    assert "truck" in synset_cohyponyms("car.n.01")
    assert synset_cohyponyms("no_such_word.n.09") == ()


def test_relation_foils_table_then_wordnet_inflected():
    assert relation_foils("behind") == ("in front of",)
    assert "letting go of" in relation_foils("holding")
    assert relation_foils("of") == ()


def test_attribute_antonyms_come_from_the_visual_sense_only():
    """ "wooden" is made of wood (sense 1), not awkward (sense 2): "graceful" is no foil; nor is
    "young" for "grey" (sense 2: old)."""
    assert "graceful" not in attribute_foils("wooden")
    assert "young" not in attribute_foils("grey")
    assert attribute_foils("tall") == ("short",) and attribute_foils("clean")[0] == "dirty"


def test_colour_foils_are_basic_colours_other_than_itself_and_what_it_is_a_shade_of():
    white = attribute_foils("white")  # its first noun sense is a person, its colour sense second
    assert white[0] == "black" and {"red", "blue", "green"} <= set(white) and "white" not in white
    assert {"red", "blue"} <= set(attribute_foils("grey")) and "gray" not in attribute_foils("grey")
    assert "gray" not in attribute_foils("silver") and "red" in attribute_foils("silver")
    assert "brown" not in attribute_foils("beige") and "brown" not in attribute_foils("tan")
    assert colour_sense("wooden") is None and colour_sense("white") == "white.n.02"


def test_colour_foils_go_both_ways():
    """A colour that is a truth is also a foil: "white" and "orange" (whose first noun senses are
    a person and a fruit) are foils of "red" as "red" is of them; rarer colours ("tan", "beige",
    "silver") only through the pool the foil balance draws on, never a shade of the truth."""
    from crepe_datasets.generators.negatives.foils import colour_pool

    common = "white black blue red brown grey green yellow pink purple orange".split()
    for a in common:
        for b in common:
            if a != b:
                assert (b in attribute_foils(a)) == (a in attribute_foils(b)), (a, b)
    assert {"white", "orange"} <= set(attribute_foils("red"))
    assert {"tan", "beige", "silver"} <= set(colour_pool("red"))
    assert "beige" not in colour_pool("brown") and "brown" not in colour_pool("tan")
    assert "blond" not in colour_pool("red") and colour_pool("wooden") == ()


def test_foils_are_words_of_image_captions():
    """WordNet co-hyponyms no caption uses ("diode", "inquiry", "ammunition") are no foils."""
    assert not in_captions("diode") and not in_captions("inquiry") and in_captions("table")
    for name, synset in (("monitor", "monitor.n.04"), ("reflection", None), ("drawer", None)):
        assert all(in_captions(f) for f in object_foils(name, synset))
    assert "diode" not in object_foils("monitor", "monitor.n.04")
    assert "ammunition" not in object_foils("drawer", "drawer.n.01")
    assert all(in_captions(f) for f in attribute_foils("metal") + attribute_foils("round"))


def test_foils_take_the_attributes_visual_sense_and_one_spelling():
    """ "present" in a picture is "here" (antonym "absent"), never the time ("past"); foils are
    spelled as the cleaned positives are ("grey", never "gray")."""
    from crepe_datasets.generators.negatives.foils import attribute_antonyms, visual_antonyms

    assert "past" not in visual_antonyms("present") and "absent" in visual_antonyms("present")
    assert "past" not in attribute_foils("present") and "future" not in attribute_foils("present")
    assert attribute_antonyms("old") == ("new", "young")
    for colour in ("white", "red", "orange"):
        foils = attribute_foils(colour)
        assert "gray" not in foils and "grey" in foils, colour
    assert "lemon" not in attribute_foils("orange")  # a colour's foils are colours


def test_object_foils_that_would_change_another_and_the_other():
    """ "man holding chin, another man holding the chin": replacing either man leaves no
    "another" in the negative; "man near woman" → "man near man" would add one."""
    from crepe_datasets.generators.negatives.foils import keeps_references

    names = ["man", "chin", "man", "parking meter"]
    assert not keeps_references(names, 0, "woman") and not keeps_references(names, 2, "boy")
    assert keeps_references(names, 1, "jaw")
    assert not keeps_references(names, 3, "man")  # a foil equal to another object's name


def test_object_foils_never_name_the_same_thing():
    """A foil that may name the truth's thing, a kind of it or a part or whole of it can leave
    the negative true ("lady" for a woman, "room" for a wall): found by reading negatives."""
    from crepe_datasets.generators.negatives.foils import names_may_corefer

    for truth, foil in (
        ("picture", "photo"),
        ("woman", "lady"),
        ("wall", "room"),
        ("road", "street"),
    ):
        assert names_may_corefer(truth, foil) and names_may_corefer(foil, truth), (truth, foil)
    for truth, foil in (("man", "woman"), ("chair", "bench"), ("car", "truck"), ("cup", "plate")):
        assert not names_may_corefer(truth, foil), (truth, foil)


def test_object_foils_that_are_kinds_parts_wholes_compounds_or_places_of_the_truth():
    """Read in issue 20's negatives: "tin on the microwave" -> "on the oven" (a microwave oven),
    "man holding chin" -> "head", "remote" -> "controller" (a remote control), "girls" ->
    "ladies" (young ladies), "bookshelf against the wall" -> "against the house", "home office
    in a corner" -> "in a room", "the room is spacious" -> "the apartment"."""
    from crepe_datasets.generators.negatives.foils import coreference_reason

    for truth, foil, reason in (
        ("microwave", "oven", "atom_object_foil_compound_head"),
        ("remote", "controller", "atom_object_foil_compound_head"),
        ("girl", "lady", "atom_object_foil_compound_head"),
        ("chin", "head", "atom_object_foil_part_or_whole"),
        ("wall", "house", "atom_object_foil_part_or_whole"),
        ("house", "room", "atom_object_foil_part_or_whole"),
        ("boy", "man", "atom_object_foil_kind_of"),
        ("corner", "room", "atom_object_foil_place"),
        ("room", "apartment", "atom_object_foil_place"),
        ("wall", "apartment", "atom_object_foil_place"),
    ):
        assert coreference_reason(truth, foil) == reason, (truth, foil)
    # a rare or intangible sense does not count ("man" as mankind, "chin" as a language)
    for truth, foil in (("man", "woman"), ("hand", "foot"), ("chin", "tongue"), ("arm", "leg")):
        assert coreference_reason(truth, foil) is None, (truth, foil)
    # places of one kind stay foils of each other
    assert coreference_reason("kitchen", "bathroom") is None
    assert coreference_reason("house", "hotel") is None


def test_person_foils_differ_in_sex_or_age():
    """Read in issue 20's negatives: "guy is wearing glasses" -> "gentleman is wearing glasses"
    may be true; so may "player" -> "athlete". A person foil must differ in sex or age."""
    from crepe_datasets.generators.negatives.foils import coreference_reason, persons_exclude

    for truth, foil in (("guy", "gentleman"), ("player", "athlete"), ("lady", "wife")):
        assert coreference_reason(truth, foil) == "atom_object_foil_person_role", (truth, foil)
    for truth, foil in (("man", "woman"), ("guy", "lady"), ("girl", "boy"), ("child", "teenager")):
        assert persons_exclude(truth, foil) and coreference_reason(truth, foil) is None
    assert not persons_exclude("child", "boy")  # a boy is a child: age alike, sex unsaid
    assert coreference_reason("skier", "skater") == "atom_object_foil_person_role"
    assert coreference_reason("chair", "bench") is None  # not persons: unchanged


def test_antonyms_take_the_attributes_own_sense():
    """A "light" wall is light in colour: "dark", never "heavy"; "rectangular" has no
    "parallel" (its second, mathematical sense); "heavy" has no "light", which reads as a
    colour; "sitting" has "standing", not "moving" (through its second sense)."""
    assert attribute_foils("light") == ("dark",) and attribute_foils("dark") == ("light",)
    assert "parallel" not in attribute_foils("rectangular")
    assert "oblique" not in attribute_foils("rectangular")
    assert "light" not in attribute_foils("heavy")
    assert attribute_foils("sitting") == ("standing",)
    assert attribute_foils("round") == ("square",)  # not "thin" (round as in "orotund")


def test_neighbouring_achromatic_shades():
    from crepe_datasets.generators.negatives.foils import neighbouring_shades

    assert neighbouring_shades("grey", "white") and neighbouring_shades("black", "gray")
    assert neighbouring_shades("silver", "black")  # silver is a shade of grey
    assert not neighbouring_shades("white", "black")  # two steps apart
    assert not neighbouring_shades("red", "white") and not neighbouring_shades("grey", "grey")


def test_parts_and_their_wholes():
    from crepe_datasets.generators.negatives.foils import part_of

    assert part_of("palm", "hand") and part_of("wheel", "car") and part_of("mattress", "bed")
    assert part_of("window", "building") and part_of("palm", "man")  # hand of a human
    assert not part_of("car", "wheel") and not part_of("shirt", "man")


def test_a_person_has_every_body_part():
    """WordNet gives a human body's parts to "homo", a sense of "man" only: "person has palm",
    "limb of woman" and "boy has tongue" are true of any person."""
    from crepe_datasets.generators.negatives.foils import body_part_names, part_of

    assert {"palm", "tongue", "limb", "knee", "beard"} <= body_part_names()
    assert not {"shirt", "table", "temple", "trunk"} & body_part_names()  # first senses elsewhere
    assert part_of("palm", "person") and part_of("limb", "woman") and part_of("tongue", "boy")
    assert not part_of("tongue", "chair") and not part_of("wheel", "woman")


def test_parts_named_in_any_sense():
    """A keyboard's keys (the 15th sense of "key", part of a keyboard's action) and a building's
    frame (its skeleton) are parts: "key of the cpu" beside a keyboard may be true."""
    from crepe_datasets.generators.negatives.foils import part_names, part_of

    assert part_of("key", "keyboard") and part_of("frame", "building")
    assert "wheel" in part_names("car") and not part_of("keyboard", "key")


def test_many_coloured_attributes():
    from crepe_datasets.generators.negatives.foils import many_coloured

    assert many_coloured("multi colored") and many_coloured("multi-colored")
    assert many_coloured("colorful") and many_coloured("multicolored")
    assert not many_coloured("yellow") and not many_coloured("bright")
    assert not many_coloured("colored") and not many_coloured("painted")


def test_several_colours():
    """Two colours of which neither is a shade of the other: a thing of both may have a third."""
    from crepe_datasets.generators.negatives.foils import several_colours

    assert several_colours(["red", "white"]) and several_colours(["wooden", "black", "grey"])
    assert not several_colours(["gray", "silver"]) and not several_colours(["white", "wooden"])


def test_shades_lie_between_the_basic_colours_their_definitions_name():
    from crepe_datasets.generators.negatives.foils import neighbouring_shades, shade_between

    assert {s.split(".")[0] for s in shade_between("maroon")} == {"black", "brown", "purple", "red"}
    assert {s.split(".")[0] for s in shade_between("beige")} == {"brown", "gray", "white"}
    assert shade_between("brown") == frozenset()  # a basic colour
    assert "white.n.02" not in shade_between("dark red")  # "reflects little light"
    assert shade_between("dark green") == {"green.n.01", "black.n.01"}  # a phrase WordNet lacks
    assert neighbouring_shades("black", "dark green") and not neighbouring_shades(
        "red", "dark green"
    )
    assert shade_between("wooden") == frozenset() and "blue.n.01" not in shade_between("blond")
    assert neighbouring_shades("maroon", "brown") and neighbouring_shades("navy", "black")
    assert not neighbouring_shades("brown", "orange") and not neighbouring_shades("navy", "red")
