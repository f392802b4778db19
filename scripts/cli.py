"""The `crepe` command line: one entry point, subcommands discovered from crepe_datasets.scripts.commands."""

from __future__ import annotations

import errno
import importlib
import logging
import pkgutil
import sys
import time

import click

import crepe_datasets.scripts.commands as commands_pkg
from crepe_datasets.infra.errors import CrepeInputError, MissingResourceError
from crepe_datasets.infra.provenance import mark_command_start
from crepe_datasets.infra.version import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="crepe")
@click.option("-v", "--verbose", is_flag=True, help="Log debug messages.")
def cli(verbose: bool) -> None:
    """Build, validate, publish and evaluate compositionality benchmarks."""
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )


@cli.group()
def build() -> None:
    """Build a dataset (writes parquet shards, a card and a build manifest)."""


@cli.group()
def validate() -> None:
    """Validate parsers and built datasets."""


def _register() -> None:
    for info in sorted(pkgutil.iter_modules(commands_pkg.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands_pkg.__name__}.{info.name}")
        for cmd in getattr(module, "COMMANDS", []):
            cli.add_command(cmd)
        for cmd in getattr(module, "BUILD_COMMANDS", []):
            build.add_command(cmd)
        for cmd in getattr(module, "VALIDATE_COMMANDS", []):
            validate.add_command(cmd)


_register()

# Errors of the user's environment (permissions, a full or read-only disk): one line, no traceback.
USER_OS_ERRORS = frozenset(
    {
        errno.EACCES,
        errno.EPERM,
        errno.EROFS,
        errno.ENOSPC,
        errno.EDQUOT,
        errno.EISDIR,
        errno.ENOTDIR,
    }
)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; user-fixable errors print one line and exit with status 2."""
    mark_command_start(time.time())
    try:
        status = cli.main(args=argv, prog_name="crepe", standalone_mode=False)
    except (CrepeInputError, MissingResourceError) as err:
        click.echo(f"error: {err}", err=True)
        return 2
    except OSError as err:
        if err.errno not in USER_OS_ERRORS:
            raise
        where = f" {err.filename}" if err.filename else ""
        click.echo(f"error: cannot write{where}: {err.strerror or err}", err=True)
        return 2
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 130
    except click.ClickException as err:
        err.show()
        return err.exit_code
    finally:
        mark_command_start(None)
    return status if isinstance(status, int) else 0


if __name__ == "__main__":
    sys.exit(main())
