"""`divedeck data show` and `divedeck data check`: the data files a designer edits."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .app import app, err, out
from .arguments import GameName

data_app = typer.Typer(help="Show and check the data files a designer edits: decks, treasures, word lists.",
                       no_args_is_help=True)
app.add_typer(data_app, name="data")


@data_app.command("show")
def data_show(
    game: GameName,
    option: Annotated[str | None, typer.Option("--option", help="The data file's option, for a game with several "
                                                                "(default: its only one).")] = None,
) -> None:
    """Print the game's default data file, with comments on every field: save it, edit it, check it, play it."""
    from .. import data_files

    kind = data_files.kind_of(game, option)
    sys.stdout.write(data_files.shipped_text(game, option))
    sys.stdout.flush()
    if sys.stdout.isatty():
        err.print(f"(save it with: divedeck data show {game} > my-{kind.default}; check it with: divedeck data check "
                  f"my-{kind.default}; play with it: -o {kind.option}=my-{kind.default})", markup=False, soft_wrap=True)


@data_app.command("check")
def data_check(
    file: Annotated[Path, typer.Argument(help="The data file to check.")],
    game: Annotated[str | None, typer.Option(help="The game that reads it (default: told from the file's keys).")]
    = None,
    option: Annotated[str | None, typer.Option("--option", help="The data file's option, for a game with "
                                                                "several.")] = None,
) -> None:
    """Check a data file as the game reads it: 'ok' and what it holds, or the line, the field and what is wrong."""
    from .. import data_files

    try:
        checked = data_files.check(file, game, option)
    except data_files.InvalidDataFile as error:
        err.print(f"error: {error}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    out.print(f"ok: {checked.kind.what} {file} for {checked.game}: {checked.summary}. Play with it: "
              f"-o {checked.kind.option}={file}", markup=False)
