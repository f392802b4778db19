"""Checks of parsers and built datasets: FACTUAL parser scores, row invariants, the trained blind
audit (the untrained blind baselines and formatting shortcuts are in
:mod:`crepe_datasets.generators.balance`, beside the balancing that answers them)."""
