"""BindSplit: per-sample binding overlap between a benchmark and a training corpus (SPEC §4).

Modules, one job each:

* :mod:`~crepe_datasets.builders.bindsplit.extract` — attribute–object bindings of a parsed caption;
* :mod:`~crepe_datasets.builders.bindsplit.training_table` — the training-side table, cached by corpus checksum;
* :mod:`~crepe_datasets.builders.bindsplit.adapters` — benchmark samples with their bindings (ARO, SugarCrepe,
  BiVLC, VisMin, generic 2×2 tables);
* :mod:`~crepe_datasets.builders.bindsplit.labels` — binding labels, the seven buckets, rates, asymmetry;
* :mod:`~crepe_datasets.builders.bindsplit.holdout` — the controlled k×k hold-out builder;
* :mod:`~crepe_datasets.builders.bindsplit.build` — orchestration into a published dataset folder.
"""
