"""The ``divedeck`` command group, its consoles and its entry point (the commands register themselves on
``app`` in the modules beside this one)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from typer.core import TyperGroup

from .. import __version__
from ..engine.errors import DivedeckError

OUTPUT_FLAGS = ("--json", "--csv")


def with_output_values(args: list[str]) -> list[str]:
    """``--json`` and ``--csv`` take an optional file: given alone (last, or before another option) they mean
    ``-``, standard output."""
    out_args: list[str] = []
    for index, arg in enumerate(args):
        out_args.append(arg)
        if arg in OUTPUT_FLAGS:
            following = args[index + 1] if index + 1 < len(args) else None
            if following is None or (following.startswith("-") and following != "-"):
                out_args.append("-")
    return out_args


class DivedeckGroup(TyperGroup):
    """The command group, reading ``--json``/``--csv`` without a file as standard output."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        return super().make_context(info_name, with_output_values(list(args)), parent, **extra)


app = typer.Typer(
    cls=DivedeckGroup,
    help="divedeck: four small underwater card games, to play, simulate and study.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)


def _show_version(value: bool) -> None:
    if value:
        out.print(f"divedeck {__version__}")
        raise typer.Exit()


@app.callback()
def _main_options(
    version: Annotated[bool, typer.Option("--version", help="Print divedeck's version and stop.", is_eager=True,
                                          callback=_show_version)] = False,
) -> None:
    """divedeck: four small underwater card games, to play, simulate and study."""


def main() -> None:
    try:
        app()
    except DivedeckError as error:
        err.print(f"error: {error}", markup=False, highlight=False, soft_wrap=True)
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        err.print("stopped")
        raise SystemExit(130) from None
