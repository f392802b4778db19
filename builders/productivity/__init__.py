"""crepe-productivity: random-walk subgraphs of complexity 4..12 with hard negatives (SPEC §3)."""
