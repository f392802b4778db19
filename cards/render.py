"""Rendering the dataset card (README.md) from the build manifest.

The YAML front matter declares one entry per config under ``configs:`` so that
``load_dataset(folder_or_repo, config)`` works without a loading script; the prose is rendered
from the same manifest that ships with the data.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from crepe_datasets.cards.manifest import BuildManifest
from crepe_datasets.cards.plots import DROPS_PLOT, ROWS_PLOT, VERIFICATION_PLOT
from crepe_datasets.cards.tables import (
    Table,
    cell,
    mapping_tables,
    natural_key,
    verification_tables,
)

TEMPLATES = Path(__file__).parent / "templates"
SIZE_CATEGORIES = (
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
)


def size_category(n_rows: int) -> str:
    """The Hub's size category for a number of rows."""
    for limit, name in SIZE_CATEGORIES:
        if n_rows < limit:
            return name
    return "10M<n<100M"


def front_matter(manifest: BuildManifest) -> dict:
    """The README YAML: licence, task categories, size category and ``configs:``."""
    total = sum(n for splits in manifest.counts.values() for n in splits.values())
    configs = []
    for name, splits in manifest.counts.items():
        files = [{"split": s, "path": f"data/{name}/{s}-*.parquet"} for s, n in splits.items() if n]
        if files:
            configs.append({"config_name": name, "data_files": files})
    if configs:
        configs[0]["default"] = True
    # dataset_info lets `datasets` check row counts, and (through download_size) gives a rebuilt
    # folder a new cache key: `datasets` keys local folders by this metadata, not file content.
    sizes: dict[str, int] = {}
    split_sizes: dict[tuple[str, str], int] = {}
    for output in manifest.outputs:
        parts = output.path.split("/")
        config = parts[1] if output.path.startswith("data/") and len(parts) > 2 else ""
        sizes[config] = sizes.get(config, 0) + output.bytes
        split = parts[-1].rsplit("-", 3)[0] if config else ""
        split_sizes[(config, split)] = split_sizes.get((config, split), 0) + output.bytes
    infos = [
        {
            "config_name": c["config_name"],
            **(
                {"features": manifest.features[c["config_name"]]}
                if c["config_name"] in manifest.features
                else {}
            ),
            # name + num_bytes + num_examples: all three, or `datasets` ignores the splits
            # with a warning; num_bytes is the size of the split's parquet shards.
            "splits": [
                {
                    "name": s,
                    "num_bytes": split_sizes.get((c["config_name"], s), 0),
                    "num_examples": n,
                }
                for s, n in manifest.counts[c["config_name"]].items()
                if n
            ],
            "download_size": sizes.get(c["config_name"], 0),
            "dataset_size": sizes.get(c["config_name"], 0),
        }
        for c in configs
    ]
    return {
        "pretty_name": manifest.card.pretty_name,
        "license": manifest.card.license,
        "task_categories": list(manifest.card.task_categories),
        "tags": list(manifest.card.tags),
        "size_categories": [size_category(total)],
        "configs": configs,
        "dataset_info": infos,
    }


def render_card(manifest: BuildManifest, repo: str | None = None) -> str:
    """README.md text: YAML front matter, then the card prose."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES), undefined=StrictUndefined, keep_trailing_newline=True
    )
    configs = [
        (name, manifest.configs[name]) for name in manifest.counts if name in manifest.configs
    ]
    declared = {n: [s for s, k in splits.items() if k] for n, splits in manifest.counts.items()}
    first_config = next((n for n, s in declared.items() if s), "default")
    first_split = next(iter(declared.get(first_config, [])), None)
    summary_tables = mapping_tables(manifest.summary)
    parameter_rows = [
        [k, f"`{cell(v)}`" if v not in (None, "") else "–"]
        for k, v in sorted(manifest.parameters.items())
    ]
    body = env.get_template("dataset_card.md.j2").render(
        m=manifest,
        split_counts={
            name: sorted(splits.items(), key=lambda kv: natural_key(kv[0]))
            for name, splits in manifest.counts.items()
        },
        plots={"rows": ROWS_PLOT, "drops": DROPS_PLOT, "verification": VERIFICATION_PLOT},
        card=manifest.card,
        repo=repo or f"<org>/{manifest.dataset}",
        configs=configs,
        first_config=first_config,
        first_split=first_split,
        summary_tables=summary_tables,
        parameters_table=Table("", ["parameter", "value"], parameter_rows),
        verification=manifest.human_verification,
        verification_tables=verification_tables(manifest.human_verification)
        if manifest.human_verification
        else [],
        assets=set(manifest.assets),
        drops=manifest.drops.to_dict(),
        repairs=manifest.drops.repairs_dict(),
        validation=json.dumps(manifest.validation, indent=2, sort_keys=True, default=str),
    )
    yaml_text = yaml.safe_dump(front_matter(manifest), sort_keys=False, allow_unicode=True)
    return f"---\n{yaml_text}---\n\n{body}"
