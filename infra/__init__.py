"""Infrastructure every layer uses; the bottom layer, importing nothing of the toolkit's.

* :mod:`~crepe_datasets.infra.provenance`: the drop log, checksums, atomic writes, cache folders.
* :mod:`~crepe_datasets.infra.errors`: the errors a command reports as one sentence.
* :mod:`~crepe_datasets.infra.explain`: a drop log explained in words.
* :mod:`~crepe_datasets.infra.outputs`: the one ``--out`` check; :mod:`~crepe_datasets.infra.leftovers`:
  owned temporary names and umask modes.
* :mod:`~crepe_datasets.infra.jsonstream`: streamed JSON; :mod:`~crepe_datasets.infra.hygiene`:
  text cleaning of input captions.
* :mod:`~crepe_datasets.infra.resources`: spaCy and WordNet; :mod:`~crepe_datasets.infra.version`.
"""
