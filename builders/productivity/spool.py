"""Rows spooled to parquet parts on disk, so a full Visual Genome build runs in bounded memory.

:class:`SpooledRows` collects the rows of one (config, split): every ``buffer_rows`` rows it
writes a parquet part into a scratch folder. It is a read-only ``Sequence`` afterwards
(``len``, slices, iteration read the parts back in order), which is what
:func:`crepe_datasets.builders.writer.write_dataset` and the validators consume.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

DEFAULT_BUFFER_ROWS = 5_000


class SpooledRows(Sequence):
    """An append-then-read sequence of dict rows backed by parquet parts."""

    def __init__(
        self, folder: Path, schema: pa.Schema, buffer_rows: int = DEFAULT_BUFFER_ROWS
    ) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.schema = schema
        self.buffer_rows = buffer_rows
        self.parts: list[tuple[Path, int]] = []
        self.buffer: list[Mapping[str, Any]] = []

    def append(self, row: Mapping[str, Any]) -> None:
        self.buffer.append(row)
        if len(self.buffer) >= self.buffer_rows:
            self.flush()

    def flush(self) -> None:
        """Write the buffered rows as one more part."""
        if not self.buffer:
            return
        path = self.folder / f"part-{len(self.parts):05d}.parquet"
        pq.write_table(
            pa.Table.from_pylist(self.buffer, schema=self.schema), path, compression="zstd"
        )
        self.parts.append((path, len(self.buffer)))
        self.buffer = []

    def __len__(self) -> int:
        return sum(n for _, n in self.parts) + len(self.buffer)

    def _part_rows(self, index: int) -> list[dict[str, Any]]:
        return pq.read_table(self.parts[index][0]).to_pylist()

    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        for i in range(len(self.parts)):
            yield from self._part_rows(i)
        yield from self.buffer

    def __getitem__(self, key):  # type: ignore[override]
        if isinstance(key, int):
            if key < 0:
                key += len(self)
            rows = self[key : key + 1]
            if not rows:
                raise IndexError(key)
            return rows[0]
        start, stop, step = key.indices(len(self))
        out: list[Mapping[str, Any]] = []
        offset = 0
        for i, (_, n) in enumerate(self.parts):
            if offset + n > start and offset < stop:
                rows = self._part_rows(i)
                out += rows[max(start - offset, 0) : stop - offset]
            offset += n
        if offset < stop:
            out += self.buffer[max(start - offset, 0) : stop - offset]
        return out[::step]
