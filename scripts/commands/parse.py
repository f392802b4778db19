"""`crepe parse`, `crepe parse-corpus` and `crepe validate parser`."""

from __future__ import annotations

import json
from pathlib import Path

import click

from crepe_datasets.infra.errors import CrepeInputError
from crepe_datasets.scripts.options import checked_output, engine_options


def graph_record(caption: str, graph) -> dict:
    """One ``graphs.jsonl`` line: caption, objects, [object, attribute], [s, p, o]."""
    by_id = graph.object_by_id()
    return {
        "caption": caption,
        "objects": [o.name for o in graph.objects],
        "attributes": [[o.name, a] for o in graph.objects for a in o.attributes],
        "relations": [
            [by_id[r.subject].name, r.predicate, by_id[r.object].name]
            for r in graph.relationships
            if r.subject in by_id and r.object in by_id
        ],
    }


def seen_folder(folder: Path) -> bool:
    """Whether ``folder`` holds seen tables (or a resumable run) of ``crepe parse-corpus``."""
    return (folder / "shards" / "run.json").is_file() or (folder / "manifest.json").is_file()


@checked_output("out", kind="file", inputs=("input_path",))
@click.command("parse")
@click.option(
    "--input",
    "input_path",
    required=True,
    type=click.Path(path_type=Path),
    help="Text file, one caption per line.",
)
@click.option(
    "--out", required=True, type=click.Path(path_type=Path), help="Output JSON Lines file."
)
@click.option(
    "--batch-size",
    type=click.IntRange(min=1),
    default=256,
    show_default=True,
    help="Captions per spaCy batch.",
)
@click.option(
    "--model", default=None, help="spaCy pipeline name or folder (default: en_core_web_sm)."
)
def parse_cmd(input_path: Path, out: Path, batch_size: int, model: str | None) -> None:
    """Parse captions into scene graphs (one JSON line per caption, with its input line number).

    Lines that are not UTF-8 or hold nothing once control and invisible characters are removed
    are dropped; lines longer than the parser's limit are cut at a word; both are counted.
    """
    from tqdm import tqdm

    from crepe_datasets.infra.provenance import DropLog, write_text_atomic
    from crepe_datasets.scenegraph.parser import CaptionParser
    from crepe_datasets.sources.caption_lines import read_caption_lines

    drops = DropLog()
    numbered = read_caption_lines(input_path, drops)
    captions = [text for _, text in numbered]
    parser = CaptionParser(model=model)
    lines = []
    graphs = parser.iter_parse(captions, batch_size=batch_size)
    for (number, caption), graph in tqdm(
        zip(numbered, graphs, strict=True), total=len(captions), unit=" captions", desc="parse"
    ):
        lines.append(
            json.dumps({"line": number, **graph_record(caption, graph)}, ensure_ascii=False)
        )
    write_text_atomic(out, "\n".join(lines) + ("\n" if lines else ""))
    click.echo(f"parsed {len(captions):,} captions -> {out}")
    for (stage, reason), n in sorted(drops.counts.items()):
        examples = "; ".join(drops.examples.get((stage, reason), []))
        click.echo(f"  dropped {reason}: {n:,} line(s) (e.g. {examples})")
    for (_, reason), n in sorted(drops.repairs.items()):
        click.echo(f"  {reason.replace('_', ' ')}: {n:,} line(s)")


@checked_output(
    "out", kind="folder", inputs=("corpus",), recognise=seen_folder, what="seen tables of a corpus"
)
@click.command("parse-corpus")
@click.option(
    "--corpus",
    required=True,
    help="Corpus spec: coco:PATH, cc:PATH, laion:GLOB, jsonl:PATH, text:PATH.",
)
@click.option(
    "--out", required=True, type=click.Path(path_type=Path), help="Output folder of seen tables."
)
@engine_options("Worker processes (local pool or Dask LocalCluster).")
@click.option(
    "--shard-size",
    default=50_000,
    show_default=True,
    help="Captions per shard (memory bound, resume unit).",
)
@click.option("--model", default=None, help="spaCy pipeline name or folder.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def parse_corpus_cmd(
    corpus: str,
    out: Path,
    engine: str,
    workers: int,
    scheduler: str | None,
    shard_size: int,
    model: str | None,
    quiet: bool,
) -> None:
    """Parse a training corpus into seen tables (atoms, compounds, bindings + manifest)."""
    from crepe_datasets.builders.engines import make_engine
    from crepe_datasets.builders.seen_build import build_seen_tables

    if scheduler and engine != "dask":
        raise CrepeInputError("--scheduler needs --engine dask.")
    with make_engine(engine, workers, scheduler) as eng:
        manifest = build_seen_tables(
            corpus, out, eng, shard_size=shard_size, model=model, progress=not quiet
        )
    c = manifest["counts"]
    click.echo(
        f"{c['records_read']:,} records read, {c['captions_parsed']:,} captions parsed "
        f"({c['duplicates_within_shard']:,} duplicates parsed once), {c['shards']} shards "
        f"({c['shards_skipped_on_resume']} already done) -> {out}"
    )
    for name, rows in manifest["tables"].items():
        click.echo(f"  {name}: {rows:,} rows")
    for stage, reasons in manifest["drops"].items():
        for reason, n in reasons.items():
            click.echo(f"  dropped ({stage}) {reason}: {n:,}")
    for reason, n in manifest["cleaning"].items():
        click.echo(f"  cleaned {reason}: {n:,}")
    for stage, reasons in manifest.get("repairs", {}).items():
        for reason, n in reasons.items():
            click.echo(f"  repaired ({stage}) {reason}: {n:,}")


@checked_output("out", kind="file", inputs=("gold",))
@click.command("parser")
@click.option("--gold", required=True, type=click.Path(path_type=Path), help="FACTUAL-format CSV.")
@click.option(
    "--out",
    required=True,
    type=click.Path(path_type=Path),
    help="Output JSON (scores + per-caption errors).",
)
@click.option("--model", default=None, help="spaCy pipeline name or folder.")
def validate_parser_cmd(gold: Path, out: Path, model: str | None) -> None:
    """Precision/recall/F1 of the caption parser against FACTUAL gold."""
    from crepe_datasets.infra.provenance import DropLog, write_json_atomic
    from crepe_datasets.scenegraph.parser import CaptionParser
    from crepe_datasets.validation.factual import read_factual
    from crepe_datasets.validation.parser_scores import score_graphs

    drops = DropLog()
    rows = read_factual(gold, drops)
    if not rows:
        raise CrepeInputError(f"{gold} holds no usable FACTUAL rows.")
    parser = CaptionParser(model=model)
    scores = score_graphs(parser.parse([r.caption for r in rows]), rows)
    report = {
        "gold": str(gold),
        "parser_version": parser.version,
        "spacy_model": parser.model_version,
        "drops": drops.to_dict(),
        **scores.to_dict(),
    }
    write_json_atomic(out, report)
    click.echo(scores.table(f"{gold} ({len(rows):,} captions)"))
    click.echo(f"-> {out} ({len(scores.errors):,} captions with errors listed)")


COMMANDS = [parse_cmd, parse_corpus_cmd]
VALIDATE_COMMANDS = [validate_parser_cmd]
