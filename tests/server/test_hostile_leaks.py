"""A hostile client at every seat: for all four games, seeded random games on the test server with a socket on every
seat and a spectator, every frame kept, the game replayed independently from storage, and every frame checked for
anything its seat cannot see at that version (issue 13 item 1).

"Cannot see" is derived from the notations, not from any game's rules: a code of the game's vocabulary (a card
label, a treasure id, a word card id; with the names the static data gives them, or the word's text) that the full
``state_notation`` holds but the seat's ``seat_notation`` does not, before and after the action, and that none of
the seat's own copies of the replayed events reveals. A frame naming such a code anywhere (the move text, events
and their log parts, the legal records, the view) tells the seat something it may not know.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from divedeck.engine import Game, Match, get_game
from divedeck.engine.hidden import private_parts
from divedeck.server import manager as manager_module
from divedeck.sim.clock import ManualClock

from ..conformance import HYH_WORDS, static_aliases
from .clocked import settle
from .conftest import Harness, Socket
from .test_leak import unique_cards

START = 1_000_000
# Each game under options that keep a random game short; Hold your Hat's guessers also type (right and wrong).
PLANS: dict[str, dict[str, Any]] = {
    "snorkeling": {"num_players": 3, "target_score": 1},
    "hold-your-breath": {"num_players": 3},
    "bermuda": {"num_players": 3, "countdown_ms": 0, "rounds": 1},
    "hold-your-hat": {"cards": HYH_WORDS, "deck_size": 6, "rounds": 2, "turn_seconds": 20, "start_with_raid": True,
                      "simultaneous_window_ms": 3000},
}
MAX_STEPS = 300
GAMES_EACH = 3
ICONS = ("draw", "discard", "calm", "panic", "shark", "kraken")


def unique_decks(directory: Path) -> dict[str, dict[str, str]]:
    """Card games whose every card has its own label, so a hidden card cannot hide behind a visible copy of it."""
    breath = directory / "unique-breath.toml"
    rows = [f'[[cards]]\nkind = "{kind}"\nvalue = {value}\nicon = "{icon}"\ncount = 1\n'
            for kind in ("air", "swim") for value in (5, 10, 15, 20, 25) for icon in ICONS]
    rows += [f'[[cards]]\nkind = "air"\nvalue = 30\nicon = "{icon}"\ncount = 1\n' for icon in ICONS[:5]]
    rows += [f'[[cards]]\nkind = "{kind}"\ncount = 1\n' for kind in ("shark", "kraken", "dolphin")]  # 68 (HYB-C1)
    breath.write_text("[board]\nmax_depth = 150\nstep = 5\nhindrance_penalty = 10\nhand_size = 5\n\n"
                      + "\n".join(rows), encoding="utf-8")
    return {"snorkeling": {"cards": str(unique_cards(directory / "unique-snorkeling.toml"))},
            "hold-your-breath": {"cards": str(breath)}}


def vocabulary(game: Game[Any, Any], config: Any) -> dict[str, str]:
    """Every way a frame may name one of the game's codes -> the code. The static data's card tables give codes
    and names; a word game's words are in no static data (they are the secret), so its word table gives them."""
    names: dict[str, str] = {}
    for code, aliases in static_aliases(game.static_data(config)).items():
        if re.fullmatch(r"[A-Z]{1,2}\d{0,3}[A-Z]?", code) and not code.isalpha() or code in ("SH", "KR", "DO"):
            names[code] = code
            names.update(dict.fromkeys(aliases, code))
    if game.name == "hold-your-hat":
        for card in config.table.cards:  # every colour's entry: they are all different (HYH-C5)
            names[card.id] = card.id
            names.update(dict.fromkeys((entry.text for entry in card.entries), card.id))
    return names


def matcher(names: dict[str, str]) -> re.Pattern[str]:
    words = sorted(names, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, words)) + r")(?![\w-])")


@dataclass
class Replayed:
    """The table's game replayed from storage: the state at each version and each action's events."""

    game: Game[Any, Any]
    states: list[Any]
    events: list[list[Any]]
    codes: frozenset[str]
    names: dict[str, str]
    pattern: re.Pattern[str]
    _hidden: dict[tuple[int, int | None], frozenset[str]] = field(default_factory=dict)
    _revealed: dict[tuple[int, int | None], frozenset[str]] = field(default_factory=dict)

    def named(self, text: str) -> frozenset[str]:
        return frozenset(self.names[found] for found in self.pattern.findall(text))

    def hidden(self, version: int, seat: int | None) -> frozenset[str]:
        key = (version, seat)
        if key not in self._hidden:
            state = self.states[version]
            full, mine = self.game.state_notation(state), self.game.seat_notation(state, seat)
            self._hidden[key] = frozenset(code for code in self.codes if code in full and code not in mine)
        return self._hidden[key]

    def revealed(self, version: int, seat: int | None) -> frozenset[str]:
        """What the seat's own copies of the events up to ``version`` name (a card played face up, a won word)."""
        key = (version, seat)
        if key not in self._revealed:
            here = self.named(json.dumps([e.for_seat(seat) for e in self.events[version]], ensure_ascii=False))
            self._revealed[key] = here | (self.revealed(version - 1, seat) if version else frozenset())
        return self._revealed[key]

    def secret_moves(self, actions: list[tuple[int, Any]]) -> int:
        """Actions whose private parts name a code a spectator still cannot see after them (a face-down card, a
        right guess whose claim is open): the moves that would leak if their text were sent as it is."""
        return sum(bool(self.named(json.dumps(private_parts(action), ensure_ascii=False)) & self.hidden(version, None))
                   for version, (_, action) in enumerate(actions, 1))

    def always_hidden(self, version: int, seat: int | None) -> frozenset[str]:
        hidden = self.hidden(version, seat)
        for earlier in range(version):
            hidden &= self.hidden(earlier, seat)
        return hidden - self.revealed(version, seat)


def replay_stored(app: Harness, table_id: str) -> Replayed:
    stored = app.manager.storage.load(table_id)
    assert stored is not None
    match, opening = Match.start(stored.game, stored.options, stored.seed), []
    game = match.game
    opening = game.new_with_events(match.config, stored.seed)[1]
    states, events = [match.state.clone()], [opening]
    for seat, action, _ in stored.actions:
        events.append(match.act(seat, action))
        states.append(match.state.clone())
    live = app.live(table_id)
    assert states[-1] == live.match.state, "the stored log does not replay to the live state"
    names = vocabulary(game, match.config)
    return Replayed(game, states, events, frozenset(names.values()), names, matcher(names))


def check_frames(replayed: Replayed, socket_: Socket, seat: int | None) -> int:
    """Every welcome and update ``socket_`` received names nothing ``seat`` cannot see at that version."""
    checked = 0
    for raw, message in zip(socket_.raw, socket_.messages, strict=True):
        kind = message.get("type")
        where = f"{replayed.game.name}, {socket_.name}, {kind} {message.get('version')}"
        if kind == "update":
            version = message["version"]
            forbidden = ((replayed.hidden(version - 1, seat) & replayed.hidden(version, seat))
                         - replayed.revealed(version, seat) - replayed.revealed(version - 1, seat))
        elif kind == "welcome":
            version = message["version"]
            forbidden = replayed.always_hidden(version, seat)
            raw = json.dumps({key: value for key, value in message.items() if key != "static"}, ensure_ascii=False)
        else:
            assert not replayed.named(raw) & replayed.hidden(len(replayed.states) - 1, seat), f"{where}: {raw}"
            continue
        told = replayed.named(raw) & forbidden
        assert not told, f"{where}: names {sorted(told)} it cannot see: {raw[:2000]}"
        now = replayed.hidden(version, seat)
        shown = replayed.named(json.dumps([message["view"], message["legal"]], ensure_ascii=False)) & now
        assert not shown, f"{where}: the view or a legal record names {sorted(shown)}"
        checked += 1
    return checked


class Table:
    """One table with a socket on every seat and a spectator, played with random legal moves on a manual clock."""

    def __init__(self, app: Harness, clock: ManualClock, name: str, index: int, decks: dict[str, Any]) -> None:
        self.app, self.clock, self.rng = app, clock, random.Random(index)
        self.game = get_game(name)
        options = {**PLANS[name], **decks.get(name, {})}
        count = self.game.num_players(self.game.make_config(options))
        self.table_id, tokens, _ = app.create(["human"] * count, options, game=name)
        self.spectator = app.connect(self.table_id, spectator=True, name="spectator")
        self.sockets = [app.connect(self.table_id, token, name=f"seat {seat}") for seat, token in enumerate(tokens)]
        self.live = app.live(self.table_id)

    def sync(self) -> dict[str, Any]:
        settle(self.live, self.clock)
        for socket_ in (*self.sockets, self.spectator):
            socket_.until_version(self.live.version)
        assert self.spectator.last is not None
        return self.spectator.last

    def choose(self, seat: int) -> str | None:
        legal = self.sockets[seat].legal
        if not legal:
            return None
        action = self.rng.choice(legal)
        state = self.live.match.state
        if action == "guess ?" and self.rng.random() < 0.6:  # a hostile guesser knows the word: a right guess
            right = self.rng.random() < 0.5 and getattr(state, "current", -1) >= 0
            return f"guess {json.dumps(state.entry(state.current)[0] if right else 'nope')}"
        return action

    def play(self) -> None:
        for _ in range(MAX_STEPS):
            last = self.sync()
            if last["outcome"] is not None:
                return
            if self.game.realtime:
                self.clock.advance(self.rng.choice((0, 0, 40, 400, 1100, 4000)))
                last = self.sync()
                if last["outcome"] is not None:
                    return
            movers = [seat for seat in range(len(self.sockets)) if self.sockets[seat].legal]
            if not movers:
                continue
            seat = self.rng.choice(movers)
            action = self.choose(seat)
            if action is not None:
                reply = self.sockets[seat].act(action)
                assert reply["type"] == "ack" or self.game.realtime, reply

    def recorded(self) -> Iterator[tuple[Socket, int | None]]:
        yield self.spectator, None
        yield from ((socket_, seat) for seat, socket_ in enumerate(self.sockets))


@pytest.fixture
def clocked_app(make_app: Any, tmp_path: Path,
                monkeypatch: pytest.MonkeyPatch) -> tuple[Harness, ManualClock, dict[str, Any]]:
    seeds = itertools.count(13_000)
    # Seeded games: the server draws each table's seed from `secrets.randbelow`; tokens stay random.
    monkeypatch.setattr(manager_module, "secrets",
                        SimpleNamespace(randbelow=lambda _bound: next(seeds), token_urlsafe=secrets.token_urlsafe))
    clock = ManualClock(START)
    return make_app(clock=clock, allow_file_options=True), clock, unique_decks(tmp_path)


@pytest.mark.parametrize("name", list(PLANS))
def test_no_frame_names_what_its_seat_cannot_see(clocked_app: tuple[Harness, ManualClock, dict[str, Any]],
                                                  name: str) -> None:
    app, clock, decks = clocked_app
    checked = secrets = secret_moves = 0
    for index in range(GAMES_EACH):
        table = Table(app, clock, name, index, decks)
        table.play()
        table.sync()
        replayed = replay_stored(app, table.table_id)
        for socket_, seat in table.recorded():
            checked += check_frames(replayed, socket_, seat)
            secrets += sum(bool(replayed.hidden(v, seat)) for v in range(len(replayed.states)))
        secret_moves += replayed.secret_moves(table.live.match.actions)
    print(f"{name}: {checked} frames, {secrets} (version, seat) pairs with something hidden, "
          f"{secret_moves} moves with a private part")
    assert checked > 100 and secrets > 0, (checked, secrets)
    # Where actions have private parts (a face-down card, a typed guess), some were played and stayed hidden.
    assert secret_moves > 0 or not any(private_parts(action) for _, action in table.live.match.actions)


def test_the_check_finds_a_face_down_card_in_a_move_text(
        clocked_app: tuple[Harness, ManualClock, dict[str, Any]]) -> None:
    """The premise: a frame that named a breath penalty laid face down (``gasp S10X``) to another seat is caught."""
    app, clock, decks = clocked_app
    table = Table(app, clock, "hold-your-breath", 0, decks)
    table.play()
    replayed = replay_stored(app, table.table_id)
    gasps = [(version, seat, action) for version, (seat, action) in enumerate(table.live.match.actions, 1)
             if str(action).startswith("gasp")]
    assert gasps, "no breath penalty in this game: the premise is not exercised"
    version, actor, action = gasps[0]
    other = (actor + 1) % len(table.sockets)
    forged = {"type": "update", "version": version, "action": str(action), "events": [], "view": {}, "legal": []}
    fake = Socket(None, "forged")
    fake.raw, fake.messages = [json.dumps(forged)], [forged]
    with pytest.raises(AssertionError, match="cannot see"):
        check_frames(replayed, fake, other)
