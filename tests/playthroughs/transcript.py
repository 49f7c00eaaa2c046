"""Golden playthroughs (after OpenSpiel's): one seeded random game per conformance config, written as text.

Each file ``tests/playthroughs/<game>-<config>.txt`` holds the config and seed, the initial state notation, the
setup events, then for every shown action: the step number, the acting seat, the seat's legal actions, the action's
notation, every event's log line as each seat and the spectator read it (seats reading the same line share it), and
the views afterwards as canonical JSON: the spectator's whole, each seat's as the fields where it differs from the
spectator's, which is exactly what that seat alone sees. A leak (a hidden card in someone's view or log line) or a
rule change then shows as a diff in review. ``scripts/write_playthroughs.py`` writes the files and
``tests/test_playthroughs.py`` rebuilds them and compares; both use this module, so they cannot drift apart.

Only the public engine contract is used (``get_game`` and ``Game`` methods), never a game's internals, and the list
of configs is the conformance suite's (``GAME_CONFIGS``): a game added there gets a playthrough.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from divedeck.engine import CLOCK, Event, Game, get_game

from ..conformance import GAME_CONFIGS

DIRECTORY = Path(__file__).resolve().parent
ROOT = DIRECTORY.parents[1]
REGENERATE = "uv run python scripts/write_playthroughs.py"

SEED = 1  # the game's seed, and the seed of the generator that picks the actions
SHOWN_ACTIONS = 60  # at most this many actions are written in full...
FILE_BYTES = 90_000  # ...and only as many as keep the file within this size
LISTED_ACTIONS = 400  # the actions after those written in full are listed, one a line, up to this many
MAX_ACTIONS = 20_000  # a game that has not ended after this many actions is stopped (and the file says so)
MAX_FILE_BYTES = 150_000  # checked by the test, with the total below
MAX_TOTAL_BYTES = 3_000_000

# How a config id names an option value: anything but these characters becomes "+" (e.g. team_sizes=3+2+2).
_SAFE = re.compile(r"[^A-Za-z0-9._-]")


@dataclass(frozen=True)
class Playthrough:
    """One golden file: its id (the file name without ``.txt``), the game and the conformance config."""

    id: str
    game: str
    options: dict[str, Any]

    @property
    def path(self) -> Path:
        return DIRECTORY / f"{self.id}.txt"


def _portable(value: Any) -> Any:
    """``value`` with every absolute path written relative to the repository (or as its file name if outside it),
    so a transcript is the same on every machine and names no path of one."""
    if isinstance(value, dict):
        return {key: _portable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_portable(item) for item in value]
    if isinstance(value, str) and Path(value).is_absolute():
        path = Path(value).resolve()
        try:
            return path.relative_to(ROOT).as_posix()
        except ValueError:
            return path.name
    return value


def config_id(name: str, options: dict[str, Any]) -> str:
    """A short, stable, filesystem-safe id: ``snorkeling-default``, ``snorkeling-num_players=2``,
    ``hold-your-hat-cards=generated_words,deck_size=16`` (a file option by its file's stem)."""
    if not options:
        return f"{name}-default"
    parts = []
    for key, value in options.items():
        if isinstance(value, str) and Path(value).is_absolute():
            value = Path(value).stem
        parts.append(f"{key}={_SAFE.sub('+', str(value))}")
    return f"{name}-" + ",".join(parts)


def playthroughs() -> list[Playthrough]:
    """Every golden file there should be: one per conformance config of every game."""
    return [Playthrough(config_id(name, options), name, options)
            for name, configs in GAME_CONFIGS.items() for options in configs]


# -- playing -----------------------------------------------------------------------------------------------------


@dataclass
class Step:
    """One applied action: who took it, what it was, what was legal then, what it did, and (for the actions
    written in full) every viewer's view afterwards."""

    seat: int
    action: Any
    legal: list[Any]
    events: list[Event]
    views: list[dict[str, Any]] | None


@dataclass
class Played:
    notation: str  # the initial state notation
    setup: list[Event]
    initial_views: list[dict[str, Any]]
    steps: list[Step]
    final: Any  # the state after the last action
    final_views: list[dict[str, Any]]


def realtime_input(game: Game[Any, Any], state: Any, rng: random.Random, now: int
                   ) -> tuple[int, Any, list[Any], int]:
    """The next input of a seeded random real-time game, at a time drawn like the conformance suite's
    ``realtime_step``: 40% the same instant, 40% 1 to 1500 ms later, 20% 2 to 60 s later. If the game's deadline
    comes by then, the clock's ``tick`` at that deadline (seat ``CLOCK``); otherwise a random actor's random legal
    action stamped with the time. Returns the seat, the action, what was legal and the new time."""
    roll = rng.random()
    t = now if roll < 0.4 else now + rng.randint(1, 1500) if roll < 0.8 else now + rng.randint(2000, 60000)
    due = game.deadline(state)
    if due is not None and due <= t:
        tick_time = max(due, now)
        return CLOCK, game.tick(tick_time), [], tick_time
    seat = rng.choice(sorted(game.actors(state)))
    legal = list(game.legal_actions(state, seat))
    return seat, game.at(rng.choice(legal), t), legal, t


def play(game: Game[Any, Any], config: Any, seed: int) -> Played:
    """A seeded random game to its end (or ``MAX_ACTIONS``): in a turn-based game the lowest seat that may act
    takes a random legal action; in a real-time game see ``realtime_input``. Views are kept for the first
    ``SHOWN_ACTIONS`` actions only."""
    state, setup = game.new_with_events(config, seed)
    viewers = (*range(game.num_players(config)), None)
    notation = game.state_notation(state)
    initial_views = [game.view(state, viewer) for viewer in viewers]
    rng = random.Random(seed)
    now = 0
    steps: list[Step] = []
    while game.outcome(state) is None and len(steps) < MAX_ACTIONS:
        if game.realtime:
            seat, action, legal, now = realtime_input(game, state, rng, now)
        else:
            seat = min(game.actors(state))
            legal = list(game.legal_actions(state, seat))
            action = rng.choice(legal)
        events = game.apply(state, seat, action)
        views = [game.view(state, viewer) for viewer in viewers] if len(steps) < SHOWN_ACTIONS else None
        steps.append(Step(seat, action, legal, events, views))
    return Played(notation, setup, initial_views, steps, state, [game.view(state, viewer) for viewer in viewers])


# -- writing -----------------------------------------------------------------------------------------------------


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, UTF-8 text as it is."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _viewer(viewer: int | None) -> str:
    return "spectator" if viewer is None else str(viewer)


def _who(viewers: Sequence[int | None], everyone: int) -> str:
    """``everyone``, ``seat 0``, ``seats 1, 2, 3``, ``spectator`` or ``seats 1, 2, spectator``."""
    if len(viewers) == everyone:
        return "everyone"
    seats = [str(viewer) for viewer in viewers if viewer is not None]
    words = ([("seat " if len(seats) == 1 else "seats ") + ", ".join(seats)] if seats else [])
    words += ["spectator"] if None in viewers else []
    return ", ".join(words)


def _grouped(texts: dict[int | None, str], indent: str) -> list[str]:
    """One line per distinct text, naming the viewers who read it (in viewer order)."""
    groups: dict[str, list[int | None]] = {}
    for viewer, text in texts.items():
        groups.setdefault(text, []).append(viewer)
    return [f"{indent}{_who(viewers, len(texts))}: {text}" for text, viewers in groups.items()]


def _event_lines(game: Game[Any, Any], events: Sequence[Event], viewers: Sequence[int | None]) -> list[str]:
    lines = []
    for event in events:
        lines.append(f"  event {event.kind}")
        lines += _grouped({viewer: game.format_event(event, viewer) for viewer in viewers}, "    ")
    return lines


def _static_fields(views: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The view fields that have one and the same value in every view given."""
    first = views[0]
    return {key: first[key] for key in sorted(first)
            if all(key in view and canonical(view[key]) == canonical(first[key]) for view in views)}


def _view_lines(views: Sequence[dict[str, Any]], viewers: Sequence[int | None], static: dict[str, Any]
                ) -> list[str]:
    """The spectator's view in full (but for the static fields), then each seat's view as the fields in which it
    differs from the spectator's (``without`` names a spectator field the seat's view lacks)."""
    spectator = views[viewers.index(None)]
    lines = [f"  view spectator: {canonical({k: v for k, v in spectator.items() if k not in static})}"]
    for index, viewer in enumerate(viewers):
        if viewer is None:
            continue
        view = views[index]
        own = {key: value for key, value in view.items()
               if key not in static and (key not in spectator or canonical(spectator[key]) != canonical(value))}
        missing = [key for key in sorted(spectator) if key not in view]
        lines.append(f"  view {viewer}: {canonical(own)}" + (f" without {canonical(missing)}" if missing else ""))
    return lines


def _size(lines: Sequence[str]) -> int:
    return sum(len(line.encode("utf-8")) + 1 for line in lines)


def _step_title(game: Game[Any, Any], number: int, step: Step) -> str:
    who = "clock" if step.seat == CLOCK else f"seat {step.seat}"
    return f"step {number} · {who} · {game.format_action(step.action)}"


def _step_lines(game: Game[Any, Any], number: int, step: Step, viewers: Sequence[int | None],
                static: dict[str, Any]) -> list[str]:
    lines = ["", _step_title(game, number, step)]
    if step.seat != CLOCK:
        lines.append(f"  legal ({len(step.legal)}): " + " | ".join(game.format_action(a) for a in step.legal))
        seen = {viewer: game.public_action(step.action, viewer, step.seat) for viewer in viewers}
        if any(text != game.format_action(step.action) for text in seen.values()):
            lines += _grouped(seen, "  action as read by ")
    lines += _event_lines(game, step.events, viewers)
    assert step.views is not None
    lines += _view_lines(step.views, viewers, static)
    return lines


def transcript(name: str, options: dict[str, Any], seed: int = SEED) -> str:
    """The playthrough of game ``name`` under ``options`` (a conformance config) from ``seed``, as text."""
    game = get_game(name)
    config = game.make_config(options)
    viewers: list[int | None] = [*range(game.num_players(config)), None]
    played = play(game, config, seed)
    steps = played.steps
    static = _static_fields([*played.initial_views, *(v for s in steps if s.views for v in s.views),
                             *played.final_views])
    outcome = game.outcome(played.final)
    total = len(steps)
    resolved = {option["name"]: getattr(config, option["name"]) for option in game.options()}
    if game.realtime:
        how = ("real-time: times are the caller's clock in ms, drawn from the generator (40% the same instant, "
               "40% 1-1500 ms later, 20% 2-60 s later); a random seat that may act takes a random legal action "
               "stamped with that time (game.at), unless the game's deadline comes first: then the clock applies "
               "game.tick at the deadline (seat CLOCK, written 'clock').")
    else:
        how = "turn-based: at each step the lowest seat that may act takes a random legal action."

    def header(shown: int) -> list[str]:
        if shown == total:
            cap = f"not capped: all {total} actions of the game are written in full."
        else:
            cap = (f"capped: the game took {total} actions; the first {shown} are written in full (at most "
                   f"{SHOWN_ACTIONS}, and only as many as keep the file within {FILE_BYTES // 1000} KB), the rest "
                   f"by their notation only (at most {LISTED_ACTIONS}), then the end of the game.")
        return [
            f"divedeck playthrough {config_id(name, options)}",
            f"regenerate: {REGENERATE}  (compared by tests/test_playthroughs.py; review changes as a diff)",
            f"game: {name}",
            f"options: {canonical(_portable(options))}",
            f"config: {canonical(_portable(resolved))}",
            f"seed: {seed}  (game.new's seed and the seed of the random.Random that picks the actions)",
            f"players: {game.num_players(config)}",
            f"play: {how}",
            cap,
            "views: game.view after each step written in full, as canonical JSON (sorted keys): the spectator's whole, "
            "then one line "
            "per seat with only the fields where that seat's view differs from the spectator's (what the seat alone "
            "sees; 'without' names a spectator field its view lacks). Fields with one value in every view of this "
            "file are written once here and left out below:",
            f"static view fields: {canonical(static)}",
            "",
            f"initial state: {played.notation}",
            "setup:",
            *_event_lines(game, played.setup, viewers),
            *_view_lines(played.initial_views, viewers, static),
        ]

    def tail(shown: int) -> list[str]:
        lines = []
        if shown < total:
            lines += ["", f"actions {shown + 1} to {total}, notation only:"]
            listed = steps[shown:shown + LISTED_ACTIONS]
            lines += [_step_title(game, number, step) for number, step in enumerate(listed, start=shown + 1)]
            if shown + len(listed) < total:
                lines.append(f"... and {total - shown - len(listed)} more")
        lines += ["", f"end after {total} actions: " + (
            "the game is over." if outcome is not None else f"the game had not ended after {MAX_ACTIONS} actions.")]
        if outcome is not None:
            lines.append(f"outcome: {canonical(outcome.to_dict())}")
        lines.append(f"final state: {game.state_notation(played.final)}")
        return lines + _view_lines(played.final_views, viewers, static)

    # The steps written in full: at most SHOWN_ACTIONS, and as many as fit in FILE_BYTES beside the rest of the file
    # (sized as if no step were shown, about the most the rest can take).
    size = _size(header(0)) + _size(tail(0))
    body: list[str] = []
    shown = 0
    for number, step in enumerate(steps[:SHOWN_ACTIONS], start=1):
        block = _step_lines(game, number, step, viewers, static)
        if size + _size(block) > FILE_BYTES:
            break
        body += block
        size += _size(block)
        shown = number
    lines = header(shown) + body + tail(shown)
    text = "\n".join(lines) + "\n"
    if any(len(path) > 1 and path in text for path in (str(ROOT), str(Path.home()))):
        raise AssertionError(f"the playthrough of {config_id(name, options)} names a path of this machine")
    return text
