"""The LLM caption prompt of SPEC §3.3: a graph written as two lines, plus few-shot examples.

A subgraph is shown to the model as::

    Objects: tall, blue boy; green grass; window1; window2
    Relations: boy on grass; window1 above window2

* Objects are listed in graph order, separated by "; ", each prefixed by its attributes
  (in graph order, separated by ", ": Visual Genome attributes and names often have several
  words, so plain spaces would hide where one ends: "white, switched off monitor"). Names that occur more than once get numeric suffixes in graph order
  ("window1", "window2"); unique names get none. Relations use the same (suffixed) names.
* Relations are separated by "; "; a graph without relations gets ``Relations: none``.
* Few-shot examples are data: ``fewshot/complexity_<n>.json`` holds five hand-written
  graph → caption pairs for each complexity n = 5..12. Each example is stored as a graph (not as
  text), so the example lines are rendered by the same code as the query lines.

The chat layout is a system instruction, then one user/assistant turn per example, then the
query as the last user turn. Choices the paper leaves open (it used a completion model,
text-davinci-002): the instruction text, the chat layout, and the separators.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from crepe_datasets.scenegraph.types import SceneGraph

FEWSHOT_DIR = Path(__file__).resolve().parent / "fewshot"
FEWSHOT_COMPLEXITIES = tuple(range(5, 13))
EXAMPLES_PER_PROMPT = 5
ITEM_SEPARATOR = "; "
ATTRIBUTE_SEPARATOR = ", "

SYSTEM_PROMPT = (
    "You write one short, fluent English caption for an image region described by a scene "
    "graph. Mention every listed object with all of its attributes and every listed relation, "
    "and add nothing that is not listed. Numbers after object names (window1, window2) only tell "
    'objects with the same name apart: never write them in the caption. A word marked "not" '
    'must stay negated ("not yellow vase": a vase that is not yellow; "boy not on grass": '
    "a boy not on the grass). Answer with the caption only, on one line."
)


@dataclass(frozen=True)
class FewShotExample:
    """One hand-written example: a graph and a faithful caption of it."""

    graph: SceneGraph
    caption: str


def display_names(graph: SceneGraph) -> dict[int, str]:
    """Object id → name shown in the prompt; repeated names get suffixes 1, 2, … in graph order."""
    totals = Counter(o.name for o in graph.objects)
    seen: Counter[str] = Counter()
    out: dict[int, str] = {}
    for obj in graph.objects:
        if totals[obj.name] > 1:
            seen[obj.name] += 1
            out[obj.id] = f"{obj.name}{seen[obj.name]}"
        else:
            out[obj.id] = obj.name
    return out


def objects_line(graph: SceneGraph) -> str:
    """``Objects: …``: every object prefixed by its attributes."""
    names = display_names(graph)
    items = [
        f"{ATTRIBUTE_SEPARATOR.join(o.attributes)} {names[o.id]}" if o.attributes else names[o.id]
        for o in graph.objects
    ]
    return "Objects: " + ITEM_SEPARATOR.join(items)


def relations_line(graph: SceneGraph) -> str:
    """``Relations: …``: every relation as "subject relationship object" (``none`` if empty)."""
    names = display_names(graph)
    items = [
        f"{names[r.subject]} {r.predicate} {names[r.object]}"
        for r in graph.relationships
        if r.subject in names and r.object in names
    ]
    return "Relations: " + (ITEM_SEPARATOR.join(items) if items else "none")


def graph_text(graph: SceneGraph) -> str:
    """The two prompt lines of a graph."""
    return f"{objects_line(graph)}\n{relations_line(graph)}"


def suffixed_names(graph: SceneGraph) -> list[str]:
    """The numbered display names of a graph (those must not leak into a caption)."""
    names = display_names(graph)
    return sorted({names[o.id] for o in graph.objects if names[o.id] != o.name})


def fewshot_path(complexity: int) -> Path:
    return FEWSHOT_DIR / f"complexity_{complexity}.json"


@functools.lru_cache(maxsize=32)
def load_fewshot(complexity: int) -> tuple[FewShotExample, ...]:
    """The few-shot examples for a complexity; sizes outside 5..12 use the nearest file.

    Raises:
        FileNotFoundError: when the data file of that complexity is missing (a packaging bug).
    """
    n = min(max(complexity, FEWSHOT_COMPLEXITIES[0]), FEWSHOT_COMPLEXITIES[-1])
    data = json.loads(fewshot_path(n).read_text(encoding="utf-8"))
    return tuple(
        FewShotExample(SceneGraph.from_dict(ex["graph"]), str(ex["caption"]))
        for ex in data["examples"][:EXAMPLES_PER_PROMPT]
    )


def fewshot_checksum() -> str:
    """SHA-256 over every few-shot file and the system prompt (for the build manifest)."""
    digest = hashlib.sha256(SYSTEM_PROMPT.encode())
    for n in FEWSHOT_COMPLEXITIES:
        digest.update(fewshot_path(n).read_bytes())
    return digest.hexdigest()


def build_messages(graph: SceneGraph) -> list[dict[str, str]]:
    """The chat messages asking for a caption of ``graph`` (few-shot by its complexity)."""
    messages = [{"role": "system", "content": SYSTEM_PROMPT}]
    for example in load_fewshot(graph.complexity()):
        messages.append({"role": "user", "content": graph_text(example.graph)})
        messages.append({"role": "assistant", "content": example.caption})
    messages.append({"role": "user", "content": graph_text(graph)})
    return messages
