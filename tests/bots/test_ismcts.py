"""ISMCTS and the difficulty levels: legal, reproducible from a seed, blind to hidden cards, stronger than random.

Budgets are tiny (tens of iterations) so the whole file stays fast; strength at real budgets is measured with
``divedeck tournament`` (docs/bots.md).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

import pytest

from divedeck.bots import bot_names, decide, make_bot
from divedeck.bots import levels as levels_module
from divedeck.bots.base import RandomBot
from divedeck.bots.evaluation import evaluator_for, win_chances
from divedeck.bots.ismcts import ISMCTSBot, bot_policy
from divedeck.bots.registry import bot_descriptions
from divedeck.engine import game_names, get_game
from divedeck.games.snorkeling import GreedyBot

SNORKELING = get_game("snorkeling")
TURN_BASED = [name for name in game_names() if not get_game(name).realtime]
REALTIME = [name for name in game_names() if get_game(name).realtime]
FACE_ORDER = SNORKELING.make_config({}).table.face_by_label


def uniform(game: Any, state: Any) -> Sequence[float]:
    """An evaluator that knows nothing: it only makes rollouts short."""
    players = len(game.view(state, None)["hand_sizes"])
    return [1.0 / players] * players


@pytest.fixture
def tiny_hard(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hard`` with a small iteration budget and no time cap, so it is fast and deterministic in tests."""
    monkeypatch.setattr(levels_module, "HARD_SECONDS", None)
    monkeypatch.setattr(levels_module, "ITERATIONS_OVERRIDE", 24)


def play(game_name: str, options: dict[str, Any], seed: int, bots: list[Any]) -> tuple[list[str], Any]:
    """A whole game; every action is checked against the legal ones. Returns the log and the outcome."""
    game = get_game(game_name)
    state = game.new(game.make_config(options), seed)
    log = []
    while game.outcome(state) is None:
        for seat in sorted(game.actors(state)):
            action = decide(bots[seat], game, state, seat)
            assert action in game.legal_actions(state, seat), f"seat {seat} chose {action!r}"
            game.apply(state, seat, action)
            log.append(game.format_action(action))
    return log, game.outcome(state)


def a_choice(options: dict[str, Any], seed: int) -> tuple[Any, int]:
    """A Snorkeling state, reached by random moves from a new game, where the seat to move has a real choice."""
    state = SNORKELING.new(SNORKELING.make_config(options), seed)
    mover = RandomBot(seed)
    while True:
        seat = min(SNORKELING.actors(state))
        if len(SNORKELING.legal_actions(state, seat)) > 2:
            return state, seat
        SNORKELING.apply(state, seat, decide(mover, SNORKELING, state, seat))


def test_levels_are_offered_for_turn_based_games_and_hard_only_there() -> None:
    for name in TURN_BASED:
        assert bot_names(name)[:3] == ["easy", "medium", "hard"]
        assert {"easy", "medium", "hard"} <= set(bot_descriptions(name)) <= set(bot_names(name))
    for name in REALTIME:  # hard is a search there only where a game names a timed bot of its own for it
        assert ("hard" in bot_names(name)) == (get_game(name).levels.hard is not None)
    assert isinstance(make_bot("snorkeling", "medium", 1), GreedyBot)
    assert isinstance(make_bot("snorkeling", "hard", 1), ISMCTSBot)


@pytest.mark.parametrize("options", [{"num_players": 2, "target_score": 6},
                                     {"num_players": 4, "expert_diving": True}],
                         ids=["2p", "4p-expert"])
def test_ismcts_plays_only_legal_actions(options: dict[str, Any]) -> None:
    players = options["num_players"]
    bots: list[Any] = [ISMCTSBot(seat, iterations=12, cutoff=10, evaluator=uniform) for seat in range(players)]
    log, outcome = play("snorkeling", options, 3, bots)
    assert outcome is not None and len(log) > 20


def test_ismcts_plays_only_legal_actions_in_hold_your_breath() -> None:
    """Several seats may act at once there (the Kraken's victims): the search acts for the lowest."""
    if "hold-your-breath" not in TURN_BASED:
        pytest.skip("Hold Your Breath! is not registered")
    bots: list[Any] = [ISMCTSBot(seat, iterations=6, cutoff=6, evaluator=uniform) for seat in range(3)]
    _, outcome = play("hold-your-breath", {"num_players": 3}, 5, bots)
    assert outcome is not None


def test_full_rollouts_and_heuristic_rollouts_also_work() -> None:
    state, seat = a_choice({"num_players": 2}, 8)
    for bot in (ISMCTSBot(1, iterations=10), ISMCTSBot(1, iterations=10, rollout=bot_policy(GreedyBot, 1))):
        assert decide(bot, SNORKELING, state, seat) in SNORKELING.legal_actions(state, seat)
        assert bot.last.iterations == 10 and bot.last.nodes > 1


def test_a_time_budget_stops_the_search() -> None:
    state, seat = a_choice({"num_players": 4}, 2)
    bot = ISMCTSBot(0, iterations=None, seconds=0.05, early_stop=False)
    decide(bot, SNORKELING, state, seat)
    assert bot.last.stopped == "time" and 0.05 <= bot.last.seconds < 1.0 and bot.last.iterations > 0
    with pytest.raises(ValueError):
        ISMCTSBot(0, iterations=None, seconds=None)


def test_early_stop_ends_the_search_once_the_choice_cannot_change() -> None:
    cut = evaluator_for(SNORKELING)
    assert cut is not None
    stopped_early = 0
    for seed in range(8):
        state, seat = a_choice({"num_players": 2}, seed)
        full = ISMCTSBot(6, iterations=300, cutoff=10, evaluator=cut.evaluator, early_stop=False)
        early = ISMCTSBot(6, iterations=300, cutoff=10, evaluator=cut.evaluator)
        assert decide(early, SNORKELING, state, seat) == decide(full, SNORKELING, state, seat)
        assert full.last.iterations == 300
        stopped_early += early.last.stopped == "early" and early.last.iterations < 300
    assert stopped_early >= 2


def test_ismcts_is_deterministic_for_its_seed() -> None:
    def game(seed: int) -> list[str]:
        bots: list[Any] = [ISMCTSBot(seed * 10 + s, iterations=15, cutoff=12, evaluator=uniform) for s in range(3)]
        return play("snorkeling", {"num_players": 3, "target_score": 5}, 17, bots)[0]

    first = game(1)
    assert game(1) == first
    assert game(2) != first


def _swap_hidden_cards(notation: str, a: int, b: int, known: list[list[str]]) -> str | None:
    """The notation with one card swapped between the hands of seats ``a`` and ``b`` (cards they do not show)."""
    hands = re.search(r" hands=(\S+)", notation)
    assert hands is not None
    cards = [hand.split(",") if hand != "-" else [] for hand in hands.group(1).split("/")]
    for i, card in enumerate(cards[a]):
        for j, other in enumerate(cards[b]):
            if card != other and card not in known[a] and other not in known[b]:
                cards[a][i], cards[b][j] = other, card
                swapped = "/".join(",".join(sorted(hand, key=FACE_ORDER.__getitem__)) or "-" for hand in cards)
                return notation.replace(hands.group(0), f" hands={swapped}")
    return None


def _same_view_other_hands(state: Any, seat: int) -> Any | None:
    """A state that ``seat`` cannot tell from ``state``: two opponents have swapped a hidden card."""
    game = SNORKELING
    others = [s for s in range(len(state.hands)) if s != seat]
    view = game.view(state, seat)
    notation = game.state_notation(state)
    for a in others:
        for b in others:
            if a < b:
                text = _swap_hidden_cards(notation, a, b, view["known_in_hand"])
                if text is not None:
                    changed = game.parse_state(text, state.config)
                    assert game.state_notation(changed) != notation
                    assert game.seat_notation(changed, seat) == game.seat_notation(state, seat)
                    assert game.view(changed, seat) == view
                    return changed
    return None


@pytest.mark.usefixtures("tiny_hard")
@pytest.mark.parametrize("name", ["ismcts", "easy", "medium", "hard"])
def test_no_peeking_the_choice_is_the_same_when_only_opponents_hidden_cards_differ(name: str) -> None:
    """Two true states that differ only in cards the seat cannot see give the same decision for the same seed."""

    def bot(seed: int) -> Any:
        if name == "ismcts":
            return ISMCTSBot(seed, iterations=20, cutoff=15, evaluator=uniform)
        return make_bot("snorkeling", name, seed)

    game = SNORKELING
    state = game.new(game.make_config({"num_players": 4}), 31)
    mover = RandomBot(5)
    compared = 0
    while game.outcome(state) is None and compared < 8:
        (seat,) = game.actors(state)
        if len(game.legal_actions(state, seat)) > 2:
            changed = _same_view_other_hands(state, seat)
            if changed is not None:
                assert decide(bot(compared), game, changed, seat) == decide(bot(compared), game, state, seat)
                compared += 1
        game.apply(state, seat, decide(mover, game, state, seat))
    assert compared == 8


@pytest.mark.usefixtures("tiny_hard")
@pytest.mark.parametrize("game_name", TURN_BASED)
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_no_peeking_on_any_state_the_seat_cannot_tell_from_the_true_one(game_name: str, level: str) -> None:
    """The same, for every turn-based game: the other state is a determinization (hidden cards dealt anew)."""
    game = get_game(game_name)
    state = game.new(game.make_config({"num_players": 3}), 12)
    rng = random.Random(2)
    mover = RandomBot(7)
    compared = 0
    while game.outcome(state) is None and compared < 5:
        seat = min(game.actors(state))
        if len(game.legal_actions(state, seat)) > 2:
            sample = game.determinize(state, seat, random.Random(rng.getrandbits(32)))
            if game.state_notation(sample) != game.state_notation(state):
                assert game.view(sample, seat) == game.view(state, seat)
                on_true = decide(make_bot(game_name, level, compared), game, state, seat)
                assert decide(make_bot(game_name, level, compared), game, sample, seat) == on_true
                compared += 1
        for actor in sorted(game.actors(state)):
            game.apply(state, actor, decide(mover, game, state, actor))
    assert compared == 5


def test_ismcts_beats_random_clearly() -> None:
    cut = evaluator_for(SNORKELING)
    assert cut is not None
    snorkeling_evaluator = cut.evaluator
    """Seat-balanced 2-player games to 8 points at 30 iterations a move: random hardly ever wins."""
    wins = 0
    games = 6
    for index in range(games):
        seat = index % 2
        bots: list[Any] = [RandomBot(index), RandomBot(index)]
        bots[seat] = ISMCTSBot(index, iterations=30, cutoff=20, evaluator=snorkeling_evaluator)
        _, outcome = play("snorkeling", {"num_players": 2, "target_score": 8}, 900 + index // 2, bots)
        wins += outcome.winners == (seat,)
    assert wins >= 5, f"ISMCTS won {wins} of {games}"


def test_win_chances_favour_the_leader_and_sum_to_one() -> None:
    chances = win_chances([10, 7, 7], 3.0)
    assert abs(sum(chances) - 1) < 1e-9 and chances[0] > chances[1] == chances[2]
