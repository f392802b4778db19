"""Visual Genome readers, one file type per module; :mod:`scenegraph.visual_genome` re-exports them."""
