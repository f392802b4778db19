"""BindSplit: per-sample binding overlap between a benchmark and a training corpus (SPEC §4).

Modules, one job each:

* :mod:`~builders.bindsplit.extract` — attribute–object bindings of a parsed caption;
* :mod:`~builders.bindsplit.training_table` — the training-side table, cached by corpus checksum;
* :mod:`~builders.bindsplit.adapters` — benchmark samples with their bindings (ARO, SugarCrepe,
  BiVLC, VisMin, generic 2×2 tables);
* :mod:`~builders.bindsplit.labels` — binding labels, the seven buckets, rates, asymmetry;
* :mod:`~builders.bindsplit.holdout` — the controlled k×k hold-out builder;
* :mod:`~builders.bindsplit.build` — orchestration into a published dataset folder.
"""
