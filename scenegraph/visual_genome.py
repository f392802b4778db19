"""Readers of the official Visual Genome files (v1.0, v1.2, v1.4), streamed where files are large.

=====================================  =================================================
file                                   reader
=====================================  =================================================
``scene_graphs.json``                  :func:`iter_scene_graphs` → :class:`SceneGraph`
``objects.json``                       :func:`iter_objects` → SceneGraph (objects only)
``attributes.json``                    :func:`iter_attributes` → SceneGraph (objects)
``relationships.json``                 :func:`iter_relationships` → SceneGraph
``region_descriptions.json``           :func:`iter_regions` → :class:`Region`
``image_data.json``                    :func:`read_image_data` → ``{id: ImageInfo}``
``object_alias.txt`` …                 :func:`read_aliases` → ``{alias: canonical}``
``*synsets.json``                      :func:`read_synsets` → ``{name: synset}``
=====================================  =================================================

Large files are read with ``ijson`` (C backend when available, see :data:`IJSON_BACKEND`), so
peak memory is bounded by one image's record. Truncated or corrupt JSON raises one
:class:`~crepe_datasets.infra.errors.CrepeInputError` naming the file and byte position; malformed
records are counted skips in the :class:`~crepe_datasets.infra.provenance.DropLog`.
"""

from __future__ import annotations

from crepe_datasets.infra.jsonstream import BACKEND as IJSON_BACKEND
from crepe_datasets.scenegraph.vg.annotations import (
    iter_attributes,
    iter_objects,
    iter_relationships,
)
from crepe_datasets.scenegraph.vg.images import ImageInfo, read_image_data
from crepe_datasets.scenegraph.vg.lexical import read_aliases, read_synsets
from crepe_datasets.scenegraph.vg.regions import Region, iter_regions
from crepe_datasets.scenegraph.vg.scene_graphs import iter_scene_graphs

__all__ = [
    "IJSON_BACKEND",
    "ImageInfo",
    "Region",
    "iter_attributes",
    "iter_objects",
    "iter_regions",
    "iter_relationships",
    "iter_scene_graphs",
    "read_aliases",
    "read_image_data",
    "read_synsets",
]
