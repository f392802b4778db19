"""Blind baselines and balancing: the text-only judges a negative must not help, and the choice of
negatives against them, in one package used by every builder and by ``validation``.

* :mod:`~crepe_datasets.generators.balance.frequency_lm`: word frequency + n-gram LM scorers
  (``FrequencyLMRanker``) and their shipped counts (``data/``);
* :mod:`~crepe_datasets.generators.balance.corpus_lm`: the scorers of a training corpus;
* :mod:`~crepe_datasets.generators.balance.refine`: adversarial refinement of a build's negatives
  against those scorers (productivity and systematicity), over the records of
  :mod:`~crepe_datasets.generators.balance.items`;
* :mod:`~crepe_datasets.generators.balance.shortcuts`: the formatting-shortcut audit;
* :mod:`~crepe_datasets.generators.balance.blind`: the untrained blind-baseline audit.
"""
