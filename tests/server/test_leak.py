"""The leak test: over many seeded games, no message to a seat names a card that seat cannot see.

A custom deck where every face is unique (15 colours A..O, values 0..4, one copy each) makes every hidden card
identifiable by its label: if ``"K3"`` appears in the raw bytes sent to seat 0 while K3 is in seat 2's hidden hand
(or in the deck), the server told seat 0 something it may not know.

For each message the true states are rebuilt by replaying the table's log from its seed (and, for games without
bots, compared with the live state on the server taken right after each action).
"""

from __future__ import annotations

import itertools
import json
import random
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from divedeck.engine import get_game
from divedeck.engine.config import config_to_options
from divedeck.server import manager as manager_module

from .conftest import SNORKELING, Harness, Socket, drive, replay

COLOURS = "ABCDEFGHIJKLMNO"
LABEL = re.compile(r'"[A-O][0-4]"')
# A label inside words ("drew K3"): log parts and action labels are text for people, not JSON strings of a label.
WORD = re.compile(r"\b[A-O][0-4]\b")


def unique_cards(path: Path) -> Path:
    parts = ["hand_size = 5\n"]
    parts += [f'[[colors]]\nname = "colour {c}"\nletter = "{c}"\nsymbol = "{c}"\n\n' for c in COLOURS]
    parts += [f'[[values]]\nvalue = {v}\nname = "value {v}"\ncopies = 1\n\n' for v in range(5)]
    parts.append('[lanternfish]\nname = "Lanternfish"\ncount = 6\n')
    path.write_text("".join(parts), encoding="utf-8")
    return path


def hidden(state: Any, seat: int | None) -> frozenset[str]:
    """Labels ``seat`` cannot see: the deck and every other hand less its publicly known cards."""
    faces = set(state.deck)
    for other, hand in enumerate(state.hands):
        if other == seat:
            continue
        known = list(state.known[other])
        for face in hand:
            if face in known:
                known.remove(face)
            else:
                faces.add(face)
    label = state.context.table.face_label
    return frozenset(label[face] for face in faces)


def named(labels: frozenset[str], text: str) -> list[str]:
    """The labels of ``labels`` that appear in ``text`` as JSON strings."""
    return sorted(labels & {found[1:-1] for found in LABEL.findall(text)})


def written(labels: frozenset[str], texts: list[str]) -> list[str]:
    """The labels of ``labels`` that appear as words anywhere in ``texts``."""
    return sorted(labels & {found for text in texts for found in WORD.findall(text)})


def part_texts(events: list[dict[str, Any]]) -> list[str]:
    """Every piece of text the log lines of ``events`` show: text parts, and the labels of card parts."""
    return [str(part.get("text", part.get("card", ""))) for event in events for part in event["parts"]]


def record_texts(records: list[dict[str, Any]]) -> list[str]:
    """What a page may show of its legal actions: the notation, the label and the cards of each record."""
    return [text for record in records for text in (record["notation"], record["label"], *record["cards"])]


class Checker:
    """Checks every message of one finished table against the replayed states."""

    def __init__(self, states: list[Any]) -> None:
        self.states = states
        self.static = get_game("snorkeling").static_data(states[0].config)
        self._hidden: dict[tuple[int, int | None], frozenset[str]] = {}
        self._always: dict[tuple[int, int | None], frozenset[str]] = {}
        self.checked = 0

    def hidden(self, version: int, seat: int | None) -> frozenset[str]:
        key = (version, seat)
        if key not in self._hidden:
            self._hidden[key] = hidden(self.states[version], seat)
        return self._hidden[key]

    def always_hidden(self, version: int, seat: int | None) -> frozenset[str]:
        """Labels hidden from ``seat`` at every version up to ``version``: what no history may name."""
        key = (version, seat)
        if key not in self._always:
            here = self.hidden(version, seat)
            self._always[key] = here if version == 0 else here & self.always_hidden(version - 1, seat)
        return self._always[key]

    def check(self, socket_: Socket, seat: int | None) -> None:
        label = self.states[0].context.table.face_label
        for raw, message in zip(socket_.raw, socket_.messages, strict=True):
            kind = message.get("type")
            where = f"{socket_.name}, {kind} {message.get('version')}"
            if kind == "update":
                version = message["version"]
                # Hidden before and after this action; the card the action played was shown to everyone on the
                # way (a card played as a round ends is shuffled away again at once).
                played = set(re.findall(r"[A-O][0-4]", message["action"]))
                forbidden = (self.hidden(version - 1, seat) & self.hidden(version, seat)) - played
            elif kind == "welcome":
                version = message["version"]
                forbidden = self.always_hidden(version, seat)
                # The static data is the game's card catalogue for the config, the same for every seat and every
                # moment (it names every card, hidden or not): check it is exactly that, then look at the rest.
                assert message["static"] == self.static, f"{where}: static data that is not the config's"
                raw = json.dumps({key: value for key, value in message.items() if key != "static"})
            else:  # ack, pong, table, rematch: no card at all
                assert not LABEL.search(raw), f"{where}: {raw}"
                continue
            assert not named(forbidden, raw), f"{where} names hidden cards {named(forbidden, raw)}: {raw}"
            events = message["events"] if kind == "update" else message["log"]
            told = written(forbidden, part_texts(events))
            assert not told, f"{where}: a log line names hidden cards {told}: {[e['parts'] for e in events]}"
            now = self.hidden(version, seat)
            shown = json.dumps(message["view"]) + json.dumps(message["legal"])
            assert not named(now, shown), f"{where}: the view names hidden cards {named(now, shown)}"
            offered = written(now, record_texts(message["legal"]))
            assert not offered, f"{where}: a legal action names hidden cards {offered}: {message['legal']}"
            # The check is aligned with the right state: the seat's own hand is exactly what it is shown.
            state = self.states[version]
            if seat is None:
                assert "hand" not in message["view"]
            else:
                hand = [label[face] for face in state.hands[seat]]
                assert message["view"]["hand"] == hand, where
                # a seat's legal actions play its own cards, and only those
                assert {card for record in message["legal"] for card in record["cards"]} <= set(hand), where
                assert named(frozenset(hand), raw) == sorted(hand)  # the matching finds cards that are there
            self.checked += 1


def game_plans() -> Iterator[dict[str, Any]]:
    """20 games: 3 and 4 players, some with a bot, some with a seat that joins late."""
    for index in range(20):
        players = 3 + index % 2
        seats = ["human"] * players
        if index % 3 == 2:
            seats[1] = "greedy" if index % 2 else "random"
        late = players - 1 if index % 4 == 0 else None
        yield {"index": index, "seats": seats, "late": late, "target": 2 if index % 3 == 0 else 1}


@pytest.fixture
def leak_app(make_app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Harness, Path]:
    seeds = itertools.count(20240)
    # Seeded games: the server draws each table's seed from `secrets.randbelow`; tokens stay random.
    monkeypatch.setattr(manager_module, "secrets",
                        SimpleNamespace(randbelow=lambda _bound: next(seeds), token_urlsafe=secrets.token_urlsafe))
    return make_app(allow_file_options=True), unique_cards(tmp_path / "unique.toml")


def play_and_record(app: Harness, cards: Path, plan: dict[str, Any]) -> tuple[str, list[tuple[Socket, int | None]],
                                                                              dict[int, Any]]:
    rng = random.Random(plan["index"])
    table_id, tokens, _ = app.create(plan["seats"], {"target_score": plan["target"], "cards": str(cards)})
    humans = [seat for seat, kind in enumerate(plan["seats"]) if kind == "human"]
    recorded: list[tuple[Socket, int | None]] = [(app.connect(table_id, spectator=True, name="spectator"), None)]
    sockets = {seat: app.connect(table_id, tokens[seat], name=f"seat {seat}") for seat in humans
               if seat != plan["late"]}
    recorded += [(socket_, seat) for seat, socket_ in sockets.items()]
    live = app.live(table_id)
    snapshots: dict[int, Any] = {}
    has_bots = len(humans) < len(plan["seats"])

    def snapshot(_seat: int, _action: str, ack: dict[str, Any]) -> None:
        # No bot, and the actor got its ack: nothing else is in flight, the live state is this version's.
        if not has_bots:
            assert live.version == ack["version"]
            snapshots[ack["version"]] = live.match.state.clone()

    if plan["late"] is not None:
        late = plan["late"]
        drive(sockets, rng, until=lambda last: last["view"]["active"] == late, on_action=snapshot)
        sockets[late] = app.connect(table_id, tokens[late], name=f"seat {late} (late)")
        recorded.append((sockets[late], late))
    drive(sockets, rng, max_actions=6, on_action=snapshot)
    # A page reloaded mid-game, and a spectator arriving late, each get a welcome with history.
    reload_seat = humans[0]
    recorded.append((app.connect(table_id, tokens[reload_seat], name=f"seat {reload_seat} (reload)"), reload_seat))
    recorded.append((app.connect(table_id, spectator=True, name="late spectator"), None))
    drive(sockets, rng, on_action=snapshot)
    final = next(iter(sockets.values())).last
    assert final is not None and final["outcome"] is not None
    for socket_, _ in recorded:
        socket_.until_version(final["version"])
    return table_id, recorded, snapshots


def test_no_message_names_a_card_its_seat_cannot_see(leak_app: tuple[Harness, Path]) -> None:
    app, cards = leak_app
    checked = 0
    rounds = []
    for plan in game_plans():
        table_id, recorded, snapshots = play_and_record(app, cards, plan)
        live = app.live(table_id)
        actions = [(seat, SNORKELING.format_action(action)) for seat, action in live.match.actions]
        states = replay(config_to_options(live.match.config), live.match.seed, actions)
        assert states[-1] == live.match.state
        for version, state in snapshots.items():
            assert state == states[version], f"game {plan['index']}: the live state differs from the replay"
        checker = Checker(states)
        for socket_, seat in recorded:
            checker.check(socket_, seat)
        checked += checker.checked
        rounds.append(states[-1].round)
    assert checked > 2000  # every welcome and update was looked at
    assert sum(r > 1 for r in rounds) >= 3  # some games dealt new rounds


def test_unique_deck_really_is_unique(tmp_path: Path) -> None:
    """The premise of the leak test: every card has its own label."""
    from divedeck.engine.match import Match

    match = Match.start("snorkeling", {"num_players": 4, "cards": str(unique_cards(tmp_path / "u.toml"))}, 1)
    table = match.state.context.table
    assert table.deck_size == 75 and len(set(table.face_label)) == 75 and set(table.face_copies) == {1}
