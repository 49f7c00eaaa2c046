"""Every board shows each seat's number with its name: moves name seats by number (``p R2>1``, ``panic A5P>1``)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from divedeck.engine import Match
from divedeck.tui.renderers import render

NAMES = ["Ana", "Ben", "Cy"]


def board(game: str, options: dict[str, object], seat: int | None, names: list[str]) -> list[str]:
    match = Match.start(game, options, 4)
    console = Console(file=io.StringIO(), width=140, color_system=None)
    console.print(render(game, match.game.view(match.state, seat), names))
    return console.file.getvalue().splitlines()  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["snorkeling", "hold-your-breath"])
@pytest.mark.parametrize("seat", [0, None])
def test_each_seats_row_starts_with_its_number_and_name(game: str, seat: int | None) -> None:
    lines = board(game, {"num_players": 3}, seat, NAMES)
    for number, name in enumerate(NAMES):
        assert any(line.lstrip().startswith(f"{number + 1} {name}") for line in lines), (number, lines)


def test_bermuda_names_who_holds_their_breath_with_their_seat_number() -> None:
    match = Match.start("bermuda", {"num_players": 2}, 4)
    match.act(1, match.game.at(match.game.parse_action("hold"), 10))
    console = Console(file=io.StringIO(), width=140, color_system=None)
    console.print(render("bermuda", match.game.view(match.state, 0), ["you", "diver"]))
    assert "Holding their breath: 2 diver" in console.file.getvalue()  # type: ignore[attr-defined]
