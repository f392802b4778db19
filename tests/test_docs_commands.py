"""Every command written in the README and the docs runs as written: its `--help`, its options.

The shell blocks of ``README.md`` and ``docs/**/*.md`` (fenced blocks without a language, or
marked ``bash``/``sh``/``shell``/``console``) are read line by line, ``\\`` continuations joined and
comments removed. Each ``crepe ...`` command is resolved through the real command line
(``crepe_datasets.scripts.cli``): its subcommand path must exist, ``crepe <path> --help`` must exit
0, and every option written after it must appear in that help; the options of the dataset pages'
parameter tables must belong to the page's commands; every command of the command line must be
written in ``docs/cli.md``; each ``make TARGET`` must name a target of the Makefile; and the short
complete commands (:data:`RUNNABLE`) run as written, with ``--out`` in a temporary folder. A
renamed command or option therefore breaks this test.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from crepe_datasets.scripts.cli import cli
from tests.conftest import REPO_ROOT, require_shared

SHELL_LANGUAGES = {"", "bash", "sh", "shell", "console"}
FENCE = re.compile(r"^(```+|~~~+)\s*([\w-]*)")
INLINE = re.compile(r"`([^`]+)`")
CLOSING_FENCE = re.compile(r"```+|~~~+")
OPTION = re.compile(r"^--?[A-Za-z][\w-]*$")
GLOBAL_OPTIONS = {"-v", "--verbose", "-h", "--help", "--version"}


@dataclass(frozen=True)
class Written:
    """One command as written in a documentation file (a shell line, or an inline code span)."""

    where: str
    words: tuple[str, ...]
    inline: bool = False

    def __str__(self) -> str:
        return f"{self.where}: {' '.join(self.words)}"


def doc_files() -> list[Path]:
    """The README and every page of the documentation site."""
    return [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").rglob("*.md"))]


def shell_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, logical line) of the file's shell blocks, continuations joined."""
    out: list[tuple[int, str]] = []
    block: str | None = None  # "shell" or "other" inside a fenced block
    pending, start = "", 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.strip()
        if block is None:
            match = FENCE.match(stripped)
            if match:
                block = "shell" if match.group(2).lower() in SHELL_LANGUAGES else "other"
            continue
        if CLOSING_FENCE.fullmatch(stripped):
            block = None
            continue
        if block == "other":
            continue
        text = re.sub(r"(^|\s)#.*$", "", line).rstrip()
        if not pending:
            start = number
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        logical = (pending + text).strip()
        pending = ""
        if logical:
            out.append((start, logical))
    return out


def prose_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, line) of the file outside fenced blocks."""
    out, inside = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line.strip()):
            inside = not inside
            continue
        if not inside:
            out.append((number, line))
    return out


def written_commands(program: str) -> list[Written]:
    """Every command of the docs' shell blocks, and of inline code spans, starting with ``program``."""
    found = []
    for path in doc_files():
        name = str(path.relative_to(REPO_ROOT))
        for number, line in shell_lines(path):
            words = tuple(line.split())
            if words and words[0] == program:
                found.append(Written(f"{name}:{number}", words[1:]))
        for number, line in prose_lines(path):
            for span in INLINE.findall(line):
                words = tuple(span.split())
                if words and words[0] == program:
                    found.append(Written(f"{name}:{number}", words[1:], inline=True))
    return found


def table_options(path: Path) -> list[tuple[int, str]]:
    """(line number, option) of the options written in the first cell of the page's tables."""
    out = []
    for number, line in prose_lines(path):
        cells = line.split("|")
        if line.startswith("|") and len(cells) > 2:
            out += [(number, o) for o in re.findall(r"`(--[a-z][\w-]*)", cells[1])]
    return out


def bare(word: str) -> str:
    """A word without the brackets, parentheses and bars of a usage line, nor an ``=value``."""
    return word.strip("[]()|").split("=", 1)[0]


def resolve(words: tuple[str, ...]) -> tuple[list[str], click.Command, list[str]]:
    """Split ``words`` into the subcommand path, the command it names, and the rest."""
    command: click.Command = cli
    path: list[str] = []
    rest = list(words)
    while isinstance(command, click.Group):
        while rest and bare(rest[0]) in GLOBAL_OPTIONS:
            rest.pop(0)
        if not rest or rest[0] == "...":
            break
        name = bare(rest[0])
        sub = command.commands.get(name)
        if sub is None:
            known = ", ".join(sorted(command.commands))
            raise AssertionError(f"`crepe {' '.join(path)}` has no subcommand {name!r} ({known})")
        path.append(name)
        command = sub
        rest.pop(0)
    return path, command, rest


def leaf_commands(group: click.Group = cli, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every runnable subcommand path of the command line."""
    out = []
    for name, sub in sorted(group.commands.items()):
        if isinstance(sub, click.Group):
            out += leaf_commands(sub, (*prefix, name))
        else:
            out.append((*prefix, name))
    return out


CREPE = written_commands("crepe")
MAKE = written_commands("make")


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


def test_the_docs_write_commands():
    assert len(CREPE) >= 40
    assert {w.where.split(":")[0] for w in CREPE} >= {"README.md", "docs/cli.md"}


@pytest.mark.parametrize("written", CREPE, ids=str)
def test_crepe_command_help_runs_and_knows_every_option(written: Written, runner: CliRunner):
    path, command, rest = resolve(written.words)
    if not written.inline:
        assert not isinstance(command, click.Group), f"{written}: names a group, not a command"
    result = runner.invoke(cli, [*path, "--help"], prog_name="crepe")
    assert result.exit_code == 0, (
        f"{written}: `crepe {' '.join(path)} --help` failed\n{result.output}"
    )
    options = {bare(w) for w in rest if OPTION.match(bare(w))}
    missing = sorted(
        o for o in options if not re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", result.output)
    )
    assert not missing, f"{written}: `crepe {' '.join(path)}` has no option {', '.join(missing)}"


def test_every_command_of_the_cli_is_documented_in_the_cli_page():
    documented = {tuple(resolve(w.words)[0]) for w in CREPE if w.where.startswith("docs/cli.md")}
    assert sorted(set(leaf_commands()) - documented) == []


@pytest.mark.parametrize("written", MAKE, ids=str)
def test_make_targets_exist(written: Written):
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    words = shlex.split(" ".join(written.words))
    targets = [w for w in words if not w.startswith("-") and "=" not in w]
    for target in targets:
        assert re.search(rf"^{re.escape(target)}:", makefile, re.M), (
            f"{written}: no target {target}"
        )


@pytest.mark.parametrize(
    "page", sorted((REPO_ROOT / "docs" / "datasets").glob("*.md")), ids=lambda p: p.name
)
def test_parameter_tables_name_options_of_the_page_commands(page: Path, runner: CliRunner):
    name = str(page.relative_to(REPO_ROOT))
    helps = ""
    for written in CREPE:
        if written.where.startswith(name + ":") and not written.inline:
            helps += runner.invoke(cli, [*resolve(written.words)[0], "--help"]).output
    assert helps, f"{name}: no crepe command written in a shell block"
    missing = [
        f"{name}:{number}: {option}"
        for number, option in table_options(page)
        if not re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", helps)
    ]
    assert missing == []


# Short commands that need no placeholder filled in and no optional part chosen ([...], a | b), and
# run in seconds: run them as written, from the repository root, with --out in a temporary folder.
RUNNABLE = {("build", "bindsplit-holdout"), ("build", "vg-regions")}
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*$")


def _runnable() -> list[Written]:
    out, seen = [], set()
    for written in CREPE:
        if written.inline or written.words in seen:
            continue
        path, _, rest = resolve(written.words)
        synopsis = any(PLACEHOLDER.match(bare(w)) or bare(w) != w.split("=", 1)[0] for w in rest)
        if tuple(path) in RUNNABLE and not synopsis:
            seen.add(written.words)
            out.append(written)
    return out


@pytest.mark.parametrize("written", _runnable(), ids=str)
def test_short_commands_run_as_written(written: Written, tmp_path, monkeypatch):
    from crepe_datasets.scripts.cli import main

    words = list(written.words)
    for i, word in enumerate(words):
        if "../shared/data/" in word:
            require_shared(*word.split("../shared/data/", 1)[1].split("/"))
        if word == "--out":
            words[i + 1] = str(tmp_path / "out")
    monkeypatch.chdir(REPO_ROOT)
    assert main(words) == 0, f"{written}: failed"
    assert (tmp_path / "out" / "build_manifest.json").is_file()
