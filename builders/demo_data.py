"""Demo inputs authored by the project: a small Visual Genome-format sample and caption corpora.

Everything is synthesised from a fixed vocabulary and a seed, so ``crepe demo`` works without any
external data and always writes the same files:

* ``vg/`` in the official Visual Genome v1.4 formats: ``scene_graphs.json``, ``image_data.json``,
  ``region_descriptions.json``, ``objects.json``, ``attributes.json``, ``relationships.json``;
* ``images/<id>.png``: 640×480 pictures in which every object is drawn as a shape in its colour
  attribute, inside its box (so a region crop really shows what its description says);
* ``captions.txt`` (one caption per line) and ``captions_coco.json`` (COCO captions format):
  a small "training corpus" describing the scenes, with deliberate gaps so that some bindings
  are unseen;
* ``aro/`` ARO VG-Attribution in both released forms: caption lists
  (``att-original-true.json`` / ``att-original-false.json``) and the official JSON
  (``visual_genome_attribution.json``) with image references and boxes.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass
from pathlib import Path

from crepe_datasets.infra.provenance import write_json_atomic, write_text_atomic

WIDTH, HEIGHT = 640, 480
N_IMAGES = 36
FIRST_IMAGE_ID = 1

COLOURS = {
    "red": (200, 30, 30),
    "blue": (40, 70, 200),
    "green": (40, 150, 60),
    "yellow": (230, 210, 40),
    "black": (20, 20, 20),
    "white": (245, 245, 245),
    "brown": (120, 75, 35),
    "orange": (240, 140, 20),
}
SIZES = ("small", "large")
OBJECTS = {  # name -> (shape, synset)
    "dog": ("ellipse", "dog.n.01"),
    "cat": ("ellipse", "cat.n.01"),
    "car": ("rectangle", "car.n.01"),
    "ball": ("ellipse", "ball.n.01"),
    "table": ("rectangle", "table.n.02"),
    "chair": ("rectangle", "chair.n.01"),
    "cup": ("rectangle", "cup.n.01"),
    "book": ("rectangle", "book.n.01"),
    "bench": ("rectangle", "bench.n.01"),
    "kite": ("triangle", "kite.n.03"),
    "umbrella": ("triangle", "umbrella.n.01"),
    "bird": ("triangle", "bird.n.01"),
}
# Bindings that never occur in the demo corpus, so the demo has unseen compounds.
HELD_OUT_BINDINGS = {("green", "dog"), ("orange", "car"), ("blue", "cat"), ("yellow", "table")}


@dataclass
class DemoObject:
    object_id: int
    name: str
    colour: str
    size: str | None
    box: tuple[int, int, int, int]

    @property
    def attributes(self) -> list[str]:
        return [self.colour] + ([self.size] if self.size else [])

    def phrase(self) -> str:
        return " ".join([*([self.size] if self.size else []), self.colour, self.name])


def _relation(a: DemoObject, b: DemoObject) -> str | None:
    """A spatial predicate from geometry (subject a, object b), or None."""
    ax, ay, aw, ah = a.box
    bx, by, bw, bh = b.box
    overlap_x = min(ax + aw, bx + bw) - max(ax, bx)
    if ay + ah <= by and overlap_x > 0:
        return "above"
    if by + bh <= ay and overlap_x > 0:
        return "below"
    if ax + aw <= bx:
        return "to the left of"
    if bx + bw <= ax:
        return "to the right of"
    return "next to"


def _scene(rng: random.Random, image_id: int, next_object_id: int) -> tuple[list[DemoObject], list]:
    n_objects = rng.randint(3, 5)
    names = rng.sample(sorted(OBJECTS), n_objects)
    cells = rng.sample([(c, r) for c in range(3) for r in range(2)], n_objects)
    objects = []
    for i, (name, (col, row)) in enumerate(zip(names, cells, strict=True)):
        w, h = rng.randint(150, 205), rng.randint(170, 230)
        x = col * (WIDTH // 3) + rng.randint(0, WIDTH // 3 - w)
        y = row * (HEIGHT // 2) + rng.randint(0, HEIGHT // 2 - min(h, HEIGHT // 2))
        h = min(h, HEIGHT - y)
        colour = rng.choice(sorted(COLOURS))
        size = rng.choice((None, None, *SIZES))
        objects.append(DemoObject(next_object_id + i, name, colour, size, (x, y, w, h)))
    relations = []
    for a in objects:
        for b in objects:
            if a is not b and a.object_id < b.object_id and rng.random() < 0.5:
                predicate = _relation(a, b)
                if predicate:
                    relations.append((a, predicate, b))
    return objects, relations


def _draw(path: Path, objects: list[DemoObject], rng: random.Random) -> None:
    from PIL import Image, ImageDraw

    background = tuple(rng.randint(150, 215) for _ in range(3))
    image = Image.new("RGB", (WIDTH, HEIGHT), background)
    draw = ImageDraw.Draw(image)
    for obj in objects:
        x, y, w, h = obj.box
        shape = OBJECTS[obj.name][0]
        fill, outline = COLOURS[obj.colour], (60, 60, 60)
        if shape == "ellipse":
            draw.ellipse((x, y, x + w, y + h), fill=fill, outline=outline, width=3)
        elif shape == "triangle":
            draw.polygon([(x + w // 2, y), (x, y + h), (x + w, y + h)], fill=fill, outline=outline)
        else:
            draw.rectangle((x, y, x + w, y + h), fill=fill, outline=outline, width=3)
    image.save(path, format="PNG", optimize=False, compress_level=6)


def _a(phrase: str) -> str:
    """The phrase with its indefinite article ("an orange ball")."""
    return f"an {phrase}" if phrase[:1] in "aeiou" else f"a {phrase}"


def _union(a: DemoObject, b: DemoObject) -> tuple[int, int, int, int]:
    x0, y0 = min(a.box[0], b.box[0]), min(a.box[1], b.box[1])
    x1 = max(a.box[0] + a.box[2], b.box[0] + b.box[2])
    y1 = max(a.box[1] + a.box[3], b.box[1] + b.box[3])
    return x0, y0, x1 - x0, y1 - y0


def _vg_object(obj: DemoObject, with_attributes: bool = True) -> dict:
    x, y, w, h = obj.box
    data = {
        "object_id": obj.object_id,
        "names": [obj.name],
        "synsets": [OBJECTS[obj.name][1]],
        "x": x,
        "y": y,
        "w": w,
        "h": h,
    }
    if with_attributes:
        data["attributes"] = obj.attributes
    return data


def write_demo_inputs(out_dir: str | Path, seed: int = 0) -> Path:
    """Write every demo input under ``out_dir`` and return it.

    The same seed always gives byte-identical files.
    """
    out = Path(out_dir)
    (out / "images").mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    scene_graphs, image_data, regions, objects_json, attributes_json, relationships_json = (
        [],
        [],
        [],
        [],
        [],
        [],
    )
    captions: list[str] = []
    aro_true: list[str] = []
    aro_false: list[str] = []
    aro_official: list[dict] = []
    next_object, next_rel, next_region = 1000, 5000, 9000
    for image_id in range(FIRST_IMAGE_ID, FIRST_IMAGE_ID + N_IMAGES):
        objects, relations = _scene(rng, image_id, next_object)
        next_object += len(objects)
        _draw(out / "images" / f"{image_id}.png", objects, rng)
        image_data.append(
            {
                "image_id": image_id,
                "width": WIDTH,
                "height": HEIGHT,
                "url": f"https://example.org/crepe-demo/{image_id}.png",
                "coco_id": None,
                "flickr_id": None,
            }
        )
        rels = []
        for a, predicate, b in relations:
            rels.append(
                {
                    "relationship_id": next_rel,
                    "predicate": predicate,
                    "subject_id": a.object_id,
                    "object_id": b.object_id,
                    "synsets": [],
                }
            )
            next_rel += 1
        scene_graphs.append(
            {
                "image_id": image_id,
                "objects": [_vg_object(o) for o in objects],
                "relationships": rels,
            }
        )
        objects_json.append(
            {
                "image_id": image_id,
                "objects": [_vg_object(o, with_attributes=False) for o in objects],
            }
        )
        attributes_json.append(
            {"image_id": image_id, "attributes": [_vg_object(o) for o in objects]}
        )
        by_id = {o.object_id: o for o in objects}
        relationships_json.append(
            {
                "image_id": image_id,
                "relationships": [
                    {
                        "relationship_id": r["relationship_id"],
                        "predicate": r["predicate"],
                        "synsets": [],
                        "subject": {
                            **_vg_object(by_id[r["subject_id"]], False),
                            "name": by_id[r["subject_id"]].name,
                        },
                        "object": _vg_object(by_id[r["object_id"]], False),
                    }
                    for r in rels
                ],
            }
        )
        image_regions = []
        for o in objects:
            x, y, w, h = o.box
            image_regions.append(
                {
                    "region_id": next_region,
                    "image_id": image_id,
                    "phrase": _a(o.phrase()),
                    "x": x,
                    "y": y,
                    "width": w,
                    "height": h,
                }
            )
            next_region += 1
        for a, predicate, b in relations:
            x, y, w, h = _union(a, b)
            image_regions.append(
                {
                    "region_id": next_region,
                    "image_id": image_id,
                    "phrase": f"{a.phrase()} {predicate} {b.phrase()}",
                    "x": x,
                    "y": y,
                    "width": w,
                    "height": h,
                }
            )
            next_region += 1
        regions.append({"id": image_id, "regions": image_regions})
        # Training-corpus captions: every object phrase and relation, except held-out bindings.
        for o in objects:
            if (o.colour, o.name) not in HELD_OUT_BINDINGS:
                captions.append(f"a photo of {_a(o.phrase())}.")
        for a, predicate, b in relations:
            if not {(a.colour, a.name), (b.colour, b.name)} & HELD_OUT_BINDINGS:
                captions.append(f"{_a(a.phrase())} {predicate} {_a(b.phrase())}")
        # ARO VG-Attribution: pairs of objects with one attribute each; swapped attributes.
        for a, b in itertools.pairwise(objects):
            aro_true.append(f"the {a.colour} {a.name} and the {b.colour} {b.name}")
            aro_false.append(f"the {b.colour} {a.name} and the {a.colour} {b.name}")
            x, y, w, h = _union(a, b)
            aro_official.append(
                {
                    "image_id": str(image_id),
                    "image_path": f"{image_id}.png",
                    "true_caption": aro_true[-1],
                    "false_caption": aro_false[-1],
                    "bbox_x": x,
                    "bbox_y": y,
                    "bbox_w": w,
                    "bbox_h": h,
                    "attributes": [a.colour, b.colour],
                    "obj1_name": a.name,
                    "obj2_name": b.name,
                }
            )
        if objects[0].size:  # a two-word attribute: excluded by the ARO regex, as in the release
            o = objects[0]
            aro_true.append(
                f"the {o.size} {o.colour} {o.name} and the {o.colour} {objects[1].name}"
            )
            aro_false.append(
                f"the {o.colour} {o.size} {o.name} and the {o.colour} {objects[1].name}"
            )
    generic = [
        "a picture of a room",
        "two people talking",
        "a sunny day in the park",
        "an empty street at night",
        "a plate of food on a table",
    ]
    captions += generic
    vg = out / "vg"
    for name, data in [
        ("scene_graphs", scene_graphs),
        ("image_data", image_data),
        ("region_descriptions", regions),
        ("objects", objects_json),
        ("attributes", attributes_json),
        ("relationships", relationships_json),
    ]:
        write_json_atomic(vg / f"{name}.json", data)
    write_text_atomic(out / "captions.txt", "\n".join(captions) + "\n")
    coco = {
        "info": {"description": "crepe-datasets demo captions (synthetic)"},
        "images": [
            {
                "id": d["image_id"],
                "file_name": f"{d['image_id']}.png",
                "width": WIDTH,
                "height": HEIGHT,
            }
            for d in image_data
        ],
        "annotations": [
            {"id": i, "image_id": FIRST_IMAGE_ID + i % N_IMAGES, "caption": c}
            for i, c in enumerate(captions)
        ],
    }
    write_json_atomic(out / "captions_coco.json", coco)
    write_json_atomic(out / "aro" / "att-original-true.json", aro_true)
    write_json_atomic(out / "aro" / "att-original-false.json", aro_false)
    write_json_atomic(out / "aro" / "visual_genome_attribution.json", aro_official)
    write_text_atomic(out / "README.md", (__doc__ or "").strip() + "\n")
    return out


def load_demo_json(path: str | Path) -> object:
    """Read one demo JSON file (used by tests)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))
