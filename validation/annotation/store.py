"""The sample folder: items, judgements, and the imports that add judgements to it.

Layout of a sample folder (``crepe annotate sample ... --out ann/prod-v1``)::

    sample.json          dataset, seed, strata, counts, image source
    items.jsonl          one sampled item per line (see :class:`sampling.Item`)
    images/              local crops, when the dataset or --images gives them
    label_studio.json    the Label Studio project and task ids (after ``push``)
    exports/             every raw export pulled or imported, kept as it came
    judgements.jsonl     one (item, annotator, label) per line, merged over pulls

An import is checked as a whole before anything is merged (unknown item, label outside
yes/no/unsure, items with no judgement): on error nothing already pulled changes.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import write_json_atomic, write_text_atomic
from crepe_datasets.validation.annotation.sampling import Item
from crepe_datasets.validation.annotation.tasks import CHOICES_NAME, LABELS

SAMPLE_FILE = "sample.json"
ITEMS_FILE = "items.jsonl"
JUDGEMENTS_FILE = "judgements.jsonl"
PROJECT_FILE = "label_studio.json"
EXPORTS_DIR = "exports"


@dataclass(frozen=True)
class Judgement:
    """One annotator's label for one item."""

    item_id: str
    annotator: str
    label: str
    source: str = ""


def _jsonl(path: Path, rows: Iterable[Mapping[str, Any]]) -> None:
    write_text_atomic(path, "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))


class SampleFolder:
    """A sample folder on disk (see the module docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not (self.path / SAMPLE_FILE).exists():
            raise CrepeInputError(
                f"{self.path} is not an annotation sample (no {SAMPLE_FILE}); "
                "make one with `crepe annotate sample`"
            )
        self.meta = json.loads((self.path / SAMPLE_FILE).read_text(encoding="utf-8"))
        lines = (self.path / ITEMS_FILE).read_text(encoding="utf-8").splitlines()
        self.items = {i.item_id: i for i in (Item.from_dict(json.loads(x)) for x in lines if x)}

    @staticmethod
    def create(path: str | Path, meta: Mapping[str, Any], items: list[Item]) -> SampleFolder:
        """Write a new sample folder (its items and description)."""
        path = Path(path)
        if (path / JUDGEMENTS_FILE).exists():
            raise CrepeInputError(
                f"{path} already holds judgements; sample into a new folder (--out)"
            )
        path.mkdir(parents=True, exist_ok=True)
        _jsonl(path / ITEMS_FILE, (i.to_dict() for i in items))
        write_json_atomic(path / SAMPLE_FILE, dict(meta))
        return SampleFolder(path)

    def judgements(self) -> dict[tuple[str, str], Judgement]:
        """Every judgement so far, by (item, annotator)."""
        path = self.path / JUDGEMENTS_FILE
        if not path.exists():
            return {}
        rows = (Judgement(**json.loads(x)) for x in path.read_text().splitlines() if x)
        return {(j.item_id, j.annotator): j for j in rows}

    def merge(self, new: Iterable[Judgement]) -> tuple[int, int]:
        """Add judgements (a later one for the same item and annotator replaces the earlier).

        Returns:
            (added, changed) counts.
        """
        current = self.judgements()
        added = changed = 0
        for j in new:
            old = current.get((j.item_id, j.annotator))
            added += old is None
            changed += old is not None and old.label != j.label
            current[(j.item_id, j.annotator)] = j
        _jsonl(self.path / JUDGEMENTS_FILE, (asdict(j) for _, j in sorted(current.items())))
        return added, changed

    def keep_export(self, name: str, data: Any) -> Path:
        """Save a raw export as it came, before it is checked."""
        path = self.path / EXPORTS_DIR / name
        write_json_atomic(path, data)
        return path

    def check_complete(self, judged: Iterable[str], source: str, allow_partial: bool) -> None:
        """Raise unless every item has a judgement in ``judged`` (or ``allow_partial``)."""
        missing = sorted(set(self.items) - set(judged))
        if missing and not allow_partial:
            raise CrepeInputError(
                f"{source}: {len(missing)} of {len(self.items)} items have no annotation yet "
                f"(e.g. {missing[0]}); annotate them, or pass --allow-partial to keep what is there"
            )


def _label(value: str, where: str) -> str:
    label = str(value).strip().lower()
    if label not in LABELS:
        raise CrepeInputError(
            f"{where} has the label {value!r}, which is not one of {', '.join(LABELS)}"
        )
    return label


def parse_label_studio_export(
    tasks: list[dict],
    sample: SampleFolder,
    source: str,
    allow_partial: bool = False,
    skipped: Counter[str] | None = None,
) -> list[Judgement]:
    """Judgements of a Label Studio JSON export (a list of tasks with their annotations).

    Cancelled (skipped) annotations and annotations without a yes/no/unsure choice are counted
    in ``skipped`` by reason.

    Raises:
        CrepeInputError: on a task of another sample, a label outside yes/no/unsure, or (unless
            ``allow_partial``) items with no annotation.
    """
    if not isinstance(tasks, list):
        raise CrepeInputError(f"{source} is not a Label Studio JSON export (a list of tasks)")
    out: list[Judgement] = []
    skipped = skipped if skipped is not None else Counter()
    for task in tasks:
        item_id = (task.get("data") or {}).get("item_id")
        if item_id not in sample.items:
            raise CrepeInputError(
                f"{source}: task {task.get('id')} (item {item_id!r}) is not one of this sample's "
                f"{len(sample.items)} items; was it exported from another project?"
            )
        for ann in task.get("annotations") or []:
            if ann.get("was_cancelled"):
                skipped["cancelled_annotation"] += 1
                continue
            who = ann.get("completed_by")
            annotator = f"ls-user-{who.get('id') if isinstance(who, dict) else who}"
            before = len(out)
            for result in ann.get("result") or []:
                if result.get("from_name") != CHOICES_NAME:
                    continue
                for choice in (result.get("value") or {}).get("choices") or []:
                    where = f"{source}: task {task.get('id')} ({item_id})"
                    out.append(Judgement(item_id, annotator, _label(choice, where), source))
            if len(out) == before:
                skipped["annotation_without_choice"] += 1
    sample.check_complete((j.item_id for j in out), source, allow_partial)
    return out


def export_csv(sample: SampleFolder, path: str | Path, annotators: list[str]) -> int:
    """A sheet to annotate: one row per item (× annotator), ``label`` left blank."""
    fields = ["item_id", "annotator", "label", "kind", "question", "text", "image", "bbox"]
    from crepe_datasets.validation.annotation.tasks import QUESTIONS

    rows = [
        {
            "item_id": item.item_id,
            "annotator": who,
            "label": "",
            "kind": item.kind,
            "question": QUESTIONS[item.kind],
            "text": item.text,
            "image": item.image,
            "bbox": json.dumps(item.bbox),
        }
        for item in sample.items.values()
        for who in (annotators or [""])
    ]
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    return len(rows)


def import_csv(
    sample: SampleFolder, path: str | Path, allow_partial: bool = False
) -> list[Judgement]:
    """Judgements of a filled sheet (columns ``item_id``, ``annotator``, ``label``).

    Raises:
        CrepeInputError: on missing columns, unknown items, labels outside yes/no/unsure, or
            (unless ``allow_partial``) rows left blank or items with no row.
    """
    source = Path(path).name
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.DictReader(f)
        missing = {"item_id", "annotator", "label"} - set(reader.fieldnames or [])
        if missing:
            raise CrepeInputError(f"{source} has no column {', '.join(sorted(missing))}")
        rows = list(reader)
    out, blank = [], 0
    for n, row in enumerate(rows, start=2):
        where = f"{source} line {n}"
        if row["item_id"] not in sample.items:
            raise CrepeInputError(f"{where}: item {row['item_id']!r} is not in this sample")
        if not row["label"].strip():
            blank += 1
            continue
        if not row["annotator"].strip():
            raise CrepeInputError(f"{where}: the annotator column is empty")
        label = _label(row["label"], where)
        out.append(Judgement(row["item_id"], row["annotator"].strip(), label, source))
    if blank and not allow_partial:
        raise CrepeInputError(
            f"{source}: {blank} rows have no label yet; fill them, or pass --allow-partial"
        )
    sample.check_complete((j.item_id for j in out), source, allow_partial)
    return out
