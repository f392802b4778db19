"""Data tables of the caption parser: every word list the rules consult, in one place.

The rules themselves (in :mod:`crepe_datasets.scenegraph.parser.nouns` and :mod:`crepe_datasets.scenegraph.parser.relations`)
are generic over spaCy's dependency labels; these tables hold the closed-class vocabulary of
caption English that dependency labels alone cannot decide. They are general English (copulas,
quantity nouns, multi-word prepositions), not words picked from any evaluation caption.
Change behaviour by editing a table, not a rule.
"""

from __future__ import annotations

#: Version of the rule set; written into seen-table manifests. Bump when output changes.
PARSER_VERSION = "crepe-rules-1.2"

#: Pipes the parser never reads: excluded when the model is loaded (speed).
UNUSED_PIPES: tuple[str, ...] = (
    "ner",
    "lemmatizer",  # lemmas come from lemminflect (crepe_datasets.scenegraph.lexicon), not from spaCy
    "entity_linker",
    "entity_ruler",
    "textcat",
    "senter",
)

#: Verbs that link a subject to an attribute or a location ("the shirt is red", "X is on Y").
COPULAS: frozenset[str] = frozenset({"be", "seem", "look", "appear", "become", "remain", "stay"})

#: Copulas that only act as a copula with an adjective complement ("looks happy");
#: with a preposition they keep their meaning ("looking at", "stay in").
WEAK_COPULAS: frozenset[str] = frozenset({"seem", "look", "appear", "become", "remain", "stay"})

#: "a <noun> of X": the noun only counts or groups X and is not an object of the scene.
QUANTITY_NOUNS: frozenset[str] = frozenset(
    """bunch group pair couple lot lots number set row rows line herd flock crowd stack pile
    bits bit piece pieces handful collection variety array cluster series plenty dozen dozens
    couple kind kinds sort type assortment bundle team swarm school fleet mass majority
    few several most all some each both many amount slice slices patch patches part""".split()
)

#: Quantity nouns that, with "of", still name a visible thing of their own
#: (kept as an object: "a stack of plates" keeps "plates" only — listed here are exceptions).
QUANTITY_KEEP: frozenset[str] = frozenset()

#: Nouns that, between a preposition and "of", form a multi-word preposition:
#: "on top of", "in front of", "at the side of" -> "on side of".
RELATIONAL_NOUNS: frozenset[str] = frozenset(
    """top front back side middle edge corner base bottom end center centre left right
    rear inside outside underside surface tip foot head part""".split()
)

#: Canonical spelling of multi-word prepositions (after determiners are removed).
PREPOSITION_ALIASES: dict[str, str] = {
    "at top of": "on top of",
    "in top of": "on top of",
    "atop": "on top of",
    "on the top of": "on top of",
    "in between": "between",
    "on front of": "in front of",
    "at front of": "in front of",
    "next": "next to",
    "beside of": "beside",
    "inside of": "inside",
    "outside of": "outside",
    "underneath": "under",
    "beneath": "under",
    "below": "under",
    "on to": "onto",
    "up on": "on",
    "upon": "on",
}

#: Adverbs and adjectives that head a preposition to form a multi-word one ("next to",
#: "close to", "out of", "away from", "ahead of", "on top of" is handled by RELATIONAL_NOUNS).
PREP_HEADS: frozenset[str] = frozenset(
    """next close out away ahead up down along across near because instead due about""".split()
)

#: Particles kept in verb predicates ("pick up", "lie down" is dropped below).
DROPPED_PARTICLES: frozenset[str] = frozenset(
    {"down", "up", "out", "over", "off", "away", "around", "back"}
)

#: Verbs that carry no relation of their own before a preposition ("is sitting" keeps "sit";
#: these are skipped so "X is located on Y" -> "on").
LIGHT_VERBS: frozenset[str] = frozenset(
    {"be", "locate", "situate", "place", "position", "show", "see", "find", "picture"}
)

#: Number words written as digits in attributes ("two dogs" -> (dog, is, 2)).
#: "one"/"a" are not counts in caption English, so they give no attribute.
NUMBER_WORDS: dict[str, str] = {
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "dozen": "12",
    "both": "2",
    "twin": "2",
    "pair": "2",
}
NOT_COUNTS: frozenset[str] = frozenset({"one", "1", "a", "an"})

#: Modifiers that add degree, not content: dropped from attributes ("very tall" -> "tall").
INTENSIFIERS: frozenset[str] = frozenset(
    """very really so too quite extremely rather somewhat pretty fairly slightly more most
    less least much just also all even still not""".split()
)

#: Adjectives that are determiners in disguise: never attributes.
NON_ATTRIBUTES: frozenset[str] = frozenset(
    """other another same such many few several various certain own only main different
    each every some any more most much several numerous multiple whole entire several
    similar next full""".split()
)

#: Pronouns and placeholder nouns that never become objects.
NON_OBJECTS: frozenset[str] = frozenset(
    """it its they them this that these those there here something anything one ones
    other others thing things each image picture photo photograph view scene shot close-up
    closeup color colour kind type who which what whom whose""".split()
)

#: Nouns that follow a clothing preposition: "man in a red shirt" -> (man, wear, shirt).
#: Membership is decided by WordNet (hypernym in :data:`WEAR_HYPERNYMS`).
WEAR_PREPOSITIONS: frozenset[str] = frozenset({"in", "with"})
WEAR_HYPERNYMS: frozenset[str] = frozenset(
    {
        "clothing.n.01",
        "headdress.n.01",
        "footwear.n.01",
        "footwear.n.02",
        "garment.n.01",
        "glasses.n.01",
        "jewelry.n.01",
        "helmet.n.02",
        "apparel.n.01",
        "mask.n.04",
    }
)
WEAR_PREDICATE = "wear"

#: Possession and part-whole ("the dog's tail", "the tail of the dog") -> (dog, have, tail).
HAVE_PREDICATE = "have"

#: Containers for "a <container> of X": X is in/on the container, not its part.
CONTAINER_PREDICATES: dict[str, str] = {
    "plate": "on",
    "tray": "on",
    "dish": "on",
    "platter": "on",
    "board": "on",
    "glass": "in",
    "cup": "in",
    "bowl": "in",
    "box": "in",
    "bottle": "in",
    "jar": "in",
    "basket": "in",
    "bag": "in",
    "bucket": "in",
    "mug": "in",
    "pot": "in",
    "vase": "in",
    "carton": "in",
    "can": "in",
    "container": "in",
    "pan": "in",
    "bin": "in",
    "crate": "in",
}

#: Trailing words dropped from attributes: "red colored walls" -> (wall, is, red).
COLOR_SUFFIXES: frozenset[str] = frozenset({"colored", "coloured", "color", "colour", "toned"})

#: Noun modifiers written as the adjective of the material: "wood table" -> (table, is, wooden).
#: ("gold" stays "gold": "gold watch" is said far more often than "golden watch".)
ATTRIBUTE_SPELLING: dict[str, str] = {"wood": "wooden", "blond": "blonde"}

#: WordNet hypernyms that make a noun modifier a material attribute ("stone wall").
MATERIAL_HYPERNYMS: frozenset[str] = frozenset(
    {
        "material.n.01",
        "substance.n.01",
        "fabric.n.01",
        "metal.n.01",
        "plant_material.n.01",
        "solid.n.01",
        "ceramic.n.01",
        "building_material.n.01",
    }
)

#: First-sense hypernyms that make a substance a kind of thing rather than a material: "food
#: truck", "water bottle", "trash can", "bird cage" name things, not what they are made of.
NOT_MATERIAL_HYPERNYMS: frozenset[str] = frozenset(
    {
        "food.n.01",
        "food.n.02",
        "edible_fruit.n.01",
        "animal.n.01",
        "waste.n.01",
        "liquid.n.01",
        "binary_compound.n.01",
    }
)

#: Quantity nouns that FACTUAL-style graphs keep as an attribute of the counted object:
#: "group of people" -> (people, is, group of); "slice of pizza" -> (pizza, is, slice).
QUANTITY_ATTRIBUTES: dict[str, str] = {
    "group": "group of",
    "piece": "piece",
    "pieces": "pieces",
    "slice": "slice",
    "slices": "slices",
    "patch": "patch",  # "patch of grass" -> (grass, is, patch)
    "patches": "patches",
    "part": "part",  # "part of a building" -> (building, is, part)
}

#: Positions that locate a part rather than describe it: "left hand", "front tire".
POSITION_WORDS: frozenset[str] = frozenset(
    {
        "left",
        "right",
        "front",
        "back",
        "rear",
        "upper",
        "lower",
        "top",
        "bottom",
        "middle",
        "far",
        "near",
        "side",
    }
)

#: WordNet hypernyms of colour words: a colour adjective never merges into an object name
#: ("white house" is a white house, whatever WordNet says).
COLOR_HYPERNYMS: frozenset[str] = frozenset(
    {"color.n.01", "chromatic_color.n.01", "achromatic_color.n.01"}
)

#: Part nouns whose "-ed" adjective means having the part, keyed by the adjective's stem:
#: "dark haired" -> (X, have, hair), (hair, is, dark) (:mod:`.parts`). Body parts, garment and
#: vehicle parts; not patterns or materials ("striped", "tiled" describe the thing itself).
PART_NOUNS: dict[str, str] = {
    **{
        w: w
        for w in """hair sleeve head face eye ear nose mouth neck leg arm hand foot tail horn
        wing beak skin fur feather bill wheel door roof frame handle brim collar blade
        petal""".split()
    },
    "leav": "leaf",  # "leaved"
    "leave": "leaf",
}

#: Adverbs that, without an object, tell the state or place of what they are said of:
#: "people standing outside" -> (people, is, outside). ("inside" mostly has an implied object:
#: "a basket with a cat inside"; "together" describes a group, not each member.)
STATE_ADVERBS: frozenset[str] = frozenset({"outside", "alone"})
