"""Conformance checks every divedeck game must pass, written against the engine's Game contract only.

Each ``check_*`` function takes ``(game, options)`` (a registered game and loose option values for
``game.make_config``), plays seeded random games and fails with a message naming the game, config, seed and step.
The ``assert_*`` functions check one state (or one action's events) and are shared with the Hypothesis property
tests, which choose the actions themselves.

Nothing here knows a rule of any game: a new game only needs its configs listed in ``GAME_CONFIGS``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from divedeck.engine import CLOCK, Event, Game, IllegalAction, MalformedInput, Match, game_names
from divedeck.engine.hidden import private_parts

# Hold your Hat plays its tests with a generated word deck, never the shipped words (HYH-C5).
HYH_WORDS = str(Path(__file__).resolve().parent / "games" / "hold_your_hat" / "data" / "generated_words.toml")

# The configs each game is checked under: the defaults first, then every option whose other values change play.
# The one place to edit when a game is added.
GAME_CONFIGS: dict[str, list[dict[str, Any]]] = {
    "snorkeling": [
        {},
        {"num_players": 2},
        {"num_players": 6},
        {"expert_diving": True},
        {"opponent_play_limit": "one_total"},
        {"opponent_play_limit": "unlimited", "allow_own_pile": True},
        {"next_round_starter": "same"},
    ],
    "hold-your-breath": [
        {},
        {"num_players": 2},
        {"num_players": 3, "first_player": 2},
        {"forced_breath": False, "empty_hand_panic": "none"},
        {"final_turn_trigger": "short_hand", "winner_rule": "distance"},
        {"kraken_discard": "random", "ascent_tie_break": "seat_order", "max_depth": 60},
    ],
    "bermuda": [
        {},
        {"num_players": 1},
        {"num_players": 5, "max_dive_ms": 20000, "rounds": 3},
        {"num_players": 2, "sorting": "every_round"},
        {"num_players": 3, "hidden_treasures": True, "sorting": "never"},
        {"placement_check": "strict", "countdown_ms": 0},
        {"num_players": 2, "single_breath_challenge": True},
        {"num_players": 3, "single_breath_challenge": True, "single_breath_mode": "one_round"},
        {"num_players": 2, "auto_end_on_empty_hands": False, "rounds": 2},
    ],
    "hold-your-hat": [
        {"cards": HYH_WORDS, "deck_size": 16},
        {"cards": HYH_WORDS, "deck_size": 12, "guess_judging": "clue_giver", "turn_seconds": 20},
        {"cards": HYH_WORDS, "deck_size": 10, "party": True, "num_players": 6, "teams": 3},
        {"cards": HYH_WORDS, "deck_size": 10, "num_players": 7, "teams": 3, "team_sizes": "3,2,2",
         "seating": "alternate", "first_team": 2, "clue_giver_rotation": "per_round"},
        {"cards": HYH_WORDS, "deck_size": 8, "start_with_raid": True, "raid_in_extra_time": True,
         "extra_time_words": 1, "simultaneous_window_ms": 0, "color": "green", "rounds": 2, "turn_seconds": 5},
        {"cards": HYH_WORDS, "deck_size": 8, "num_players": 12, "teams": 6, "rounds": 1},
    ],
}

# A random game that takes more actions than this is taken to be stuck.
MAX_ACTIONS = 20_000

# IllegalAction.rule names the rule that forbids an action, like "SNK-R9".
RULE_ID = re.compile(r"^[A-Z]+-[A-Z]+\d+[a-z]?$")

# Texts that are no action of any game.
MALFORMED_TEXTS = (
    "",
    "   ",
    "\x00\x01",
    "!!!",
    "🐟 🐠",
    "xyzzy plugh 42 > > 7",
    "??????",
    "play the best card please",
)


def configs_for(name: str) -> list[dict[str, Any]]:
    """The configs to check game ``name`` under (its defaults alone if it has no entry yet)."""
    return GAME_CONFIGS.get(name, [{}])


def case_id(name: str, options: dict[str, Any]) -> str:
    return name + ("[" + ",".join(f"{k}={v}" for k, v in options.items()) + "]" if options else "[default]")


def cases() -> list[tuple[str, dict[str, Any]]]:
    """Every (game name, options) pair to check, over every registered game."""
    return [(name, options) for name in game_names() for options in configs_for(name)]


# -- playing ---------------------------------------------------------------------------------------------------


@dataclass
class Step:
    """One action of a playout: a copy of the state before it, who took it, what was legal, what it did."""

    before: Any
    seat: int
    legal: list[Any]
    action: Any
    events: list[Event] = field(default_factory=list)
    time: int = 0  # a real-time game's time of the action (ms)


def seats(game: Game[Any, Any], config: Any) -> range:
    return range(game.num_players(config))


def realtime_step(game: Game[Any, Any], state: Any, rng: random.Random, now: int
                  ) -> tuple[int, Any, list[Any], int]:
    """The next input of a random real-time game: a random actor's random legal action stamped with a random time
    at or after ``now`` (often equal to it), or the clock's ``tick`` when a deadline has passed by then. Half the
    time a passed deadline is left to fire inside ``apply``, before the action (chosen from the state as it is
    then). Returns the seat (``CLOCK`` for a tick), the action, what was legal, and the new time."""
    roll = rng.random()
    t = now if roll < 0.4 else now + rng.randint(1, 1500) if roll < 0.8 else now + rng.randint(2000, 60000)
    due = game.deadline(state)
    at_t = state
    if due is not None and due <= t:
        at_t = state.clone()
        game.apply(at_t, CLOCK, game.tick(t))
        if rng.random() < 0.5 or game.outcome(at_t) is not None:
            tick_time = rng.randint(due, t)
            return CLOCK, game.tick(tick_time), [], tick_time
    seat = rng.choice(sorted(game.actors(at_t)))
    legal = list(game.legal_actions(at_t, seat))
    return seat, game.at(rng.choice(legal), t), legal, t


def playout(game: Game[Any, Any], config: Any, seed: int, *, max_actions: int = MAX_ACTIONS,
            state: Any = None, start: int = 0) -> tuple[list[Step], Any]:
    """A random game from ``seed`` (or from ``state``, at time ``start`` in a real-time game) to its end, checking
    the turn contract at every step. Returns the steps and the final state.
    """
    rng = random.Random(seed)
    state = game.new(config, seed) if state is None else state
    steps: list[Step] = []
    now = start
    while game.outcome(state) is None:
        assert len(steps) < max_actions, f"seed {seed}: the game did not end within {max_actions} actions"
        assert_turn_contract(game, config, state, where=f"seed {seed}, step {len(steps)}")
        if game.realtime:
            seat, action, legal, now = realtime_step(game, state, rng, now)
        else:
            seat = rng.choice(sorted(game.actors(state)))
            legal = list(game.legal_actions(state, seat))
            action = rng.choice(legal)
        before = state.clone()
        events = game.apply(state, seat, action)
        steps.append(Step(before, seat, legal, action, events, now))
    assert_turn_contract(game, config, state, where=f"seed {seed}, final state")
    return steps, state


def random_state(game: Game[Any, Any], config: Any, seed: int, moves: int) -> Any:
    """A turn-based game after up to ``moves`` random actions from a new game (or its end, if sooner)."""
    state = game.new(config, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        actors = game.actors(state)
        if not actors:
            break
        seat = min(actors)
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return state


def formatted(game: Game[Any, Any], actions: Iterable[Any]) -> list[str]:
    return [game.format_action(a) for a in actions]


# -- per-state assertions ----------------------------------------------------------------------------------------


def assert_turn_contract(game: Game[Any, Any], config: Any, state: Any, where: str = "") -> None:
    """Who may act and what is legal agree: every actor has a legal action, nobody else has any, and a finished
    game has no actors."""
    actors = game.actors(state)
    over = game.outcome(state) is not None
    assert isinstance(actors, frozenset), f"{where}: actors() must return a frozenset"
    assert actors <= set(seats(game, config)), f"{where}: actors {sorted(actors)} are not seats"
    if over:
        assert not actors, f"{where}: the game is over but seats {sorted(actors)} may still act"
    else:
        assert actors, f"{where}: the game is not over but nobody may act"
    for seat in seats(game, config):
        legal = formatted(game, game.legal_actions(state, seat))
        if seat in actors:
            assert legal, f"{where}: seat {seat} may act but has no legal action"
            assert len(set(legal)) == len(legal), f"{where}: seat {seat}'s legal actions repeat: {legal}"
            assert legal == formatted(game, game.legal_actions(state, seat)), f"{where}: unstable order"
        else:
            assert not legal, f"{where}: seat {seat} may not act but is offered {legal}"


def assert_legal_actions_apply(game: Game[Any, Any], state: Any, where: str = "") -> int:
    """Every legal action of every actor passes ``check`` and applies (to a copy). Returns how many."""
    count = 0
    for seat in sorted(game.actors(state)):
        for action in game.legal_actions(state, seat):
            game.check(state, seat, action)
            assert game.is_legal(state, seat, action), f"{where}: {game.format_action(action)} is_legal False"
            events = game.apply(state.clone(), seat, action)
            assert isinstance(events, list) and all(isinstance(e, Event) for e in events), (
                f"{where}: apply must return a list of Events")
            count += 1
    return count


def assert_clone_isolated(game: Game[Any, Any], state: Any, seat: int, action: Any, where: str = "") -> None:
    """A clone shares nothing observable: acting on it leaves the original as it was, and the other way round."""
    before = game.state_notation(state)
    views = [game.view(state, s) for s in (None, *sorted(game.actors(state)))]
    copy = state.clone()
    assert game.state_notation(copy) == before, f"{where}: a clone differs from its original"
    game.apply(copy, seat, action)
    assert game.state_notation(state) == before, (
        f"{where}: {game.format_action(action)} applied to a clone changed the original")
    assert [game.view(state, s) for s in (None, *sorted(game.actors(state)))] == views, (
        f"{where}: acting on a clone changed the original's views")
    other = state.clone()
    game.apply(state, seat, action)
    assert game.state_notation(other) == before, f"{where}: acting on the original changed its clone"
    game.apply(other, seat, action)
    assert game.state_notation(other) == game.state_notation(state), (
        f"{where}: the same action on a clone and on its original gave different states")


def assert_illegal_rejected(game: Game[Any, Any], state: Any, candidates: Iterable[tuple[int, Any]],
                            where: str = "") -> int:
    """Every candidate (seat, action) that is not among the seat's legal actions raises ``IllegalAction`` with a
    rule ID, from ``check`` and from ``apply``, and leaves the state untouched. Returns how many were tried."""
    before = game.state_notation(state)
    legal_by_seat: dict[int, set[str]] = {}
    tried = 0
    for seat, action in candidates:
        if seat not in legal_by_seat:
            legal_by_seat[seat] = set(formatted(game, game.legal_actions(state, seat)))
        text = game.format_action(action)
        if text in legal_by_seat[seat]:
            continue
        tried += 1
        assert not game.is_legal(state, seat, action), f"{where}: {text} by seat {seat} is_legal but not listed"
        for method in (game.check, game.apply):
            try:
                method(state, seat, action)
            except IllegalAction as error:
                assert error.rule is not None and RULE_ID.match(error.rule), (
                    f"{where}: IllegalAction for {text} by seat {seat} names no rule ID: {error.rule!r}")
                assert str(error), f"{where}: IllegalAction for {text} has no message"
            else:
                raise AssertionError(f"{where}: {method.__name__} accepted {text} by seat {seat}, "
                                     "which is not among its legal actions")
        assert game.state_notation(state) == before, (
            f"{where}: the rejected {text} by seat {seat} changed the state")
    return tried


def assert_notation_roundtrip(game: Game[Any, Any], config: Any, state: Any, where: str = "") -> Any:
    """Actions and the state survive their text notation. Returns the state parsed back."""
    for seat in sorted(game.actors(state)):
        for action in game.legal_actions(state, seat):
            text = game.format_action(action)
            parsed = game.parse_action(text)
            assert parsed == action, f"{where}: parse_action({text!r}) gave {parsed!r}, not {action!r}"
            assert game.format_action(parsed) == text
    text = game.state_notation(state)
    parsed_state = game.parse_state(text, config)
    assert game.state_notation(parsed_state) == text, f"{where}: the state notation does not round-trip:\n{text}"
    assert game.actors(parsed_state) == game.actors(state)
    for seat in sorted(game.actors(state)):
        assert formatted(game, game.legal_actions(parsed_state, seat)) == formatted(
            game, game.legal_actions(state, seat)), f"{where}: the parsed state offers other actions"
    for seat in (None, *seats(game, config)):
        assert game.seat_notation(parsed_state, seat) == game.seat_notation(state, seat)
    return parsed_state


def _json_safe(value: Any, what: str) -> None:
    try:
        json.dumps(value)
    except (TypeError, ValueError) as error:
        raise AssertionError(f"{what} is not JSON-safe: {error}") from None


@dataclass
class InformationStats:
    """How often a determinization changed something: checks that cannot pass vacuously look at these."""

    checked: int = 0
    resampled: int = 0  # a determinization differed from the true state
    other_views_changed: int = 0  # ...and another seat's view changed with it
    samples_differed: int = 0  # two determinizations of one state differed


def assert_information(game: Game[Any, Any], config: Any, state: Any, rng: random.Random,
                       stats: InformationStats | None = None, where: str = "") -> InformationStats:
    """What each seat sees depends only on what it may know.

    For each seat: a determinization (everything it cannot see resampled) gives it the same view, copy of the
    notation and legal actions, and the spectator the same too; the determinization is a working state for the
    other seats (whose hidden cards changed); and it depends only on the seat's information, not on the true
    hidden cards. The spectator's view holds no hand.
    """
    stats = stats or InformationStats()
    before = game.state_notation(state)
    spectator = game.view(state, None)
    _json_safe(spectator, f"{where}: the spectator's view")
    assert "hand" not in spectator, f"{where}: the spectator's view shows a hand"
    n = game.num_players(config)
    for seat in range(n):
        view = game.view(state, seat)
        _json_safe(view, f"{where}: seat {seat}'s view")
        d1 = game.determinize(state, seat, random.Random(rng.getrandbits(32)))
        d2 = game.determinize(state, seat, random.Random(rng.getrandbits(32)))
        assert game.state_notation(state) == before, f"{where}: determinize changed the state it was given"
        stats.checked += 1
        stats.resampled += game.state_notation(d1) != before
        stats.samples_differed += game.state_notation(d1) != game.state_notation(d2)
        for sample in (d1, d2):
            assert game.view(sample, seat) == view, (
                f"{where}: seat {seat}'s view changed when only cards it cannot see changed")
            assert game.seat_notation(sample, seat) == game.seat_notation(state, seat), (
                f"{where}: seat {seat}'s notation changed when only cards it cannot see changed")
            assert game.view(sample, None) == spectator, f"{where}: the spectator's view changed"
            assert game.seat_notation(sample, None) == game.seat_notation(state, None)
            assert formatted(game, game.legal_actions(sample, seat)) == formatted(
                game, game.legal_actions(state, seat)), f"{where}: seat {seat}'s legal actions changed"
            assert game.actors(sample) == game.actors(state)
            assert game.outcome(sample) == game.outcome(state)
            assert game.card_count(sample) == game.card_count(state), f"{where}: determinize lost cards"
        # The other seats' hidden cards changed: their views must still be whole and well formed.
        for other in range(n):
            if other == seat:
                continue
            other_view = game.view(d1, other)
            _json_safe(other_view, f"{where}: seat {other}'s view of a determinization")
            assert other_view.keys() == game.view(state, other).keys()
            game.seat_notation(d1, other)
            stats.other_views_changed += other_view != game.view(state, other)
        assert_turn_contract(game, config, d1, where=f"{where}: determinization for seat {seat}")
        assert_notation_roundtrip(game, config, d1, where=f"{where}: determinization for seat {seat}")
        # Only the seat's information counts: resampling either sample again with one rng gives one state.
        again1 = game.determinize(d1, seat, random.Random(7))
        again2 = game.determinize(d2, seat, random.Random(7))
        assert game.state_notation(again1) == game.state_notation(again2), (
            f"{where}: determinize for seat {seat} depends on cards that seat cannot see")
    return stats


def assert_events_private(game: Game[Any, Any], events: Sequence[Event], num_players: int,
                          where: str = "") -> None:
    """An event's private fields reach only the seats they belong to; every seat's copy is JSON-safe."""
    for event in events:
        private = event.private_parts()
        public = event.public_fields()
        for viewer in (None, *range(num_players)):
            shown = event.for_seat(viewer)
            _json_safe(shown, f"{where}: event {event.kind} for seat {viewer}")
            assert shown["kind"] == event.kind
            own = private.get(viewer, {}) if viewer is not None else {}
            assert shown == {"kind": event.kind, **public, **own}, (
                f"{where}: event {event.kind} shows seat {viewer} more than its public and own private fields")
            for owner, fields in private.items():
                if owner == viewer:
                    continue
                for key, value in fields.items():
                    if key in own or key in public:
                        continue
                    assert key not in shown, (
                        f"{where}: event {event.kind} shows seat {owner}'s private {key}={value!r} to {viewer}")


def secret_words(value: Any) -> set[str]:
    """The texts in a private value (a card label, a word, a tuple of them); numbers are too common to look for."""
    if isinstance(value, str):
        return {value} if value.strip() else set()
    if isinstance(value, Mapping):
        return set().union(*map(secret_words, value.values())) if value else set()
    if isinstance(value, list | tuple | set | frozenset):
        return set().union(*map(secret_words, value)) if value else set()
    return set()


def static_aliases(static: Any) -> dict[str, set[str]]:
    """How the game's static data lets a text name a code: each string value under its key (a card table
    ``{"Y3": "yellow 3 (Turtle)"}``), and an entry's ``name`` under its ``label``, ``id`` or ``letter``. A name of
    one word ("Shark") is also a word of the game's sentences ("chase seat 2's Shark away"): it names nothing."""
    aliases: dict[str, set[str]] = {}

    def add(code: str, name: str) -> None:
        if len(name.split()) > 1:
            aliases.setdefault(code, set()).add(name)

    def walk(value: Any) -> None:
        if isinstance(value, Mapping):
            name = value.get("name")
            for key in ("label", "id", "letter"):
                if isinstance(name, str) and isinstance(value.get(key), str):
                    add(value[key], name)
            for key, item in value.items():
                if isinstance(item, str):
                    add(str(key), item)
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    walk(static)
    return aliases


def _named(secret: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(secret)}(?!\w)", text, re.IGNORECASE) is not None


def received_texts(game: Game[Any, Any], step: Step, viewer: int | None) -> list[str]:
    """Every text ``viewer`` (``None``: a spectator, a replay's reader) receives of ``step``: the move text, each
    event's log parts (text and cards) and its log line."""
    texts = [game.public_action(step.action, viewer, step.seat)]
    for event in step.events:
        texts += [str(part.get("text", part.get("card", ""))) for part in game.log_parts(event, viewer)]
        texts.append(game.format_event(event, viewer))
    return texts


def assert_no_secret_received(game: Game[Any, Any], step: Step, after: Any, num_players: int,
                              aliases: dict[str, set[str]], where: str = "") -> int:
    """No text another seat or a spectator receives of ``step`` names a private value it may not see: another
    seat's private part of an event, or a private field of the action. A value that seat may see anyway does not
    count: one its seat notation holds before or after the action, or one its own copy of the events holds.
    Returns how many secrets were looked for."""
    looked = 0
    for viewer in (None, *range(num_players)):
        secrets = set()
        for event in step.events:
            secrets |= {word for owner, fields in event.private_parts().items() if owner != viewer
                        for word in secret_words(fields)}
        if viewer != step.seat:
            secrets |= secret_words(private_parts(step.action))
        if not secrets:
            continue
        seen = (game.seat_notation(step.before, viewer) + " " + game.seat_notation(after, viewer) + " "
                + json.dumps([event.for_seat(viewer) for event in step.events], ensure_ascii=False))
        secrets = {secret for secret in secrets if secret not in seen}
        texts = received_texts(game, step, viewer)
        for secret in secrets:
            looked += 1
            for name in {secret, *aliases.get(secret, ())}:
                told = [text for text in texts if _named(name, text)]
                assert not told, (f"{where}: seat {step.seat}'s {game.format_action(step.action)!r} tells "
                                  f"{'a spectator' if viewer is None else f'seat {viewer}'} {secret!r} "
                                  f"({name!r}): {told}")
    return looked


def assert_legal_in_move_table(game: Game[Any, Any], config: Any, state: Any, where: str = "") -> None:
    """Every legal action of every actor is in the config's move table, and its index maps back to it."""
    table = game.move_table(config)
    for seat in game.actors(state):
        legal = game.legal_actions(state, seat)
        for action in legal:
            if getattr(action, "free_text", False):
                continue  # typed text (a guess, a clue) is outside the table by design
            assert action in table, f"{where}: legal {game.format_action(action)!r} of seat {seat} is not in the table"
            assert table.action(table.index(action)) == action, f"{where}: the move table does not round-trip"
        mask = table.mask([a for a in legal if not getattr(a, "free_text", False)])
        assert sum(mask) == len({a for a in legal if not getattr(a, "free_text", False)}), (
            f"{where}: the mask of seat {seat} does not mark exactly its legal actions")


def assert_outcome_valid(game: Game[Any, Any], config: Any, state: Any, where: str = "") -> None:
    outcome = game.outcome(state)
    assert outcome is not None
    n = game.num_players(config)
    assert len(outcome.scores) == n, f"{where}: the outcome needs one score per seat"
    assert set(outcome.winners) <= set(range(n)), f"{where}: winners {outcome.winners} are not seats"
    assert outcome.termination, f"{where}: the outcome does not say what ended the game"
    _json_safe(outcome.to_dict(), f"{where}: the outcome")


# -- checks over seeded playouts ---------------------------------------------------------------------------------


def _setup(game: Game[Any, Any], options: dict[str, Any]) -> Any:
    return game.make_config(options)


def check_playouts(game: Game[Any, Any], options: dict[str, Any], seeds: Sequence[int] = (11, 12, 13)) -> None:
    """Random games end; at every step each actor has legal actions and each of them applies; the setup is a
    function of the seed."""
    config = _setup(game, options)
    applied = 0
    for seed in seeds:
        steps, final = playout(game, config, seed)
        assert steps, f"seed {seed}: a game with no action"
        for index, step in enumerate(steps):
            applied += assert_legal_actions_apply(game, step.before, where=f"seed {seed}, step {index}")
        assert_outcome_valid(game, config, final, where=f"seed {seed}")
        assert game.state_notation(game.new(config, seed)) == game.state_notation(game.new(config, seed))
    assert applied > len(seeds)
    setups = {game.state_notation(game.new(config, seed)) for seed in range(5)}
    assert len(setups) > 1, "five seeds gave one and the same setup"


def check_illegal_actions(game: Game[Any, Any], options: dict[str, Any], seeds: Sequence[int] = (21, 22),
                          per_step: int = 4) -> None:
    """Actions legal elsewhere (other states, other seats) but not here raise ``IllegalAction`` with a rule ID and
    change nothing; after the game ends every action is illegal."""
    config = _setup(game, options)
    pool: dict[str, tuple[int, Any]] = {}
    for step in playout(game, config, seeds[0] + 1000)[0]:
        for action in step.legal:
            pool.setdefault(game.format_action(action), (step.seat, action))
    foreign = list(pool.values())
    n = game.num_players(config)
    tried = 0
    for seed in seeds:
        rng = random.Random(seed)
        steps, final = playout(game, config, seed)
        for index, step in enumerate(steps):
            state = step.before
            candidates = [(step.seat, action) for _, action in rng.sample(foreign, min(per_step, len(foreign)))]
            # A legal action of the seat that acts, offered for a seat that does not (unless a real-time deadline
            # passed before it: the action then meets the state the deadline left, where other seats may act).
            due = game.deadline(state)
            if due is None or due > step.time:
                candidates += [(other, step.action) for other in range(n) if other not in game.actors(state)]
            tried += assert_illegal_rejected(game, state, candidates, where=f"seed {seed}, step {index}")
        everything = [(seat, action) for seat in range(n) for _, action in foreign]
        tried += assert_illegal_rejected(game, final, everything, where=f"seed {seed}, game over")
    assert tried > 100, f"only {tried} illegal actions were tried"


def check_malformed_action_text(game: Game[Any, Any], options: dict[str, Any], seed: int = 31) -> None:
    """Text that is no action raises ``MalformedInput`` from ``parse_action``; a legal action's text parses."""
    config = _setup(game, options)
    state = game.new(config, seed)
    legal = [a for seat in sorted(game.actors(state)) for a in game.legal_actions(state, seat)]
    for text in MALFORMED_TEXTS + tuple(f"{game.format_action(a)} @@ junk" for a in legal[:3]):
        try:
            parsed = game.parse_action(text)
        except MalformedInput:
            continue
        raise AssertionError(f"parse_action({text!r}) accepted malformed text as {parsed!r}")
    for action in legal:
        assert game.parse_action(game.format_action(action)) == action


def check_clone_isolation(game: Game[Any, Any], options: dict[str, Any], seeds: Sequence[int] = (41, 42)) -> None:
    """At every step, acting on a clone leaves the original unchanged and acting on the original leaves the
    clone unchanged."""
    config = _setup(game, options)
    for seed in seeds:
        steps, _ = playout(game, config, seed)
        for index, step in enumerate(steps):
            assert_clone_isolated(game, step.before.clone(), step.seat, step.action,
                                  where=f"seed {seed}, step {index}")


def _play_match(game: Game[Any, Any], options: dict[str, Any], seed: int, limit: int | None = None
                ) -> tuple[Match, list[str]]:
    """A match played with random actions (half of them given as notation); the notation after each action."""
    match = Match.start(game, options, seed)
    rng = random.Random(seed)
    notations = []
    now = 0
    while not match.over and (limit is None or len(match.actions) < limit):
        if game.realtime:
            seat, action, _, now = realtime_step(game, match.state, rng, now)
        else:
            seat = rng.choice(sorted(game.actors(match.state)))
            action = rng.choice(list(game.legal_actions(match.state, seat)))
        match.act(seat, game.format_action(action) if rng.random() < 0.5 else action)
        notations.append(game.state_notation(match.state))
    return match, notations


def check_replay(game: Game[Any, Any], options: dict[str, Any], seeds: Sequence[int] = (51, 52),
                 directory: Path | None = None) -> None:
    """A match rebuilt from its record (also through JSON and a file) is the same state; the same seed and
    actions give the same state at every step; a record saved mid-game resumes the same game."""
    for seed in seeds:
        match, notations = _play_match(game, options, seed)
        assert match.over and notations
        record = match.to_record()
        for source in (record, json.loads(json.dumps(record))):
            rebuilt = Match.from_record(source)
            assert game.state_notation(rebuilt.state) == notations[-1], f"seed {seed}: replay gave another state"
            assert rebuilt.over
            assert game.outcome(rebuilt.state) == game.outcome(match.state)
        again = Match.start(game, options, seed)
        for index, (seat, action) in enumerate(match.actions):
            again.act(seat, action)
            assert game.state_notation(again.state) == notations[index], (
                f"seed {seed}: the same seed and actions differ at action {index}")
        if directory is not None:
            path = directory / f"{game.name}-{seed}.json"
            match.save(path)
            assert game.state_notation(Match.load(path).state) == notations[-1]
        half, half_notations = _play_match(game, options, seed, limit=len(notations) // 2)
        resumed = Match.from_record(json.loads(json.dumps(half.to_record())))
        assert game.state_notation(resumed.state) == half_notations[-1]
        assert not resumed.over
        assert resumed.to_record() == half.to_record()


def check_notation_roundtrip(game: Game[Any, Any], options: dict[str, Any], seeds: Sequence[int] = (61, 62)
                             ) -> None:
    """Every legal action's notation parses back to it; every state's notation parses back to a state with the
    same notation, which then plays on exactly like the original."""
    config = _setup(game, options)
    for seed in seeds:
        steps, final = playout(game, config, seed)
        for index, step in enumerate(steps):
            where = f"seed {seed}, step {index}"
            parsed = assert_notation_roundtrip(game, config, step.before, where=where)
            game.apply(parsed, step.seat, step.action)
            after = steps[index + 1].before if index + 1 < len(steps) else final
            assert game.state_notation(parsed) == game.state_notation(after), (
                f"{where}: the parsed state played on differently from the original")
        assert_notation_roundtrip(game, config, final, where=f"seed {seed}, final state")


def check_card_conservation(game: Game[Any, Any], options: dict[str, Any], seeds: Sequence[int] = (71, 72)
                            ) -> None:
    """The number of cards in play never changes (games that are not card games return None and are skipped)."""
    config = _setup(game, options)
    for seed in seeds:
        steps, final = playout(game, config, seed)
        count = game.card_count(steps[0].before)
        if count is None:
            return
        for index, step in enumerate([*steps[1:], None]):
            state = final if step is None else step.before
            assert game.card_count(state) == count, f"seed {seed}, after action {index}: cards were lost or made"


def check_information(game: Game[Any, Any], options: dict[str, Any], seeds: Sequence[int] = (81, 82),
                      every: int = 5) -> None:
    """Views, seat notations, legal actions and determinizations depend only on what each seat may know
    (see ``assert_information``), at every ``every``-th state of each playout; a determinization plays on to
    the end like any state."""
    config = _setup(game, options)
    stats = InformationStats()
    for seed in seeds:
        rng = random.Random(seed)
        steps, final = playout(game, config, seed)
        for index, step in enumerate(steps):
            if index % every == 0:
                assert_information(game, config, step.before, rng, stats, where=f"seed {seed}, step {index}")
        assert_information(game, config, final, rng, stats, where=f"seed {seed}, final state")
        middle = steps[len(steps) // 2]
        for seat in range(game.num_players(config)):
            sample = game.determinize(middle.before, seat, random.Random(seat))
            playout(game, config, seed + seat, state=sample, start=middle.time)
    # Every divedeck game hides cards, so these cannot all be zero unless determinize resamples nothing.
    assert stats.resampled > 0, "determinize never changed a hidden card"
    assert stats.other_views_changed > 0 or game.num_players(config) == 1, (
        "no other seat's view ever changed under a determinization")
    assert stats.samples_differed > 0, "two determinizations were always identical"


def check_event_privacy(game: Game[Any, Any], options: dict[str, Any], seeds: Sequence[int] = (91, 92)) -> None:
    """Every event of every action, as each seat and a spectator receive it, shows no other seat's secrets."""
    config = _setup(game, options)
    n = game.num_players(config)
    private_seen = 0
    for seed in seeds:
        opening = game.new_with_events(config, seed)[1]
        assert_events_private(game, opening, n, where=f"seed {seed}, setup")
        private_seen += sum(1 for e in opening if e.private_parts())
        steps, _ = playout(game, config, seed)
        for index, step in enumerate(steps):
            assert_events_private(game, step.events, n, where=f"seed {seed}, step {index}")
            private_seen += sum(1 for e in step.events if e.private_parts())
            for event in step.events:
                game.format_event(event, None)
                game.format_event(event, step.seat)
    assert private_seen > 0, "no event had a private field: nothing was checked"



def check_received_texts(game: Game[Any, Any], options: dict[str, Any], seeds: Sequence[int] = (93, 94)) -> None:
    """Issue 13 item 1: no move text, log part or log line that another seat, a spectator or a replay's reader
    receives names a private value of an event or of an action that reader may not see."""
    config = _setup(game, options)
    n = game.num_players(config)
    aliases = static_aliases(game.static_data(config))
    looked = 0
    texts_private = False
    for seed in seeds:
        steps, final = playout(game, config, seed)
        for index, step in enumerate(steps):
            after = steps[index + 1].before if index + 1 < len(steps) else final
            looked += assert_no_secret_received(game, step, after, n, aliases, f"seed {seed}, step {index}")
            texts_private = texts_private or any(secret_words(event.private_parts()) for event in step.events)
    # A game whose secrets are all numbers (Bermuda's hands of values) has no text to look for.
    assert looked > 0 or not texts_private, "no reader had a secret to keep: nothing was checked"


def check_shared_per_seat_work(game: Game[Any, Any], options: dict[str, Any], seeds: Sequence[int] = (95, 96)
                               ) -> None:
    """What the server builds for every seat at once equals what each seat's own call gives: ``views`` and
    ``shown_events`` against ``view`` and ``shown_event`` per seat (spectator included), and, for a game that
    declares ``records_fixed``, an action's record met again later against the first one (the server keeps that)."""
    config = _setup(game, options)
    readers: list[int | None] = [*seats(game, config), None]
    compared = 0
    for seed in seeds:
        steps, final = playout(game, config, seed)
        first_records: dict[tuple[int, Any], Any] = {}
        for index, step in enumerate(steps):
            after = steps[index + 1].before if index + 1 < len(steps) else final
            where = f"{game.name} {options} seed {seed} step {index}"
            assert game.views(after, readers) == [game.view(after, seat) for seat in readers], where
            assert game.shown_events(step.events, readers) == [
                [game.shown_event(event, seat) for event in step.events] for seat in readers], where
            compared += len(step.events)
            if game.records_fixed and step.seat >= 0:
                for action in step.legal:
                    record = game.action_record(step.before, step.seat, action)
                    assert first_records.setdefault((step.seat, action), record) == record, (
                        f"{where}: the record of {game.format_action(action)!r} changed though the game "
                        "declares records_fixed")
    assert compared > 0, "no events were compared"


def check_move_table(game: Game[Any, Any], options: dict[str, Any], seeds: Sequence[int] = (101, 102),
                     max_actions: int = 400) -> None:
    """The move table is a bijection (each index maps to its action and back, and the notation of each action
    parses back to it), and every legal action met in seeded playouts is in it."""
    config = _setup(game, options)
    table = game.move_table(config)
    assert len(table) > 0, f"{game.name}: the move table is empty"
    for index, action in enumerate(table.actions):
        assert table.index(action) == index
        assert game.parse_action(game.format_action(action)) == action, (
            f"{game.name}: move {index} {game.format_action(action)!r} does not parse back to itself")
    assert game.move_table(config) is table, f"{game.name}: the move table is built once per config"
    for seed in seeds:
        for step, state in enumerate(_states_along(game, config, seed, max_actions)):
            assert_legal_in_move_table(game, config, state, f"{game.name} {options} seed {seed} step {step}")


def _states_along(game: Game[Any, Any], config: Any, seed: int, max_actions: int) -> Iterable[Any]:
    rng = random.Random(seed)
    state = game.new(config, seed)
    now = 0
    for _ in range(max_actions):
        if game.outcome(state) is not None:
            return
        yield state
        if game.realtime:
            seat, action, _, now = realtime_step(game, state, rng, now)
            try:
                game.apply(state, seat, action)
            except IllegalAction:
                continue
        else:
            seat = min(game.actors(state))
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
