"""Dataset metadata that ships with the data: build manifest, card rendering, publishing."""
