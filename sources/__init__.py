"""Readers of training corpora and existing benchmarks, yielding typed records (one layer).

The layer sits above ``scenegraph`` and below everything that reads a corpus or a benchmark
(``builders``, ``evaluator``): every reader is found through a typed registry
(:mod:`crepe_datasets.sources.registry`: corpus formats;
:mod:`crepe_datasets.sources.releases`: released benchmarks the evaluator reads).

Corpora (:func:`iter_corpus` with a ``KIND:PATH`` spec) give :class:`CaptionRecord`; benchmark
readers give :class:`PairSample` (ARO, SugarCrepe, CREPE's release, NegCLIP) or
:class:`GroupSample` (BiVLC). Every skipped record is counted in a
:class:`~crepe_datasets.infra.provenance.DropLog` with its reason. Visual Genome readers live in
:mod:`crepe_datasets.scenegraph.visual_genome`.
"""

from __future__ import annotations

from crepe_datasets.sources.aro import read_aro_attribution, read_aro_relation
from crepe_datasets.sources.bivlc import read_bivlc
from crepe_datasets.sources.corpus import corpus_files, iter_corpus
from crepe_datasets.sources.crepe_release import read_crepe_release
from crepe_datasets.sources.negclip import read_negclip
from crepe_datasets.sources.records import CaptionRecord, GroupSample, PairSample
from crepe_datasets.sources.sugarcrepe import read_sugarcrepe

__all__ = [
    "CaptionRecord",
    "GroupSample",
    "PairSample",
    "corpus_files",
    "iter_corpus",
    "read_aro_attribution",
    "read_aro_relation",
    "read_bivlc",
    "read_crepe_release",
    "read_negclip",
    "read_sugarcrepe",
]
