"""Hold Your Breath!'s actions and their notation: one frozen record per kind of decision.

A turn is several decisions (HYB-R10..R26): plays, then ``end``, then the end-of-turn choices the rules leave to the
player. Cards are named by their label (``A5D``, ``S10P``, ``SH``, ``KR``, ``DO``; see ``cards.py``).

| notation          | action                                                                            |
|-------------------|-----------------------------------------------------------------------------------|
| ``air A5D``       | ``Air``: play an Air card for its value (HYB-R10); a Dolphin names it: ``air DO 10`` |
| ``swim S10C``     | ``Swim``: play a Swim card for its value (HYB-R11); ``swim DO 5``                  |
| ``draw A5D``      | ``Draw``: the Draw icon, draw the top card of the Dive Deck (HYB-R12)              |
| ``discard A5X>2`` | ``Discard``: a Discard icon on seat 2, a random card of its hand is discarded      |
| ``calm S5C 0``    | ``Calm``: a Calm icon on hindrance 0 of your Swim Pile (0 = the bottom one)         |
| ``calm S5C 1>3``  | the same on a Shark, which moves to seat 3's Swim Pile (HYB-R12, HYB-A23)          |
| ``panic A5P>1``   | ``Panic``: the card goes face up in seat 1's Swim Pile as a Panic (HYB-R12)        |
| ``shark SH>1``    | ``Shark``: the Shark (or a Dolphin) goes in seat 1's Swim Pile (HYB-R12)           |
| ``kraken KR>2``   | ``Kraken``: the Kraken sends seat 2's Shark to the Discard Pile (HYB-R12)          |
| ``mass KR``       | ``Mass``: the Kraken's other use, everyone holding a full hand discards a card     |
| ``end``           | ``EndPlay``: stop playing cards, move, then the end of the turn (HYB-R14, HYB-R20)  |
| ``gasp S10C``     | ``Gasp``: the breath penalty, that card face down in your Swim Pile (HYB-R23)      |
| ``drop A5D``      | ``Drop``: after moving, discard a card from your hand (HYB-R24); repeat for more   |
| ``keep``          | ``Keep``: keep the rest of your hand and replenish it (HYB-R24, HYB-R25)           |
| ``lose A5D``      | ``Lose``: a victim of the Kraken's mass discard gives up that card (HYB-R12)       |

A card play's ``verb`` is the use it makes of the card, as the deck data names the uses a face allows
(``cards.CardTable.face_verbs``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from ...engine.errors import MalformedInput
from ...engine.notation import is_number
from .cards import DOLPHIN

_LABEL = re.compile(r"^(?:[AS]\d{1,3}[DXCPHK]|SH|KR|DO)$")


@dataclass(frozen=True, slots=True)
class _ForValue:
    """A card played for its value; ``value`` is what a Dolphin is declared as, 0 for a printed card (HYB-R13)."""

    card: str
    value: int = 0
    verb: ClassVar[str]

    def __str__(self) -> str:
        return f"{self.verb} {self.card} {self.value}" if self.value else f"{self.verb} {self.card}"


@dataclass(frozen=True, slots=True)
class Air(_ForValue):
    """A card played for Air (HYB-R10)."""

    verb: ClassVar[str] = "air"


@dataclass(frozen=True, slots=True)
class Swim(_ForValue):
    """A card played for Swim (HYB-R11)."""

    verb: ClassVar[str] = "swim"


@dataclass(frozen=True, slots=True)
class _ForAction:
    """A card played for an action that names nothing more."""

    card: str
    verb: ClassVar[str]

    def __str__(self) -> str:
        return f"{self.verb} {self.card}"


@dataclass(frozen=True, slots=True)
class Draw(_ForAction):
    """The Draw icon: the top card of the Dive Deck to the hand (HYB-R12, HYB-A27)."""

    verb: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Mass(_ForAction):
    """The Kraken's mass discard: each player holding a full hand gives up a card (HYB-R12, HYB-A19)."""

    verb: ClassVar[str] = "mass"


@dataclass(frozen=True, slots=True)
class _OnSeat:
    """A card played for an action on seat ``target``."""

    card: str
    target: int
    verb: ClassVar[str]

    def __str__(self) -> str:
        return f"{self.verb} {self.card}>{self.target}"


@dataclass(frozen=True, slots=True)
class Discard(_OnSeat):
    """The Discard icon: a random card of the target's hand is discarded (HYB-R12, HYB-A17, HYB-A18)."""

    verb: ClassVar[str] = "discard"


@dataclass(frozen=True, slots=True)
class Panic(_OnSeat):
    """The card face up in the target's Swim Pile as a Panic (HYB-R12, HYB-A21)."""

    verb: ClassVar[str] = "panic"


@dataclass(frozen=True, slots=True)
class Shark(_OnSeat):
    """The card in the target's Swim Pile as the Shark (HYB-R12, HYB-A22)."""

    verb: ClassVar[str] = "shark"


@dataclass(frozen=True, slots=True)
class Kraken(_OnSeat):
    """The Kraken chases the target's Shark to the Discard Pile (HYB-R12, HYB-A20)."""

    verb: ClassVar[str] = "kraken"


@dataclass(frozen=True, slots=True)
class Calm:
    """A Calm on hindrance ``item`` of the player's own Swim Pile; a calmed Shark moves to ``target`` (-1: to the
    Discard Pile) (HYB-R12, HYB-A23, HYB-A24)."""

    card: str
    item: int
    target: int = -1
    verb: ClassVar[str] = "calm"

    def __str__(self) -> str:
        return f"calm {self.card} {self.item}>{self.target}" if self.target >= 0 else f"calm {self.card} {self.item}"


@dataclass(frozen=True, slots=True)
class EndPlay:
    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Keep:
    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class Gasp:
    """The breath penalty: ``card`` face down in the player's Swim Pile as a Panic (HYB-R23)."""

    card: str
    private_fields: ClassVar[tuple[str, ...]] = ("card",)  # face down: its owner alone knows it

    def __str__(self) -> str:
        return f"gasp {self.card}"


@dataclass(frozen=True, slots=True)
class Drop:
    card: str

    def __str__(self) -> str:
        return f"drop {self.card}"


@dataclass(frozen=True, slots=True)
class Lose:
    """A Kraken victim's card, set aside face down until every victim has chosen (HYB-R12)."""

    card: str
    private_fields: ClassVar[tuple[str, ...]] = ("card",)  # face down: its owner alone knows it

    def __str__(self) -> str:
        return f"lose {self.card}"


Valued = Air | Swim
Targeted = Discard | Panic | Shark | Kraken
Play = Air | Swim | Draw | Mass | Discard | Panic | Shark | Kraken | Calm
Action = Play | EndPlay | Keep | Gasp | Drop | Lose

END = EndPlay()
KEEP = Keep()

VALUED: tuple[type[Valued], ...] = (Air, Swim)
TARGETED: tuple[type[Targeted], ...] = (Discard, Panic, Shark, Kraken)
PLAIN: tuple[type[Draw | Mass], ...] = (Draw, Mass)
PLAYS: dict[str, type[Play]] = {kind.verb: kind for kind in (*VALUED, *PLAIN, *TARGETED, Calm)}


@cache
def cached(kind: type, *fields: str | int) -> Action:
    """The action ``kind(*fields)``, built once: listing legal actions then allocates none (search bots list them
    thousands of times a second). A deck has a few thousand distinct plays."""
    action: Action = kind(*fields)
    return action


_CARD_ONLY: dict[str, type[Gasp | Drop | Lose]] = {"gasp": Gasp, "drop": Drop, "lose": Lose}
_HELP = ("write e.g. 'air A5D', 'air DO 10', 'swim S10C', 'draw A5D', 'discard A5X>2', 'calm S5C 0', "
         "'panic A5P>1', 'shark SH>1', 'kraken KR>2', 'mass KR', 'end', 'gasp S5D', 'drop A5D', 'keep' or "
         "'lose A5D'")


def parse_action(text: str) -> Action:
    """Parse the notation above; whitespace and letter case are forgiven, anything else is ``MalformedInput``."""
    if not isinstance(text, str):
        raise MalformedInput(f"an action is text, not {type(text).__name__}")
    words = text.strip().split()
    if not words:
        raise MalformedInput(f"an empty action; {_HELP}")
    verb = words[0].lower()
    kind = PLAYS.get(verb)
    if len(words) == 1 and verb in ("end", "keep"):
        return END if verb == "end" else KEEP
    if verb in _CARD_ONLY and len(words) == 2:
        return _CARD_ONLY[verb](_card(words[1], text))
    if kind in VALUED and len(words) in (2, 3):
        card = _card(words[1], text)
        if card == DOLPHIN:
            if len(words) != 3 or not is_number(words[2]) or int(words[2]) == 0:
                raise MalformedInput(f"a Dolphin played for {verb} names its value, like '{verb} DO 10'")
            return kind(card, int(words[2]))  # type: ignore[call-arg]
        if len(words) == 3:
            raise MalformedInput(f"only a Dolphin names a value; {card} has its own: write '{verb} {card}'")
        return kind(card)  # type: ignore[call-arg]
    if kind in PLAIN and len(words) == 2:
        return kind(_card(words[1], text))  # type: ignore[call-arg]
    if kind in TARGETED and len(words) == 2:
        card, sep, target = words[1].partition(">")
        if sep and is_number(target):
            return kind(_card(card, text), int(target))  # type: ignore[call-arg]
        raise MalformedInput(f"{verb} names its target seat, like '{verb} {card or 'A5P'}>1'")
    if kind is Calm and len(words) == 3:
        item, sep, target = words[2].partition(">")
        if is_number(item) and (not sep or is_number(target)):
            return Calm(_card(words[1], text), int(item), int(target) if sep else -1)
    raise MalformedInput(f"not a Hold Your Breath! action: {text!r}; {_HELP}")


def _card(word: str, text: str) -> str:
    card = word.upper()
    if not _LABEL.match(card):
        raise MalformedInput(f"not a card in {text!r}: {word!r} (a card is like A5D, S10P, SH, KR or DO)")
    return card
