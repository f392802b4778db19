"""Loading ``transformers`` models by hub name or local folder, with one-sentence errors.

* A string that names an existing folder is loaded from it; a string that looks like a path
  (``/…``, ``./…``, ``../…``, ``~…``) but does not exist is an error without any network access.
* Anything else is a hub name: the local HuggingFace cache is tried first, then the network
  (unless ``local_files_only`` or ``HF_HUB_OFFLINE=1``). When both fail the error says to pass a
  local folder or enable the network.
* :func:`model_id` gives the manifest a stable identity: the name, plus the hub commit when the
  files came from the hub cache.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from crepe_datasets.infra.errors import MissingResourceError

PATH_PREFIXES = ("/", "./", "../", "~", ".\\", "..\\")


def resolve_device(device: str | None) -> str:
    """``device`` as given, or ``"cuda"`` when a GPU is available, else ``"cpu"``."""
    if device:
        return device
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def looks_like_path(name: str) -> bool:
    return name.startswith(PATH_PREFIXES) or Path(name).expanduser().exists()


def load_model_and_tokenizer(
    name_or_path: str,
    auto_model: Any,
    what: str,
    flag: str,
    local_files_only: bool | None = None,
) -> tuple[Any, Any]:
    """Tokenizer and model (``auto_model.from_pretrained``) of a hub name or local folder.

    Args:
        name_or_path: hub name ("roberta-large-mnli") or folder with config, weights, tokenizer.
        auto_model: a ``transformers`` auto class, e.g. ``AutoModelForSequenceClassification``.
        what: what the model is for, for messages ("NLI model").
        flag: the command-line option that sets it, for messages ("--nli").
        local_files_only: ``True`` never uses the network; ``None`` tries the cache first.

    Raises:
        MissingResourceError: one sentence naming the model and the fix.
    """
    from transformers import AutoTokenizer

    if looks_like_path(name_or_path):
        folder = Path(name_or_path).expanduser()
        if not (folder / "config.json").is_file():
            raise MissingResourceError(
                f"{what} folder {folder} has no config.json; pass {flag} a folder saved with "
                "save_pretrained (config, weights and tokenizer files)."
            )
        attempts = [True]
        source = str(folder)
    else:
        offline = os.environ.get("HF_HUB_OFFLINE", "").lower() in {"1", "true", "yes"}
        attempts = [True] if local_files_only or offline else [True, False]
        source = name_or_path
    last: Exception | None = None
    for local_only in attempts:
        try:
            tokenizer = AutoTokenizer.from_pretrained(source, local_files_only=local_only)
            model = auto_model.from_pretrained(source, local_files_only=local_only)
            return tokenizer, model
        except (OSError, ValueError) as exc:
            last = exc
    raise MissingResourceError(
        f"{what} {name_or_path!r} could not be loaded ({type(last).__name__}): it is not in the "
        f"local HuggingFace cache and the network is off or lacks it; pass {flag} a local folder "
        "saved with save_pretrained, or enable the network."
    ) from last


def model_id(name_or_path: str, model: Any) -> str:
    """``name`` or ``name@commit`` (when loaded from the hub cache) for the build manifest."""
    commit = getattr(model.config, "_commit_hash", None)
    return (
        f"{name_or_path}@{commit}" if commit and not looks_like_path(name_or_path) else name_or_path
    )
