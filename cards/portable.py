"""Published files carry no private path: the manifest and card as they leave this machine.

A dataset folder is meant to be shared, so its ``build_manifest.json`` and card must not reveal
where the builder's files lay (home folder, user name, cache, the absolute ``--out``). Paths are
reduced to their file names; the inputs keep their sizes and SHA-256 checksums, which identify
them better than a path could.

Rules, applied to every string of the parameters, summary, models, card text and drop examples:

* a value that is a path (absolute, ``~/…``, ``./…``, ``../…``, or an existing file or folder),
  possibly as ``KIND:PATH[#COLUMN]``, becomes its last component (``text:corpus.txt``);
* values of path-valued keys (``out``, ``vg``, ``images``, ``cache_path`` …) become their last
  component;
* absolute or relative-dotted paths inside free text become their last component;
* URLs (``scheme://…``) and Hub names (``org/name``) are kept.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import re
from pathlib import Path
from typing import Any

from crepe_datasets.cards.manifest import BuildManifest

PATH_KEYS = frozenset(
    {"out", "vg", "vg_dir", "images", "llm_cache", "grid", "cache_dir", "cache_path", "path"}
)
_SPEC = re.compile(r"^(?P<kind>[a-z][a-z0-9_-]*:)(?!//)(?P<rest>.*)$", re.S)
_IN_TEXT = re.compile(r"(?<![\w.\-/~])(?:~|\.\.?)?/(?!/)[^\s`'\"<>()\[\]{},;|]+")


def _last(path: str) -> str:
    name = Path(path.rstrip("/")).name
    return name or path.strip("/") or "."


def _looks_like_path(text: str) -> bool:
    if text.startswith(("/", "~/", "./", "../")) or text in ("~", ".", ".."):
        return True
    if "\n" in text or len(text) > 4096 or "://" in text:
        return False
    try:
        return "/" in text and Path(text).exists()
    except OSError:
        return False


def portable_text(text: str, path_key: bool = False) -> str:
    """``text`` with every path in it reduced to its last component (see the module rules)."""
    match = _SPEC.match(text)
    kind, rest = (match["kind"], match["rest"]) if match else ("", text)
    body, _, column = rest.partition("#")
    if path_key or _looks_like_path(body):
        return kind + _last(body) + (f"#{column}" if column else "")
    return _IN_TEXT.sub(lambda m: _last(m.group(0)), text)


def portable_value(value: Any, key: str | None = None) -> Any:
    """A JSON-like value with :func:`portable_text` applied to every string in it."""
    if isinstance(value, str):
        return portable_text(value, path_key=key in PATH_KEYS)
    if isinstance(value, os.PathLike):
        return _last(os.fspath(value))
    if isinstance(value, dict):
        return {k: portable_value(v, str(k)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(portable_value(v, key) for v in value)
    return value


def portable_manifest(manifest: BuildManifest) -> BuildManifest:
    """A copy of ``manifest`` fit to publish: no absolute, home or cache path anywhere in it."""
    out = copy.deepcopy(manifest)
    out.parameters = portable_value(out.parameters)
    out.summary = portable_value(out.summary)
    out.models = portable_value(out.models)
    out.validation = portable_value(out.validation)
    out.inputs = [dataclasses.replace(f, path=portable_input_path(f.path)) for f in out.inputs]
    fields = {
        f.name: portable_value(getattr(out.card, f.name))
        for f in dataclasses.fields(out.card)
        if isinstance(getattr(out.card, f.name), (str, tuple, list))
    }
    out.card = dataclasses.replace(out.card, **fields)
    for key, examples in out.drops.examples.items():
        out.drops.examples[key] = [portable_text(e) for e in examples]
    return out


def portable_input_path(path: str) -> str:
    """An input's path as recorded: kept when already relative and plain, else its file name."""
    if path.startswith(("/", "~", "../", "./")) or "/../" in path:
        return _last(path)
    return path
