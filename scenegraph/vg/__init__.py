"""Visual Genome readers, one file type per module; :mod:`crepe_datasets.scenegraph.visual_genome` re-exports them."""
