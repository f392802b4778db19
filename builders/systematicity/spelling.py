"""Spelling correction of Visual Genome region descriptions (SPEC §2.2: "spelling-corrected").

The paper corrects the descriptions but does not say how. Choices, written down:

* Library: ``symspellpy`` with its bundled English frequency dictionary (82,765 words), edit
  distance at most 1 for words of 4–5 letters and 2 for longer words; the suggestion with the
  smallest distance, then the highest frequency, wins.
* A word is **never corrected** when it is shorter than 3 letters, holds a digit or a hyphen,
  is in the symspell dictionary, or is a word of Visual Genome's own vocabulary (every word of
  the object, attribute and relationship names in ``*_synsets.json`` and ``*_alias.txt`` of the
  ``--vg`` folder, so "skateboarder" or "frisbee" are kept).
* An unknown word that is two frequent words run together ("ontop", "paperbag", "bunchof")
  is split, when both parts have a Zipf frequency ≥ :data:`SPLIT_ZIPF` (a one-letter part
  only when it is "a"; the split with the most frequent rarer part wins).
* Other words are replaced by the most frequent dictionary word at the smallest distance only
  when it is at least :data:`MIN_LEAD` Zipf points (10×) more frequent than every other word
  at that distance, keeps the word's first letter, and ``wordfreq`` finds it at least
  :data:`MIN_GAIN` Zipf points (100×) more frequent than the word itself: "feild" → "field",
  "teh" → "the", "wiht" → "with"; but a rare real word that happens to lie near a common one
  is kept, and so is "yatch" (a yacht: watch, match, batch, catch … are all one letter away and
  about as common, and "watch" would make a true description false). A repair that cannot
  tell which word was meant is not made: it would turn the word into another real word.
* Every word, corrected or not, is written in its canonical spelling
  (:func:`crepe_datasets.scenegraph.lexicon.canonical_spelling`: "gray" → "grey"), the
  spelling the foils use, so a spelling variant never tells a description from its negatives.
* Only lower-case descriptions are corrected (the builder lower-cases them first); corrections
  are cached per word, so a word is looked up once per build.

Each corrected description is counted as a repair (stage ``systematicity_spelling``), never a drop.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from crepe_datasets.scenegraph.lexicon import canonical_spelling

MIN_GAIN = 2.0
MIN_LEAD = 1.0
MIN_LETTERS = 3
SPLIT_ZIPF = 3.5
VOCAB_FILES = (
    "object_synsets.json",
    "attribute_synsets.json",
    "relationship_synsets.json",
    "object_alias.txt",
    "relationship_alias.txt",
)
_WORD = re.compile(r"[a-z]+")
_TOKEN = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")


def vg_vocabulary(vg_dir: str | Path) -> tuple[frozenset[str], list[Path]]:
    """Every word of the VG name lists found in ``vg_dir``, and the files read."""
    from crepe_datasets.scenegraph.visual_genome import read_aliases, read_synsets

    folder, words, used = Path(vg_dir), set(), []
    for name in VOCAB_FILES:
        path = folder / name
        if not path.is_file():
            continue
        used.append(path)
        names = read_aliases(path) if name.endswith(".txt") else read_synsets(path)
        for text in names:
            words.update(_WORD.findall(text.lower()))
    return frozenset(words), used


class SpellingCorrector:
    """Corrects misspelt words of lower-case descriptions (see the module docstring).

    Args:
        vocabulary: domain words that are never corrected (e.g. :func:`vg_vocabulary`).
    """

    def __init__(self, vocabulary: Iterable[str] = ()) -> None:
        import importlib.resources

        from symspellpy import SymSpell

        self.vocabulary = frozenset(vocabulary)
        self.sym = SymSpell(max_dictionary_edit_distance=2, prefix_length=7)
        dictionary = importlib.resources.files("symspellpy") / "frequency_dictionary_en_82_765.txt"
        with importlib.resources.as_file(dictionary) as path:
            self.sym.load_dictionary(str(path), term_index=0, count_index=1)
        self.cache: dict[str, str] = {}

    def _known(self, word: str) -> bool:
        return (
            len(word) < MIN_LETTERS
            or not word.isalpha()
            or word in self.vocabulary
            or word in self.sym.words
        )

    def word(self, word: str) -> str:
        """The corrected form of one lower-case word (itself when it is kept)."""
        hit = self.cache.get(word)
        if hit is not None:
            return hit
        out = word
        if not self._known(word):
            out = self._split(word) or self._nearest(word)
        out = canonical_spelling(out)
        self.cache[word] = out
        return out

    def _split(self, word: str) -> str | None:
        from wordfreq import zipf_frequency

        best, best_score = None, SPLIT_ZIPF
        for i in range(1, len(word)):
            left, right = word[:i], word[i:]
            if (len(left) == 1 and left != "a") or len(right) == 1:
                continue
            if left not in self.sym.words or right not in self.sym.words:
                continue
            score = min(zipf_frequency(left, "en"), zipf_frequency(right, "en"))
            if score >= best_score:
                best, best_score = f"{left} {right}", score
        return best

    def _nearest(self, word: str) -> str:
        from symspellpy import Verbosity
        from wordfreq import zipf_frequency

        distance = 1 if len(word) <= 5 else 2
        found = self.sym.lookup(word, Verbosity.CLOSEST, max_edit_distance=distance)
        if not found:
            return word
        zipf = sorted(((zipf_frequency(f.term, "en"), f.term) for f in found), reverse=True)
        best_zipf, best = zipf[0]
        if len(zipf) > 1 and zipf[1][0] > best_zipf - MIN_LEAD:
            return word  # several words about as near and as common ("yatch": watch, match …)
        if best[0] != word[0]:  # a first letter is rarely the one mistyped
            return word
        if best_zipf >= zipf_frequency(word, "en") + MIN_GAIN:
            return best
        return word

    def correct(self, text: str) -> str:
        """``text`` with each misspelt word replaced (spacing and punctuation kept)."""
        return _TOKEN.sub(lambda m: self.word(m.group(0)), text)
