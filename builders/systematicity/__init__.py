"""crepe-systematicity (SPEC §2): Visual Genome region texts split by what a training corpus has seen.

Modules: :mod:`.spelling` (spelling correction with VG's vocabulary), :mod:`.texts` (region
filter, parsing through an engine, keep rules, deduplication), :mod:`.split` (seen tables and
the SC / UC / UA split), :mod:`.negatives` (HN-ATOM and HN-COMP texts, plausibility ranking),
:mod:`.rows` (configs and columns), :mod:`.build` (the whole build).
"""
