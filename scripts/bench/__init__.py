"""Benchmark scripts: each prints its figures beside its baseline, measured in the same run."""
