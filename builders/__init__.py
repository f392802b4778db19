"""One module (or package) per published dataset, plus the writer that every builder uses.

* :mod:`builders.vg_regions` — Visual Genome region crops and descriptions (RAW image–text).
* :mod:`builders.productivity` — CREPE productivity: complexity 4–12 subgraphs and hard negatives.
* :mod:`builders.bindsplit` — BindSplit: benchmarks split by binding overlap with a training corpus.
* :mod:`builders.seen_tables` — seen atoms, compounds and bindings of a training corpus.
* :mod:`builders.sources` — readers of training corpora and existing benchmarks.
* :mod:`builders.writer` — dataset folders: parquet shards, card, build manifest.
* :mod:`builders.demo_data` — the demo inputs authored by the project.
"""
