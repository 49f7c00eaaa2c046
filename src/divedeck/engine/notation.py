"""The notation kit: reading and writing a game's one-line state notation the same way in every game.

A state line is the game's name and then ``name=value`` fields. Card lists are comma-separated (``-`` for none);
``?N`` stands for N cards the writer's seat cannot see and ``?`` for all the rest; ``rng=`` is ``seed:counter``, or
``?`` in a seat's copy. ``NotationFields`` reads typed values from the fields with clear errors, ``CardPool`` hands
out named cards and fills unknowns from what is left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .config import build_config, option_bounds
from .errors import ConfigError, MalformedInput
from .rng import SeededRng


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits: ``str.isdigit`` also takes superscripts such as ``²``,
    which ``int`` then refuses with a ValueError instead of the notation's one-line error."""
    return text.isascii() and text.isdecimal()


class NotationFields:
    """The fields of one state line (``fields``) for a table of ``n`` seats, read with clear errors."""

    fields: dict[str, str]
    n: int

    def per_seat(self, name: str, default: str) -> list[str]:
        parts = self.fields.get(name, "/".join([default] * self.n)).split("/")
        if len(parts) != self.n:
            raise MalformedInput(f"{name}= must have {self.n} parts separated by '/', one per seat")
        return parts

    def number(self, name: str, default: int) -> int:
        text = self.fields.get(name)
        if text is None:
            return default
        if not is_number(text):
            raise MalformedInput(f"{name}= must be a whole number, not {text!r}")
        return int(text)

    def seat(self, name: str, default: int) -> int:
        seat = self.number(name, default)
        if seat >= self.n:
            raise MalformedInput(f"{name}= must be a seat from 0 to {self.n - 1}")
        return seat


def read_state_line(text: object, game_name: str, known: tuple[str, ...],
                    required: tuple[str, ...] = ()) -> dict[str, str]:
    """The ``name=value`` fields of a state line that starts with ``game_name``, each known and given once."""
    if not isinstance(text, str):
        raise MalformedInput("a state notation is text")
    words = text.split()
    if not words or words[0] != game_name:
        raise MalformedInput(f"a {game_name} state notation starts with {game_name!r}")
    fields: dict[str, str] = {}
    for word in words[1:]:
        name, sep, value = word.partition("=")
        if not sep or name not in known:
            raise MalformedInput(f"unknown field {word!r}; the fields are {', '.join(known)}")
        if name in fields:
            raise MalformedInput(f"field {name}= appears twice")
        fields[name] = value
    for name in required:
        if name not in fields:
            raise MalformedInput(f"the notation needs a {name}= field")
    return fields


def write_state_line(game_name: str, fields: Mapping[str, str]) -> str:
    """A state line: the game's name, then each field as ``name=value`` in the order given."""
    return game_name + " " + " ".join(f"{name}={value}" for name, value in fields.items())


def rng_field(rng: SeededRng, masked: bool) -> str:
    """The ``rng=`` value: ``seed:counter``, or ``?`` in a seat's copy (the seed would foretell every shuffle)."""
    return "?" if masked else rng.notation()


def read_rng(fields: Mapping[str, str]) -> SeededRng:
    """The state's RNG from ``rng=`` (absent or ``?``: a fixed one, as a seat's copy cannot know it)."""
    text = fields.get("rng", "0:0")
    try:
        return SeededRng.from_notation("0:0" if text == "?" else text)
    except ValueError:
        raise MalformedInput(f"rng= must be seed:counter, not {text!r}") from None


def unknown_count(word: str) -> int | None:
    """``?N`` -> N unseen cards, ``?`` -> -1 (all the rest), anything else -> ``None`` (a named card)."""
    if not word.startswith("?"):
        return None
    if word == "?":
        return -1
    if is_number(word[1:]):
        return int(word[1:])
    raise MalformedInput(f"{word!r} is not an unknown count (write ?N, or ? for all the rest)")


class CardPool:
    """The cards a state line may still use: each named card is taken from it (a copy too many is an error), and
    unknowns (``?N``) are filled afterwards from what is left, in card order, which gives one state consistent with
    what a seat's copy shows."""

    def __init__(self, cards: Iterable[int], label: Callable[[int], str], by_label: Mapping[str, int],
                 what: str = "card") -> None:
        self.left = Counter(cards)
        self.label = label
        self.by_label = by_label
        self.what = what

    def take(self, text: str) -> int:
        card = self.by_label.get(text)
        if card is None:
            raise MalformedInput(f"{text!r} is not a {self.what} of this game")
        if self.left[card] <= 0:
            raise MalformedInput(f"more copies of {text} than the game has")
        self.left[card] -= 1
        return card

    def fill(self, count: int) -> list[int]:
        """``count`` unseen cards from what is left (``-1``: all of it), in card order."""
        remaining = sorted(self.left.elements())
        if count < 0:
            count = len(remaining)
        if count > len(remaining):
            raise MalformedInput(f"{count} unknown {self.what}s, but only {len(remaining)} are left")
        chosen = remaining[:count]
        self.left.subtract(chosen)
        return chosen

    def remaining(self) -> int:
        return sum(self.left.values())


def format_cards(cards: Iterable[int], label: Callable[[int], str], hidden: int = 0) -> str:
    """Cards as ``A,B,C`` (``-`` for none), followed by ``?N`` for ``hidden`` unseen ones."""
    parts = [label(card) for card in cards]
    if hidden:
        parts.append(f"?{hidden}")
    return ",".join(parts) or "-"


def config_for_seats(config_type: type, config: Any, seats: int, field: str = "hands") -> Any:
    """The config a state line of ``seats`` seats (counted in its ``field=``) is read with: ``config`` if it is for
    that many, else the defaults for that many players; ``MalformedInput`` if the game has no such config."""
    if config is None:
        low, high = option_bounds(config_type, "num_players")
        if (low is not None and seats < low) or (high is not None and seats > high):
            raise MalformedInput(f"{field}= must list {low} to {high} {field}, not {seats}")
        try:
            return build_config(config_type, {"num_players": seats})
        except ConfigError as error:
            raise MalformedInput(str(error)) from None
    if config.num_players != seats:
        raise MalformedInput(f"the notation has {seats} {field} but the config is for {config.num_players} players")
    return config
