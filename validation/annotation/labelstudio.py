"""The Label Studio round trip through ``label-studio-sdk``: push a sample, pull its annotations.

``push`` creates a project with the toolkit's labeling configuration and imports one task per
item (ids kept in ``label_studio.json``); ``pull`` downloads the project's JSON export, keeps it
under ``exports/`` as it came, checks it as a whole and only then merges its judgements.
Unreachable servers and refused tokens are reported in one sentence.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from tqdm import tqdm

from crepe_datasets.infra.errors import CrepeInputError, MissingResourceError
from crepe_datasets.infra.provenance import write_json_atomic
from crepe_datasets.validation.annotation.store import (
    EXPORTS_DIR,
    PROJECT_FILE,
    Judgement,
    SampleFolder,
    parse_label_studio_export,
)
from crepe_datasets.validation.annotation.tasks import label_config, to_task

T = TypeVar("T")
BATCH = 500


class LabelStudioClient:
    """A Label Studio server at ``url``, used with the API token ``token``."""

    def __init__(self, url: str, token: str, timeout: float = 120.0) -> None:
        try:
            from label_studio_sdk import LabelStudio
        except ImportError as err:
            raise MissingResourceError(
                "label-studio-sdk is not installed: pip install 'crepe-datasets[annotation]'"
            ) from err

        if not token:
            raise CrepeInputError(
                "no Label Studio token: pass --token (Account & Settings → Access Token)"
            )
        self.url = url.rstrip("/")
        self.sdk = LabelStudio(base_url=self.url, api_key=token, timeout=timeout)

    def call(self, what: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run one SDK call; connection failures and HTTP errors become one-line errors."""
        import httpx
        from label_studio_sdk.core.api_error import ApiError

        try:
            return fn(*args, **kwargs)
        except (httpx.ConnectError, httpx.ConnectTimeout) as err:
            raise CrepeInputError(
                f"cannot reach Label Studio at {self.url} ({err}); is the server running?"
            ) from err
        except httpx.TimeoutException as err:
            raise CrepeInputError(
                f"Label Studio at {self.url} did not answer in time ({what})"
            ) from err
        except (httpx.TransportError, httpx.InvalidURL) as err:
            raise CrepeInputError(
                f"cannot talk to Label Studio at {self.url} ({err}); give a URL such as "
                "http://localhost:8080"
            ) from err
        except ApiError as err:
            if err.status_code in (401, 403):
                raise CrepeInputError(
                    f"Label Studio at {self.url} refused the token (HTTP {err.status_code}); "
                    "use the Access Token from Account & Settings"
                ) from err
            detail = err.body.get("detail") if isinstance(err.body, dict) else err.body
            raise CrepeInputError(
                f"Label Studio at {self.url} answered HTTP {err.status_code} to {what}: {detail}"
            ) from err

    def whoami(self) -> str:
        """The e-mail of the token's user (checks the server and the token)."""
        return self.call("whoami", self.sdk.users.whoami).email or ""

    def push(self, sample: SampleFolder, title: str) -> dict[str, Any]:
        """Create a project for ``sample`` and import its tasks; returns ``label_studio.json``."""
        state_path = sample.path / PROJECT_FILE
        if state_path.exists():
            state = json.loads(state_path.read_text())
            raise CrepeInputError(
                f"{sample.path} was already pushed (project {state['project_id']} at "
                f"{state['url']}); pull from it, or delete {PROJECT_FILE} to push again"
            )
        self.whoami()
        project = self.call(
            "create project",
            self.sdk.projects.create,
            title=title[:50],
            label_config=label_config(),
        )
        items = list(sample.items.values())
        task_ids: dict[str, int] = {}
        for start in tqdm(range(0, len(items), BATCH), desc="push", unit="batch", leave=False):
            batch = items[start : start + BATCH]
            response = self.call(
                "import tasks",
                self.sdk.projects.import_tasks,
                id=project.id,
                request=[to_task(i, sample.path) for i in batch],
                return_task_ids=True,
            )
            task_ids.update(zip((i.item_id for i in batch), response.task_ids or [], strict=True))
        state = {"url": self.url, "project_id": project.id, "title": title, "tasks": task_ids}
        write_json_atomic(state_path, state)
        return state

    def export(self, project_id: int) -> list[dict]:
        """The project's JSON export (every task, with its annotations)."""

        def download() -> bytes:
            chunks = self.sdk.projects.exports.download_sync(
                project_id, export_type="JSON", download_all_tasks=True
            )
            return b"".join(chunks)

        raw = self.call("export", download)
        try:
            return json.loads(raw)
        except ValueError as err:
            raise CrepeInputError(
                f"Label Studio at {self.url} sent an export that is not JSON"
            ) from err


def next_export_name(sample: SampleFolder, stem: str) -> str:
    """``<stem>-NNN.json``: raw exports are numbered, never overwritten."""
    n = (
        len(list((sample.path / EXPORTS_DIR).glob(f"{stem}-*.json")))
        if (sample.path / EXPORTS_DIR).exists()
        else 0
    )
    return f"{stem}-{n + 1:03d}.json"


def pull(
    sample: SampleFolder,
    client: LabelStudioClient | None = None,
    *,
    export_file: str | None = None,
    allow_partial: bool = False,
) -> tuple[list[Judgement], tuple[int, int], Counter[str]]:
    """Fetch (or read) an export, keep it, check it, merge it.

    Returns:
        The judgements, (added, changed) counts, and annotations skipped by reason.
    """
    if export_file is not None:
        try:
            tasks = json.loads(Path(export_file).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise CrepeInputError(f"cannot read the export {export_file}: {err}") from err
        source = sample.keep_export(next_export_name(sample, "file"), tasks).name
    else:
        state_path = sample.path / PROJECT_FILE
        if not state_path.exists() or client is None:
            raise CrepeInputError(
                f"{sample.path} was not pushed yet: run `crepe annotate push` first, or pass --export FILE"
            )
        state = json.loads(state_path.read_text())
        tasks = client.export(state["project_id"])
        stem = f"label-studio-p{state['project_id']}"
        source = sample.keep_export(next_export_name(sample, stem), tasks).name
    skipped: Counter[str] = Counter()
    judgements = parse_label_studio_export(
        tasks, sample, f"{EXPORTS_DIR}/{source}", allow_partial, skipped
    )
    return judgements, sample.merge(judgements), skipped
