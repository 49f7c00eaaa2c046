"""Hold your Hat's guided first game: its hints read only what each seat may know, and following them the new
player starts the turn and gives the clues, which the teammate's hinted guesses find."""

from __future__ import annotations

import random

from divedeck.engine.game import CLOCK
from divedeck.engine.registry import get_game


def test_hints_read_only_the_seats_view_and_the_player_gives_the_clues() -> None:
    game = get_game("hold-your-hat")
    guide = game.guide
    assert guide is not None
    config = game.make_config(game.with_players(dict(guide["options"]), len(guide["seats"])))
    state = game.new(config, guide["seed"])
    rng = random.Random(7)
    played: list[tuple[int, str]] = []
    now = 0
    while game.outcome(state) is None:
        assert len(played) < 500
        hints = [game.guide_hint(state, seat) for seat in range(len(guide["seats"]))]
        for seat, hint in enumerate(hints):
            # A state this seat cannot tell from the real one (every word it cannot see dealt again) gets the same
            # hint: no hint gives away a word the seat does not see.
            assert game.guide_hint(game.determinize(state, seat, rng), seat) == hint
        moving = next((seat for seat, hint in enumerate(hints) if hint and hint["notation"]), None)
        if moving is None:
            deadline = game.deadline(state)
            assert deadline is not None
            now = max(now, min(deadline, now + 1000))
            game.apply(state, CLOCK, game.tick(now))
            continue
        notation = hints[moving]["notation"]
        now += 200
        game.apply(state, moving, game.at(game.parse_action(notation), now))
        played.append((moving, notation))
    mine = {notation.split()[0] for seat, notation in played if seat == 0}
    assert {"start", "clue"} <= mine  # the new player's team starts, and the new player gives its clues
    assert any(notation.startswith("guess") for seat, notation in played if seat == 1)  # the teammate's guesses
    assert game.outcome(state) is not None
