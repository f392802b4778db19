"""Model-based filters of generated negatives (SPEC §2.5, §3.4).

* :class:`crepe_datasets.generators.filters.entailment.EntailmentFilter`: an NLI model drops "negatives" that
  their positive caption entails.
* :class:`crepe_datasets.generators.filters.plausibility.PlausibilityRanker`: a masked language model ranks
  candidate foils by how sensible the sentence they make is.

Both load a ``transformers`` model by hub name (from the local cache, or the network when it
is on) or from a local folder; :mod:`crepe_datasets.generators.filters.loading` holds the shared loading code.
Importing this package does not import ``torch`` or ``transformers``.
"""
