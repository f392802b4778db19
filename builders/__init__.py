"""One module (or package) per published dataset, plus the writer that every builder uses.

The readers of training corpora and benchmarks are a layer below (:mod:`crepe_datasets.sources`).

* :mod:`crepe_datasets.builders.vg_regions` — Visual Genome region crops and descriptions (RAW image–text).
* :mod:`crepe_datasets.builders.productivity` — CREPE productivity: complexity 4–12 subgraphs and hard negatives.
* :mod:`crepe_datasets.builders.bindsplit` — BindSplit: benchmarks split by binding overlap with a training corpus.
* :mod:`crepe_datasets.builders.seen_tables` — seen atoms, compounds and bindings of a training corpus.
* :mod:`crepe_datasets.builders.writer` — dataset folders: parquet shards, card, build manifest.
* :mod:`crepe_datasets.builders.demo_data` — the demo inputs authored by the project.
"""
