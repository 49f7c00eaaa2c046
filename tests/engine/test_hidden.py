"""An action's private fields (``private_fields``) reach its actor alone in the text of a move, for every game:
the engine's ``public_action`` writes them as ``?`` for every other seat and a spectator."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from divedeck.engine import get_game
from divedeck.engine.game import Game
from divedeck.engine.hidden import HIDDEN, concealed, private_parts


@dataclass(frozen=True, slots=True)
class Peek:
    card: str
    target: int
    note: str | None = None
    private_fields: ClassVar[tuple[str, ...]] = ("card", "note")

    def __str__(self) -> str:
        return f"peek {self.card}>{self.target}" + (f" {self.note}" if self.note is not None else "")


def test_a_copy_for_another_seat_holds_hidden_in_each_private_field_that_holds_something() -> None:
    action = Peek("K3", 2)
    assert private_parts(action) == {"card": "K3"}  # a blank field hides nothing
    assert concealed(action) == Peek(HIDDEN, 2) and str(concealed(action)) == "peek ?>2"
    assert str(concealed(Peek("K3", 2, "x"))) == "peek ?>2 ?"
    assert concealed("end") == "end"  # an action without private fields is itself


@pytest.mark.parametrize(("name", "notation", "other"), [
    ("hold-your-breath", "gasp S10X", "gasp ?"),
    ("hold-your-breath", "lose S10P", "lose ?"),
    ("hold-your-hat", 'guess "sea horse" @1200', "guess ? @1200"),
    ("snorkeling", "c Y3", "c Y3"),
])
def test_every_game_writes_a_private_field_as_unknown_for_everyone_but_the_actor(name: str, notation: str,
                                                                                 other: str) -> None:
    """Issue 13 item 1: every other seat and spectator read ``gasp S10X`` and ``lose S10P`` as the move text."""
    game = get_game(name)
    action = game.parse_action(notation)
    assert game.public_action(action, 1, 1) == notation
    assert game.public_action(action, 0, 1) == other
    assert game.public_action(action, None, 1) == other


def test_a_game_declares_private_fields_instead_of_writing_its_own_public_action() -> None:
    with pytest.raises(TypeError, match="private_fields"):
        class Leaky(Game[Any, Any]):  # noqa: F841 - defining the class is what is refused
            def public_action(self, action: Any, seat: int | None, actor: int) -> str:  # type: ignore[misc]
                return str(action)


def test_divedeck_replay_writes_a_face_down_card_for_its_owner_alone(tmp_path: Any) -> None:
    """Issue 13 item 1: ``divedeck replay`` printed ``68. seat 0: gasp S5X`` to spectators and every ``--seat``."""
    import random

    from typer.testing import CliRunner

    from divedeck.cli import app
    from divedeck.engine import Match

    game = get_game("hold-your-breath")
    for seed in range(20):
        match = Match.start(game, {"num_players": 2}, seed)
        rng = random.Random(seed)
        while game.outcome(match.state) is None:
            seat = min(game.actors(match.state))
            match.act(seat, rng.choice(game.legal_actions(match.state, seat)))
        gasps = [(seat, str(action)) for seat, action in match.actions if str(action).startswith("gasp")]
        if gasps:
            break
    assert gasps, "no breath penalty in twenty games"
    match.save(tmp_path / "game.json")
    owner, move = gasps[0]
    runner = CliRunner()
    for seat, shown in ((None, False), (1 - owner, False), (owner, True)):
        args = ["replay", str(tmp_path / "game.json")] + ([] if seat is None else ["--seat", str(seat)])
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        assert (f"seat {owner}: {move}" in result.output) == shown
        assert f"seat {owner}: gasp ?" in result.output or shown
