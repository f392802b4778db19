"""Say why nothing usable was read: the largest drop reasons, in words a user can act on.

Used when a build or a reader ends with nothing to write, so that the error names the cause
(``object_bad_box`` 90 times: box coordinates missing, not numbers, NaN or infinite) instead of
"every split is empty".
"""

from __future__ import annotations

from crepe_datasets.infra.provenance import DropLog

#: Plain-words meaning of the commonest drop reasons (others are shown by their name only).
HINTS: dict[str, str] = {
    "object_bad_box": "box coordinates missing, not numbers, NaN or infinite",
    "object_degenerate_box": "box width or height not positive",
    "object_outside_image": "box entirely outside its image",
    "object_missing_name": "object without a name",
    "object_empty_name": "object name empty",
    "object_bad_id": "object id missing or not an integer",
    "region_bad_box": "region coordinates missing, not numbers, NaN or infinite",
    "region_degenerate_box": "region width or height not positive",
    "region_missing_phrase": "region without a phrase",
    "image_missing_id": "image record without an id",
    "image_bad_objects": "image record without an objects list",
    "image_no_objects": "image with no usable object",
    "image_duplicate_id": "image id repeated",
    "image_not_an_object": "top-level record is not a JSON object",
    "relationship_missing_object": "relationship end not among the image's objects",
    "invalid_utf8": "bytes that are not UTF-8 (or U+FFFD)",
    "empty_after_cleaning": "nothing left once control/invisible characters are removed",
    "text_too_long": "text longer than the reader accepts",
    "missing_column": "the row lacks the caption column: wrong columns or separator",
    "missing_caption": "caption missing or null",
    "not_a_string": "caption is not text",
    "empty_caption": "caption empty",
    "invalid_json": "line is not JSON",
    "no_letters": "captions without a letter: a number or id column read as the caption",
    "caption_is_url": "the caption column holds URLs: columns swapped, or a header row missing",
    "non_english": "caption not in English",
}

#: Reasons that follow from another drop (listed after the causes).
CONSEQUENCES = frozenset(
    {"relationship_missing_object", "image_no_objects", "image_empty", "image_bad_relationships"}
)


def explain_drops(drops: DropLog, limit: int = 4) -> str:
    """One clause naming the largest drop reasons with their counts (and hints), or why none.

    Example:
        >>> log = DropLog()
        >>> log.drop("vg_scene_graphs", "object_bad_box", n=90)
        >>> explain_drops(log)
        'dropped: 90 × vg_scene_graphs/object_bad_box (box coordinates missing, not numbers, NaN or infinite)'
    """
    if not drops.counts:
        return "no record was dropped, so the inputs hold no records at all"
    parts = []
    # Causes first: a relationship or image lost because its objects were dropped is a consequence.
    ranked = sorted(drops.counts.items(), key=lambda kv: (kv[0][1] in CONSEQUENCES, -kv[1]))
    for (stage, reason), n in ranked[:limit]:
        hint = HINTS.get(reason)
        parts.append(f"{n:,} × {stage}/{reason}" + (f" ({hint})" if hint else ""))
    rest = len(drops.counts) - limit
    more = f"; and {rest} other reason(s) in the drop log" if rest > 0 else ""
    return "dropped: " + ", ".join(parts) + more
