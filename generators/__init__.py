"""Text generation and filtering over scene graphs: caption writers (template, LLM), hard
negatives (atom replacement, swap, negation), filters (NLI entailment, masked-LM plausibility),
blind baselines and the balancing of negatives against them (``balance/``) and the canonical terms and synonyms that match a negative to a counter-image (``terms.py``)."""
