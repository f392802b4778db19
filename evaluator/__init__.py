"""The thin evaluator: CLIP-style models (open_clip, HuggingFace) scored on built datasets,
with per-sample correctness, significance tests and result records that never overwrite."""
