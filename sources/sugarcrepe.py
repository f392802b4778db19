"""SugarCrepe: seven JSON dicts ``{"idx": {"filename", "caption", "negative_caption"}}``.

Each file is one subset (``add_att``, ``add_obj``, ``replace_att``, ``replace_obj``,
``replace_rel``, ``swap_att``, ``swap_obj``), named by its file stem and kept in
``meta["subset"]``. Sample ids are ``<subset>:<idx>``; ``image_file`` is the COCO val2017 file
name and ``image_id`` the COCO id it encodes.
Dropped rows (stage ``sugarcrepe``): ``not_an_object``, ``missing_caption``, ``not_a_string``,
``empty_caption``, ``missing_filename``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.jsonstream import load_json
from crepe_datasets.infra.provenance import DropLog
from crepe_datasets.sources._text import clean_caption
from crepe_datasets.sources.records import PairSample

STAGE = "sugarcrepe"
SUBSETS = (
    "add_att",
    "add_obj",
    "replace_att",
    "replace_obj",
    "replace_rel",
    "swap_att",
    "swap_obj",
)


def coco_image_id(filename: str) -> str:
    """``"000000085329.jpg"`` → ``"85329"``; other names → their stem."""
    stem = Path(filename).stem.rsplit("_", 1)[-1]
    return str(int(stem)) if stem.isdigit() else Path(filename).stem


def _files(path: Path, subsets: Sequence[str] | None) -> list[Path]:
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise CrepeInputError(
            f"SugarCrepe path {path} does not exist; give the folder of its JSON files."
        )
    if subsets is None:
        found = [path / f"{s}.json" for s in SUBSETS if (path / f"{s}.json").is_file()]
        if not found:
            raise CrepeInputError(
                f"folder {path} holds none of the SugarCrepe files {', '.join(SUBSETS)} (.json)."
            )
        return found
    missing = [s for s in subsets if not (path / f"{s}.json").is_file()]
    if missing:
        raise CrepeInputError(
            f"SugarCrepe subset(s) {', '.join(missing)} not found in {path} (expected <subset>.json)."
        )
    return [path / f"{s}.json" for s in subsets]


def _read_file(path: Path, drops: DropLog) -> Iterator[PairSample]:
    data = load_json(path)
    if not isinstance(data, dict):
        raise CrepeInputError(f"{path} must hold a JSON object of SugarCrepe rows keyed by index.")
    subset = path.stem
    for key, row in data.items():
        where = f"{path.name} [{key}]"
        if not isinstance(row, dict):
            drops.drop(STAGE, "not_an_object", where)
            continue
        caption = clean_caption(row.get("caption"), drops, STAGE, where)
        negative = caption and clean_caption(row.get("negative_caption"), drops, STAGE, where)
        if not caption or not negative:
            continue
        filename = row.get("filename")
        if not isinstance(filename, str) or not filename.strip():
            drops.drop(STAGE, "missing_filename", where)
            continue
        yield PairSample(
            f"{subset}:{key}",
            caption,
            (negative,),
            coco_image_id(filename),
            filename.strip(),
            None,
            {"subset": subset},
        )


def read_sugarcrepe(
    path: str | Path, drops: DropLog, subsets: Sequence[str] | None = None
) -> Iterator[PairSample]:
    """SugarCrepe samples from one subset file or a folder.

    Args:
        path: A subset JSON file or the folder holding them.
        drops: Receives one count per skipped row.
        subsets: Subset names to read from a folder; ``None`` reads every known subset found.

    Raises:
        CrepeInputError: the path or a requested subset is missing, or a file is not a dict.
    """
    files = _files(Path(path), subsets)

    def generate() -> Iterator[PairSample]:
        for f in files:
            yield from _read_file(f, drops)

    return generate()
