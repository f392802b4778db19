"""Packaging: the repository's top-level folders become one import namespace, ``crepe_datasets``.

The folders stay at the root of the repository (the layout shows the architecture); this file maps
each of them, with every sub-package found inside, under ``crepe_datasets`` so that the wheel's only
top-level package is ``crepe_datasets``. Metadata, dependencies and package data are in setup.cfg.
"""

from setuptools import find_packages, setup

NAMESPACE = "crepe_datasets"
LAYERS = (
    "infra",
    "scenegraph",
    "sources",
    "generators",
    "cards",
    "validation",
    "builders",
    "evaluator",
    "scripts",
)

package_dir = {NAMESPACE: NAMESPACE}
packages = [NAMESPACE]
for layer in LAYERS:
    package_dir[f"{NAMESPACE}.{layer}"] = layer
    packages.append(f"{NAMESPACE}.{layer}")
    packages.extend(f"{NAMESPACE}.{layer}.{sub}" for sub in find_packages(layer))

setup(packages=packages, package_dir=package_dir)
