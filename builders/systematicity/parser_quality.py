"""The parser's precision and recall on FACTUAL, for the card's validation section (SPEC §2.7).

The paper requires a parser quality figure because low recall moves seen captions into UC.
Two sources, the first that applies:

* ``--factual CSV``: the FACTUAL-format gold file is parsed now, with the build's parser
  (:mod:`crepe_datasets.validation.parser_scores`); the figures are exact for this build.
* otherwise the figures stored in ``data/parser_factual.json`` (measured on FACTUAL's random
  dev split by ``crepe validate parser``). They are marked ``stale`` when the stored parser
  version differs from the running parser's, and the card says so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STORED = Path(__file__).resolve().parent / "data" / "parser_factual.json"
CATEGORIES = ("objects", "attributes", "relations", "triplets")


def parser_quality(factual: str | None = None, model: str | None = None) -> dict[str, Any]:
    """Precision / recall / F1 per category, with where they come from.

    Raises:
        CrepeInputError: ``factual`` is given but holds no usable FACTUAL row.
    """
    from crepe_datasets.builders.seen_tables import worker_parser
    from crepe_datasets.infra.errors import CrepeInputError
    from crepe_datasets.scenegraph.parser.rules import PARSER_VERSION

    parser = worker_parser(model)
    name = f"{PARSER_VERSION} on spaCy {parser.model_version}"
    if factual:
        from crepe_datasets.infra.provenance import DropLog
        from crepe_datasets.validation.factual import read_factual
        from crepe_datasets.validation.parser_scores import score_graphs

        rows = read_factual(factual, DropLog())
        if not rows:
            raise CrepeInputError(f"--factual {factual} holds no usable FACTUAL row.")
        scores = score_graphs(parser.parse([r.caption for r in rows]), rows).to_dict(False)
        out = {
            "source": f"measured at build time on {Path(factual).name} ({len(rows):,} captions)",
            "stale": False,
        }
        out.update(
            {c: {k: scores[c][k] for k in ("precision", "recall", "f1")} for c in CATEGORIES}
        )
        out["exact_graph_rate"] = scores["exact_graph_rate"]
    else:
        stored = json.loads(STORED.read_text(encoding="utf-8"))
        out = {
            "source": f"stored figures: {stored['gold']}",
            "stale": stored["parser_version"] != PARSER_VERSION,
            "stored_parser_version": stored["parser_version"],
        }
        out.update({c: stored[c] for c in CATEGORIES})
        out["exact_graph_rate"] = stored["exact_graph_rate"]
    out["parser"] = name
    return out
