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
