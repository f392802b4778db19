"""Benchmark: what the shared input hygiene costs the readers.

Measures records/second of real readers with the hygiene step (:mod:`crepe_datasets.infra.hygiene`)
and, in the same run, with the step replaced by a pass-through (the baseline, i.e. the readers
as they were before it):

* corpus captions: LAION-like parquet (10,000 rows), CC3M TSV (15,833 rows) and COCO val2017
  captions (25,014), all from ``../shared/data``;
* Visual Genome: ``scene_graphs.json`` of the real 100-image sample repeated to ``--images``
  images (new image ids, so that the duplicate-id check keeps them), clean as published, and a
  worst case where every object name, attribute and predicate holds a NUL and a zero-width space.

Each figure is the best of ``--repeat`` runs, ours and the baseline interleaved (the machine is shared; best-of reduces noise).
Usage: ``.venv/bin/python scripts/bench/hygiene_overhead.py [--images 5000] [--repeat 7]``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))  # this checkout's code, not an installed copy

import crepe_datasets.scenegraph.vg.parse as vg_parse  # noqa: E402
import crepe_datasets.sources._text as text_mod  # noqa: E402
from crepe_datasets.infra.provenance import DropLog  # noqa: E402
from crepe_datasets.scenegraph.visual_genome import iter_scene_graphs  # noqa: E402
from crepe_datasets.sources.corpus import iter_corpus  # noqa: E402

DATA = REPO.parent / "shared" / "data"


@contextlib.contextmanager
def hygiene_off() -> Iterator[None]:
    """The readers without the hygiene step (the baseline)."""
    saved = text_mod.clean_text, text_mod.has_letter, vg_parse.clean_norm, vg_parse._clean_str
    text_mod.clean_text = lambda text, *a, **k: text  # type: ignore[assignment]
    text_mod.has_letter = lambda text: True  # type: ignore[assignment]
    vg_parse.clean_norm = lambda raw, *a, **k: vg_parse._norm(raw)  # type: ignore[assignment]
    vg_parse._clean_str = lambda v: type(v) is str  # type: ignore[assignment]
    try:
        yield
    finally:
        text_mod.clean_text, text_mod.has_letter, vg_parse.clean_norm, vg_parse._clean_str = saved


def best_rates(read: Callable[[], int], repeat: int) -> tuple[float, float, int]:
    """Best records/s with and without hygiene, the two runs interleaved (ABAB) against drift."""
    ours = base = 0.0
    n = 0
    for _ in range(repeat):
        start = time.perf_counter()
        n = read()
        ours = max(ours, n / (time.perf_counter() - start))
        with hygiene_off():
            start = time.perf_counter()
            m = read()
            base = max(base, m / (time.perf_counter() - start))
    return ours, base, n


def _vg_file(folder: Path, images: int, poison: bool) -> Path:
    sample = json.loads((DATA / "visual_genome" / "images_1-100" / "scene_graphs.json").read_text())
    path = folder / ("poisoned.json" if poison else "clean.json")
    with open(path, "w") as out:
        out.write("[")
        for k in range(images):
            rec = json.loads(json.dumps(sample[k % len(sample)]))
            rec["image_id"] = k + 1
            if poison:
                for o in rec["objects"]:
                    o["names"] = [n[:1] + "\x00" + n[1:] + "\u200b" for n in o["names"]]
                    o["attributes"] = [a + "\u200b" for a in o.get("attributes", [])]
                for r in rec["relationships"]:
                    r["predicate"] = "\x00" + r["predicate"]
            out.write(("," if k else "") + json.dumps(rec))
        out.write("]")
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--images", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    corpora = {
        "laion parquet": f"laion:{DATA / 'laion_like' / 'test_10000.parquet'}",
        "cc3m tsv": f"cc:{DATA / 'cc3m' / 'Validation_GCC-1.1.0-Validation.tsv'}",
        "coco json": f"coco:{DATA / 'coco' / 'captions_val2017.json'}",
    }
    rows: list[tuple[str, str, float, float, int]] = []
    for name, spec in corpora.items():

        def read(spec: str = spec) -> int:
            return sum(1 for _ in iter_corpus(spec, DropLog()))

        ours, base, n = best_rates(read, args.repeat)
        rows.append((name, "captions/s", ours, base, n))
    with tempfile.TemporaryDirectory() as tmp:
        for poison in (False, True):
            path = _vg_file(Path(tmp), args.images, poison)

            def read(path: Path = path) -> int:
                return sum(1 for _ in iter_scene_graphs(path, DropLog()))

            ours, base, n = best_rates(read, args.repeat)
            label = "VG scene graphs" + (" (every name poisoned)" if poison else "")
            rows.append((label, "images/s", ours, base, n))
    print(f"{'input':<38} {'unit':<11} {'hygiene':>10} {'baseline':>10} {'cost':>7} {'records':>8}")
    for name, unit, ours, base, n in rows:
        cost = (base - ours) / base * 100
        print(f"{name:<38} {unit:<11} {ours:>10,.0f} {base:>10,.0f} {cost:>6.1f}% {n:>8,}")
    print("baseline: the same readers with the hygiene step replaced by a pass-through, same run; "
          "best of", args.repeat, "(shared 2-core machine: figures vary between runs)")  # fmt: skip


if __name__ == "__main__":
    main()
