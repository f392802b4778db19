"""crepe-captioning: compositional splits of COCO captions (systematicity, productivity, substitutivity)."""
