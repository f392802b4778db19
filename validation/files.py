"""Do a dataset folder's files still match its build manifest?

The manifest lists every parquet file with its size and SHA-256 and counts the rows of every
config and split. A folder passes when every listed file exists with that size and checksum and
opens as parquet, the row counts add up, no other file lies under ``data/``, and the card's
``configs:`` name the configs that have rows. Each problem is one line naming the file.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from crepe_datasets.cards.image_digests import IMAGES_SUMMARY, check_images
from crepe_datasets.cards.manifest import read_manifest
from crepe_datasets.cards.publish import check_folder
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import sha256_file


@dataclass
class FileReport:
    """Files checked against the manifest and the problems found (one line each)."""

    files_checked: int = 0
    rows: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "files_checked": self.files_checked,
            "rows": self.rows,
            "problems": list(self.problems),
        }


def listed_path(path: str) -> PurePosixPath | None:
    """A manifest output path if it is a plain relative path under ``data/``, else None."""
    p = PurePosixPath(path)
    if p.is_absolute() or ".." in p.parts or not p.parts or p.parts[0] != "data":
        return None
    return p


def _parquet_rows(path: Path) -> int | None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(path).metadata.num_rows
    except (pa.ArrowException, OSError):
        return None


def check_files(folder: str | Path) -> FileReport:
    """Check ``folder``'s files against its ``build_manifest.json``.

    Raises:
        CrepeInputError: when the folder has no readable manifest (it is not a dataset folder).
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    report = FileReport()
    rows: Counter[tuple[str, str]] = Counter()
    listed: set[str] = set()
    for output in manifest.outputs:
        rel = listed_path(output.path)
        if rel is None or len(rel.parts) != 3:
            report.problems.append(f"{output.path}: not a file under data/<config>/ (unsafe path)")
            continue
        listed.add(str(rel))
        path = folder / rel
        report.files_checked += 1
        if not path.is_file():
            report.problems.append(f"{rel}: listed in the manifest but missing")
            continue
        size = path.stat().st_size
        if size != output.bytes:
            report.problems.append(
                f"{rel}: {size:,} bytes but the manifest says {output.bytes:,} (changed after the build)"
            )
        elif sha256_file(path) != output.sha256:
            report.problems.append(
                f"{rel}: SHA-256 differs from the manifest (changed after the build)"
            )
        n = _parquet_rows(path)
        if n is None:
            report.problems.append(f"{rel}: not a readable parquet file (truncated or corrupted)")
            continue
        rows[(rel.parts[1], rel.name.rsplit("-", 3)[0])] += n
    for config, splits in manifest.counts.items():
        for split, n in splits.items():
            if rows.get((config, split), 0) != n:
                report.problems.append(
                    f"data/{config}/{split}: {rows.get((config, split), 0):,} rows in its files "
                    f"but the manifest counts {n:,}"
                )
    if not report.problems:  # the image column's crops against their manifest checksums
        report.problems.extend(check_images(folder, manifest.summary.get(IMAGES_SUMMARY)))
    data = folder / "data"
    if data.is_dir():
        for path in sorted(p for p in data.rglob("*") if p.is_file()):
            rel = path.relative_to(folder).as_posix()
            if rel not in listed:
                report.problems.append(f"{rel}: not listed in the manifest")
    try:
        check_folder(folder)
    except CrepeInputError as err:
        report.problems.append(str(err))
    report.rows = sum(rows.values())
    return report
