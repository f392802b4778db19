"""The `crepe` command line and the benchmark scripts."""
