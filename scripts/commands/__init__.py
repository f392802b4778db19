"""Subcommands of `crepe`, one module per area.

Each module may define ``COMMANDS`` (top-level commands), ``BUILD_COMMANDS`` (under
``crepe build``) and ``VALIDATE_COMMANDS`` (under ``crepe validate``): lists of click commands.
:mod:`crepe_datasets.scripts.cli` discovers them, so adding a module adds its commands.
"""
