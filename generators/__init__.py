"""Text generation and filtering over scene graphs: caption writers (template, LLM), hard
negatives (atom replacement, swap, negation) and filters (NLI entailment, masked-LM plausibility)."""
