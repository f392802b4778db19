"""What annotators see: images for the sampled items, the Label Studio labeling configuration,
and the tasks (image + text + question, with the region drawn on full images).

Images, in order of preference: the dataset's embedded ``image`` crop, a crop cut from
``--images DIR``, or the full image by URL (``image_data.json`` of ``--vg DIR``, or
``--image-base-url``) with the region drawn as a rectangle. Local crops are written under the
sample folder and sent to Label Studio as ``data:`` URIs, so no file server is needed.
"""

from __future__ import annotations

import base64
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import quoteattr

import pyarrow.parquet as pq

from crepe_datasets.cards.verification import split_files
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.validation.annotation.sampling import Item

LABELS = ("yes", "no", "unsure")
CHOICES_NAME = "judgement"
REGION_NAME = "region"
QUESTIONS = {
    "caption": "Is the text faithful: is everything it says true of the marked region?",
    "negative": "Is the text a genuine negative: does it describe the marked region wrongly?",
}


def label_config() -> str:
    """The Label Studio labeling configuration (image, region box, text, yes/no/unsure)."""
    choices = "".join(f"<Choice value={quoteattr(v)}/>" for v in LABELS)
    return (
        "<View>"
        '<Header value="$question"/>'
        '<Image name="image" value="$image" zoom="true"/>'
        f'<RectangleLabels name="{REGION_NAME}" toName="image" showInline="true">'
        '<Label value="region" background="#ff0000"/></RectangleLabels>'
        '<Text name="text" value="$text"/>'
        f'<Choices name="{CHOICES_NAME}" toName="text" choice="single" required="true" '
        f'showInline="true">{choices}</Choices>'
        "</View>"
    )


def _embedded_crops(folder: Path, items: Sequence[Item]) -> dict[str, bytes]:
    wanted: dict[tuple[str, str], dict[int, list[Item]]] = defaultdict(lambda: defaultdict(list))
    for item in items:
        wanted[(item.config, item.split)][item.row].append(item)
    out: dict[str, bytes] = {}
    for (config, split), rows in wanted.items():
        offset = 0
        for path in split_files(folder, config, split):
            pf = pq.ParquetFile(path)
            if "image" not in pf.schema_arrow.names:
                return {}
            n = pf.metadata.num_rows
            local = [r - offset for r in rows if offset <= r < offset + n]
            if local:
                column = pf.read(columns=["image"]).column("image")
                for r in local:
                    value = column[r].as_py()
                    for item in rows[r + offset]:
                        if value and value.get("bytes"):
                            out[item.item_id] = value["bytes"]
            offset += n
    return out


def _image_urls(vg: Path | None) -> dict[str, dict]:
    if vg is None:
        return {}
    path = vg / "image_data.json"
    if not path.exists():
        raise CrepeInputError(f"{vg} has no image_data.json (needed for the image URLs)")
    return {str(d.get("image_id", d.get("id"))): d for d in json.loads(path.read_text())}


def _size(item: Item, meta: dict | None) -> tuple[float, float] | None:
    if meta and meta.get("width") and meta.get("height"):
        return float(meta["width"]), float(meta["height"])
    return tuple(item.image_size) if item.image_size else None


def attach_images(
    items: Sequence[Item],
    dataset: str | Path,
    out: str | Path,
    *,
    images: str | Path | None = None,
    vg: str | Path | None = None,
    image_base_url: str | None = None,
) -> str:
    """Fill each item's ``image`` (and ``region`` for full images); returns the source used.

    Raises:
        CrepeInputError: when no image source is available for the items.
    """
    crops = _embedded_crops(Path(dataset), items)
    source = "embedded crops"
    if not crops and images is not None:
        from crepe_datasets.scenegraph.crops import ImageCropper

        cropper = ImageCropper(images)
        crops = {
            i.item_id: png
            for i in items
            if (png := cropper.crop_png(i.image_file, i.bbox)) is not None
        }
        source = f"crops of {Path(images).name}/"
    if crops:
        folder = Path(out) / "images"
        folder.mkdir(parents=True, exist_ok=True)
        for item in items:
            if item.item_id in crops:
                name = item.item_id.replace("/", "__") + ".png"
                (folder / name).write_bytes(crops[item.item_id])
                item.image = f"images/{name}"
        return source
    urls = _image_urls(Path(vg) if vg else None)
    if not urls and not image_base_url:
        raise CrepeInputError(
            "no images for the annotators: the dataset has no embedded crops; pass --images DIR "
            "(the image files), --vg DIR (image URLs from image_data.json) or --image-base-url URL"
        )
    for item in items:
        meta = urls.get(item.image_id)
        if meta and meta.get("url"):
            item.image = meta["url"]
        elif image_base_url:
            item.image = image_base_url.rstrip("/") + "/" + item.image_file
        size = _size(item, meta)
        if item.bbox and size:
            x, y, w, h = item.bbox
            item.region = {
                "x": 100 * x / size[0],
                "y": 100 * y / size[1],
                "width": 100 * w / size[0],
                "height": 100 * h / size[1],
                "original_width": size[0],
                "original_height": size[1],
            }
    missing = [i.item_id for i in items if not i.image]
    if missing:
        raise CrepeInputError(
            f"{len(missing)} items have no image URL (e.g. {missing[0]}); pass --image-base-url URL"
        )
    return "image URLs, region drawn"


def image_value(item: Item, sample_dir: str | Path) -> str:
    """What Label Studio's ``<Image>`` gets: a URL, or a local crop as a ``data:`` URI."""
    if item.image.startswith(("http://", "https://", "data:")):
        return item.image
    png = (Path(sample_dir) / item.image).read_bytes()
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def to_task(item: Item, sample_dir: str | Path) -> dict:
    """One Label Studio task: data fields, and the region as a read-only prediction."""
    task: dict = {
        "data": {
            "item_id": item.item_id,
            "image": image_value(item, sample_dir),
            "text": item.text,
            "question": QUESTIONS[item.kind],
            "kind": item.kind,
        }
    }
    if item.region:
        r = item.region
        value = {k: r[k] for k in ("x", "y", "width", "height")} | {"rotation": 0}
        task["predictions"] = [
            {
                "model_version": "crepe-region",
                "result": [
                    {
                        "from_name": REGION_NAME,
                        "to_name": "image",
                        "type": "rectanglelabels",
                        "original_width": r["original_width"],
                        "original_height": r["original_height"],
                        "value": value | {"rectanglelabels": ["region"]},
                    }
                ],
            }
        ]
    return task
