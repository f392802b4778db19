"""Publishing a dataset folder to the HuggingFace Hub with a version tag (SPEC §7).

A release is: the folder uploaded as one commit of a dataset repo, then a tag ``v<version>``
(the dataset version from the build manifest) on that commit, so that
``load_dataset("<org>/<name>", config, revision="v1.0.0")`` pins it.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import yaml

from crepe_datasets.cards.manifest import MANIFEST_NAME, read_manifest
from crepe_datasets.infra.errors import CrepeInputError

# File names (lower case) that look like credentials; a dataset folder holding one is not published.
SECRET_PATTERNS = (
    ".env", ".env.*", "*.env", "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore",
    "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*", "*.ppk", ".netrc", "_netrc", ".pypirc",
    ".npmrc", ".git-credentials", "*credentials*", "*token*", "*secret*", ".htpasswd",
)  # fmt: skip


@dataclass(frozen=True)
class ReleasePlan:
    """What :func:`publish` uploads: the files and the tag."""

    folder: Path
    repo_id: str
    tag: str
    files: tuple[str, ...]
    configs: tuple[str, ...]


def check_folder(folder: str | Path) -> tuple[str, ...]:
    """Check that a folder is a complete dataset; return its config names.

    Every config of the README's ``configs:`` must have parquet files for each split, and the
    manifest's counts must name the same configs.

    Raises:
        CrepeInputError: naming the first problem found.
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    readme = folder / "README.md"
    if not readme.exists():
        raise CrepeInputError(f"{folder} has no README.md; rebuild the dataset")
    parts = readme.read_text(encoding="utf-8").split("---\n")
    if len(parts) < 3:
        raise CrepeInputError(f"{readme} has no YAML front matter; rebuild the dataset")
    front = yaml.safe_load(parts[1]) or {}
    configs = front.get("configs") or []
    names = tuple(c["config_name"] for c in configs)
    non_empty = {c for c, splits in manifest.counts.items() if any(splits.values())}
    if set(names) != non_empty:
        raise CrepeInputError(
            f"{readme} declares configs {sorted(names)} but the manifest counts {sorted(manifest.counts)}"
        )
    for config in configs:
        for data_file in config["data_files"]:
            if not list(folder.glob(data_file["path"])):
                raise CrepeInputError(
                    f"{folder} has no files for {data_file['path']}; rebuild the dataset"
                )
    return names


def secret_files(folder: str | Path) -> list[str]:
    """Files under ``folder`` whose names look like secrets (keys, tokens, ``.env``), relative."""
    folder = Path(folder)
    found = []
    for path in sorted(folder.rglob("*")):
        name = path.name.lower()
        if any(fnmatch.fnmatch(name, pattern) for pattern in SECRET_PATTERNS):
            found.append(path.relative_to(folder).as_posix())
    return found


def plan_release(folder: str | Path, repo_id: str, tag: str | None = None) -> ReleasePlan:
    """The release of ``folder`` to ``repo_id`` (tag defaults to ``v`` + dataset version).

    Only the files the manifest names are planned: ``README.md``, ``build_manifest.json``, the
    parquet files of ``outputs`` and the card's plots (``assets``); anything else in the folder
    stays on this machine.

    Raises:
        CrepeInputError: the folder is incomplete, or holds a secrets-like file (``.env``,
            ``*.pem``, ``id_rsa``, tokens …), which it refuses to publish beside.
    """
    folder = Path(folder)
    secrets = secret_files(folder)
    if secrets:
        raise CrepeInputError(
            f"{folder} holds secrets-like files ({', '.join(secrets[:5])}); move them out of the "
            "dataset folder before publishing"
        )
    configs = check_folder(folder)
    if "/" not in repo_id:
        raise CrepeInputError(f"repository {repo_id!r} must be written as <org or user>/<name>")
    manifest = read_manifest(folder)
    files = (
        "README.md",
        MANIFEST_NAME,
        *sorted(o.path for o in manifest.outputs),
        *sorted(manifest.assets),
    )
    for name in files:
        path = PurePosixPath(name)
        if path.is_absolute() or ".." in path.parts or not (folder / path).is_file():
            raise CrepeInputError(
                f"{folder}: the manifest lists {name}, which is not a file of the folder"
            )
    return ReleasePlan(folder, repo_id, tag or f"v{manifest.version}", files, configs)


def publish(plan: ReleasePlan, private: bool = False, token: str | None = None) -> str:
    """Upload the folder as one commit and tag it; return the commit URL.

    Only ``plan.files`` (the files the manifest lists) are uploaded. Needs network access and a Hub token with write access (``huggingface-cli login`` or
    ``HF_TOKEN``).
    """
    from huggingface_hub import CommitOperationAdd, HfApi

    api = HfApi(token=token)
    api.create_repo(plan.repo_id, repo_type="dataset", private=private, exist_ok=True)
    commit = api.create_commit(
        repo_id=plan.repo_id,
        repo_type="dataset",
        operations=[
            CommitOperationAdd(path_in_repo=name, path_or_fileobj=str(plan.folder / name))
            for name in plan.files
        ],
        commit_message=f"Release {plan.tag}",
    )
    api.create_tag(plan.repo_id, tag=plan.tag, repo_type="dataset", revision=commit.oid)
    return commit.commit_url
