"""The build's trained blind audit over the sets of several builds together.

On a 100-image sample each systematicity build keeps under the audit's 50 sets
(:data:`crepe_datasets.validation.trained_blind.MIN_SETS`), so its own audit does not judge. This
pools one config of several builds (coco, cc, laion of the same images) and runs the same audit
(:func:`crepe_datasets.validation.trained_blind.audit_config`: word and character n-gram
classifiers, five folds grouped by image, so the same image's sets of two builds share a fold)::

    .venv/bin/python scripts/bench/pooled_trained_audit.py hn_atom out/syst-coco out/syst-cc ...

It prints one JSON line: the pooled report and each split's (``<build>/<split>``).
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
from pathlib import Path

import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from crepe_datasets.validation.trained_blind import (  # noqa: E402
    MARGIN,
    audit_config,
    sets_from_rows,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config")
    parser.add_argument("builds", nargs="+")
    args = parser.parse_args()
    splits: dict[str, list[dict]] = {}
    for build in args.builds:
        for path in sorted(glob.glob(f"{build}/data/{args.config}/*.parquet")):
            split = Path(path).stem.split("-")[0]
            rows = pq.read_table(path).to_pylist()
            splits.setdefault(f"{Path(build).name}/{split}", []).extend(rows)
    if not splits:
        sys.exit(f"error: no {args.config} rows in {', '.join(args.builds)}")
    report = audit_config(sets_from_rows(splits), MARGIN)
    report.pop("indicative", None)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
