"""Counter-images: for each negative caption, a real Visual Genome region where it is true.

Modules: :mod:`.pool` (readers of annotated graphs: Visual Genome folders, FACTUAL CSVs),
:mod:`.index` (the inverted index from atoms and compounds to pool regions, cached by input checksum), :mod:`.match` (the match rule) and
:mod:`.groups` (the ``groups`` config of crepe-systematicity). The canonical names and synonyms
(:mod:`crepe_datasets.generators.terms`) sit below, since ``validation`` uses them too. See
``docs/datasets/counter-images.md``.
"""
