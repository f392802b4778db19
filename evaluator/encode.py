"""Encode every unique image crop and every unique text once, batched, with an on-disk cache.

CREPE's retrieval sets repeat the same image under several negative types and the same captions
across sets; here an image crop is keyed by ``(image_file, bbox)`` (or the hash of its embedded
bytes) and a text by its string, and each key is encoded once per model. Image decoding and
cropping run in ``torch.utils.data.DataLoader`` workers (each keeps a few decoded images, and keys
are sorted so crops of one file arrive together), which hand ``uint8`` crops to the device where
the transform ends in normalisation (:mod:`crepe_datasets.evaluator.pixels`); text tokenization
runs in workers too. Embeddings stay on the device and are copied back every few batches.
Embeddings are cached per ``(model_id, dataset fingerprint, precision, image folder)`` as ``.npy``
+ a JSON key list; a second run only encodes what the cache lacks.
"""

from __future__ import annotations

import hashlib
import json
import signal
import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from crepe_datasets.evaluator.datasets_io import ImageRef
from crepe_datasets.evaluator.models import EncoderModel, safe_name
from crepe_datasets.infra.provenance import write_json_atomic
from crepe_datasets.scenegraph.crops import CropError, ImageSource, crop_region, open_rgb

_OPEN_IMAGES = 4


class RegionDataset:
    """``dataset[i]`` → ``(i, pixel tensor or None, failure reason or None)``.

    Crops follow the builders' crop rule (:func:`crepe_datasets.scenegraph.crops.crop_region`),
    so a crop embedded in a dataset's ``image`` column and one cut here from the file have the
    same pixels. ``image_dir`` may be a folder or a zip of the images.
    """

    def __init__(self, refs: Sequence[ImageRef], image_dir: Path | None, preprocess) -> None:
        self.refs, self.image_dir, self.preprocess = list(refs), image_dir, preprocess
        self._source: ImageSource | None = None
        self._open: OrderedDict[str, object] = OrderedDict()

    def __len__(self) -> int:
        return len(self.refs)

    def _file(self, name: str):
        if name not in self._open:
            if self.image_dir is None:
                raise CropError("no_image_dir")
            if self._source is None:
                self._source = ImageSource(self.image_dir)
            try:
                self._open[name] = open_rgb(self._source.read(name))
            except CropError as err:
                self._open[name] = err
            if len(self._open) > _OPEN_IMAGES:
                self._open.popitem(last=False)
        self._open.move_to_end(name)
        found = self._open[name]
        if isinstance(found, CropError):
            raise found
        return found

    def load(self, ref: ImageRef):
        """The PIL crop of ``ref`` (raises :class:`CropError` with the reason when impossible)."""
        if ref.data is not None:
            return open_rgb(ref.data)
        if not ref.file:
            raise CropError("no_image_reference")
        return crop_region(self._file(ref.file), ref.bbox)

    def __getitem__(self, i: int):
        try:
            return i, self.preprocess(self.load(self.refs[i])), None
        except CropError as err:
            return i, None, err.reason


def _collate(batch):
    import torch

    ok = [(i, t) for i, t, _ in batch if t is not None]
    failed = [(i, r) for i, t, r in batch if t is None]
    pixels = torch.stack([t for _, t in ok]) if ok else None
    return [i for i, _ in ok], pixels, failed


class EmbeddingCache:
    """Embeddings on disk: ``<root>/<model>/<key>/{images,texts}.npy`` + ``.keys.json``."""

    def __init__(
        self,
        root: Path | None,
        model_id: str,
        fingerprint: str,
        precision: str,
        image_dir: Path | None,
    ):
        ident = "|".join(
            (model_id, fingerprint, precision, str(image_dir.resolve() if image_dir else ""))
        )
        self.dir = (
            None
            if root is None
            else Path(root) / safe_name(model_id) / hashlib.sha256(ident.encode()).hexdigest()[:16]
        )
        self.ident = ident

    def load(self, kind: str) -> dict[str, np.ndarray]:
        if self.dir is None or not (self.dir / f"{kind}.npy").exists():
            return {}
        keys = json.loads((self.dir / f"{kind}.keys.json").read_text(encoding="utf-8"))
        array = np.load(self.dir / f"{kind}.npy")
        return dict(zip(keys, array, strict=True))

    def save(self, kind: str, table: dict[str, np.ndarray]) -> None:
        if self.dir is None or not table:
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        keys = sorted(table)
        tmp = self.dir / f".{kind}.tmp.npy"
        np.save(tmp, np.stack([table[k] for k in keys]).astype(np.float32))
        tmp.replace(self.dir / f"{kind}.npy")
        write_json_atomic(self.dir / f"{kind}.keys.json", keys)
        write_json_atomic(self.dir / "cache.json", {"identity": self.ident})


@dataclass
class Embeddings:
    """Embedding tables: key → row, plus what failed and how long it took."""

    images: dict[str, np.ndarray]
    texts: dict[str, np.ndarray]
    failed: dict[str, str] = field(default_factory=dict)
    timing: dict[str, float] = field(default_factory=dict)


class _Gathered:
    """Embeddings kept on the device and copied to the host every ``flush`` batches.

    Copying each batch back at once (``.cpu()``) makes the host wait for the device after every
    batch; gathering lets the device run ahead of the loader.
    """

    def __init__(self, flush: int = 32) -> None:
        self.flush, self.keys, self.pending, self.out = flush, [], [], {}

    def add(self, keys: Sequence[str], feats) -> None:
        self.keys.extend(keys)
        self.pending.append(feats)
        if len(self.pending) >= self.flush:
            self.drain()

    def drain(self) -> dict[str, np.ndarray]:
        import torch

        if self.pending:
            rows = torch.cat(self.pending).cpu().numpy()
            self.out.update(zip(self.keys, rows, strict=True))
            self.keys, self.pending = [], []
        return self.out


class _CtrlCInMainOnly:
    """A DataLoader whose worker processes start with SIGINT blocked (they inherit the signal
    mask): Ctrl-C, sent to the whole process group, reaches only the main process, which stops
    the workers as it unwinds. A worker that is still starting when Ctrl-C comes would otherwise
    die with a traceback of its own; a Ctrl-C while the workers start waits until they have."""

    def __init__(self, loader) -> None:
        self.loader = loader

    def __iter__(self):
        if not self.loader.num_workers or not hasattr(signal, "pthread_sigmask"):
            return iter(self.loader)
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return iter(self.loader)  # starts the workers
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _quiet_worker(worker_id: int) -> None:
    """``worker_init_fn`` of the DataLoaders: a worker serves its batches' file descriptors to
    the main process through multiprocessing's resource-sharer thread, which prints any error
    with ``sys.excepthook``. After Ctrl-C the main process drops those connections in the middle
    of their handshake, and the worker printed a connection reset or end-of-file traceback after
    "aborted". The worker's hook leaves out exactly those (a connection error raised in
    multiprocessing's connection or resource-sharer code); anything else is printed as before."""
    import sys

    previous = sys.excepthook

    def hook(kind, value, tb) -> None:
        files, frame = [], tb
        while frame is not None:
            files.append(frame.tb_frame.f_code.co_filename)
            frame = frame.tb_next
        handover = any(f.endswith(("resource_sharer.py", "connection.py")) for f in files)
        if not (issubclass(kind, (ConnectionError, EOFError)) and handover):
            previous(kind, value, tb)

    sys.excepthook = hook


def _loader(dataset, model: EncoderModel, workers: int, **kwargs) -> _CtrlCInMainOnly:
    import torch

    return _CtrlCInMainOnly(torch.utils.data.DataLoader(
        dataset, shuffle=False, num_workers=workers, pin_memory=model.device.startswith("cuda"),
        persistent_workers=False, worker_init_fn=_quiet_worker if workers else None, **kwargs,
    ))  # fmt: skip


def encode_images(
    model: EncoderModel, refs: Iterable[ImageRef], image_dir: Path | None, batch_size: int = 256,
    workers: int = 0, progress: bool = True,
) -> tuple[dict[str, np.ndarray], dict[str, str]]:  # fmt: skip
    """Embed unique image regions; returns ``(key → embedding, key → failure reason)``.

    Workers decode, crop and run ``model.loader_transform``; the device finishes the transform
    (:meth:`EncoderModel.finish_pixels`) and encodes.
    """
    from tqdm import tqdm

    unique = sorted({r.key: r for r in refs}.values(), key=lambda r: (r.file or "", r.key))
    gathered, failed = _Gathered(), {}
    if not unique:
        return {}, failed
    loader = _loader(RegionDataset(unique, image_dir, model.loader_transform), model, workers,
                     batch_size=batch_size, collate_fn=_collate)  # fmt: skip
    with tqdm(
        total=len(unique), desc="images", unit="img", disable=not progress, leave=False
    ) as bar:
        for idx, pixels, bad in loader:
            if pixels is not None:
                feats = model.encode_pixels(model.finish_pixels(pixels))
                gathered.add([unique[i].key for i in idx], feats)
            failed.update((unique[i].key, reason) for i, reason in bad)
            bar.update(len(idx) + len(bad))
    return gathered.drain(), failed


class _TokenBatches:
    """``dataset[i]`` → the ``i``-th batch of ``texts``, tokenized (in a DataLoader worker)."""

    def __init__(self, texts: Sequence[str], batch_size: int, tokenize) -> None:
        self.texts, self.batch_size, self.tokenize = texts, batch_size, tokenize

    def __len__(self) -> int:
        return -(-len(self.texts) // self.batch_size)

    def __getitem__(self, i: int):
        return self.tokenize(list(self.texts[i * self.batch_size : (i + 1) * self.batch_size]))


def encode_texts(
    model: EncoderModel, texts: Iterable[str], batch_size: int = 256, progress: bool = True,
    workers: int = 0,
) -> dict[str, np.ndarray]:  # fmt: skip
    """Embed unique texts, batched by length; returns ``text → embedding``.

    Workers tokenize (``model.tokenize``); the main process encodes.
    """
    from tqdm import tqdm

    unique = sorted(set(texts), key=lambda t: (len(t), t))
    gathered = _Gathered()
    loader = _loader(_TokenBatches(unique, batch_size, model.tokenize), model, workers,
                     batch_size=None)  # fmt: skip
    with tqdm(
        total=len(unique), desc="texts", unit="txt", disable=not progress, leave=False
    ) as bar:
        for start, tokens in zip(range(0, len(unique), batch_size), loader, strict=True):
            chunk = unique[start : start + batch_size]
            gathered.add(chunk, model.encode_tokens(tokens))
            bar.update(len(chunk))
    return gathered.drain()


def encode_all(
    model: EncoderModel, refs: Iterable[ImageRef], texts: Iterable[str], image_dir: Path | None,
    cache: EmbeddingCache, batch_size: int = 256, workers: int = 0, progress: bool = True,
) -> Embeddings:  # fmt: skip
    """Embeddings for every unique region and text, read from ``cache`` where present."""
    refs, texts = list(refs), set(texts)
    timing: dict[str, float] = {}
    images, cached_texts = cache.load("images"), cache.load("texts")
    todo_refs = [r for r in refs if r.key not in images]
    todo_texts = [t for t in texts if t not in cached_texts]
    timing["images_cached"] = float(len({r.key for r in refs}) - len({r.key for r in todo_refs}))
    timing["texts_cached"] = float(len(texts) - len(todo_texts))
    start = time.perf_counter()
    new_images, failed = encode_images(model, todo_refs, image_dir, batch_size, workers, progress)
    timing["images_s"] = time.perf_counter() - start
    timing["images_encoded"] = float(len(new_images))
    start = time.perf_counter()
    new_texts = encode_texts(model, todo_texts, batch_size, progress, workers)
    timing["texts_s"] = time.perf_counter() - start
    timing["texts_encoded"] = float(len(new_texts))
    if new_images:
        images.update(new_images)
        cache.save("images", images)
    if new_texts:
        cached_texts.update(new_texts)
        cache.save("texts", cached_texts)
    return Embeddings(images, cached_texts, failed, timing)
