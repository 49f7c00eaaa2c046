"""Hold Your Breath!'s actions and their notation.

A turn is several decisions (HYB-R10..R26): plays, then ``end``, then the end-of-turn choices the rules leave to the
player. Cards are named by their label (``A5D``, ``S10P``, ``SH``, ``KR``, ``DO``; see ``cards.py``).

| notation          | action                                                                            |
|-------------------|-----------------------------------------------------------------------------------|
| ``air A5D``       | play an Air card for its value (HYB-R10); a Dolphin names its value: ``air DO 10`` |
| ``swim S10C``     | play a Swim card for its value (HYB-R11); ``swim DO 5``                            |
| ``draw A5D``      | use the card's Draw icon: draw the top card of the Dive Deck (HYB-R12)              |
| ``discard A5X>2`` | use a Discard icon on seat 2: a random card of its hand is discarded (HYB-R12)     |
| ``calm S5C 0``    | use a Calm icon on hindrance 0 of your Swim Pile (0 = the bottom one) (HYB-R12)     |
| ``calm S5C 1>3``  | the same on a Shark, which moves to seat 3's Swim Pile (HYB-R12, HYB-A23)          |
| ``panic A5P>1``   | put the card face up in seat 1's Swim Pile as a Panic (HYB-R12)                    |
| ``shark SH>1``    | put the Shark (or a Dolphin) in seat 1's Swim Pile (HYB-R12)                       |
| ``kraken KR>2``   | the Kraken sends seat 2's Shark to the Discard Pile (HYB-R12)                      |
| ``mass KR``       | the Kraken's other use: everyone holding a full hand discards one card (HYB-R12)   |
| ``end``           | stop playing cards: move, then the end of the turn (HYB-R14, HYB-R20)              |
| ``gasp S10C``     | the breath penalty: lay that card face down in your Swim Pile as a Panic (HYB-R23) |
| ``drop A5D``      | after moving, discard a card from your hand (HYB-R24); repeat for more             |
| ``keep``          | keep the rest of your hand and replenish it (HYB-R24, HYB-R25)                     |
| ``lose A5D``      | a victim of the Kraken's mass discard gives up that card (HYB-R12, HYB-A19)        |
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ...engine.errors import MalformedInput
from .cards import DOLPHIN

# Verbs whose card goes onto another seat's pile or acts on another seat: they name it with ``>seat``.
TARGETED = ("discard", "panic", "shark", "kraken")
VALUED = ("air", "swim")
PLAIN = ("draw", "mass")

_LABEL = re.compile(r"^(?:[AS]\d{1,3}[DXCPHK]|SH|KR|DO)$")


@dataclass(frozen=True, slots=True)
class Play:
    """A card played during ``PLAY``: for its value (``air``/``swim``) or for an action."""

    verb: str
    card: str
    value: int = 0  # the value a Dolphin is declared as, for air and swim; 0 otherwise
    target: int = -1  # the seat acted on; -1 when none
    item: int = -1  # calm: the index of the hindrance in the player's own Swim Pile

    def __str__(self) -> str:
        if self.verb in VALUED:
            return f"{self.verb} {self.card} {self.value}" if self.value else f"{self.verb} {self.card}"
        if self.verb == "calm":
            return f"calm {self.card} {self.item}" + (f">{self.target}" if self.target >= 0 else "")
        if self.verb in TARGETED:
            return f"{self.verb} {self.card}>{self.target}"
        return f"{self.verb} {self.card}"


@cache
def play(verb: str, card: str, value: int = 0, target: int = -1, item: int = -1) -> Play:
    """The ``Play`` with these fields, built once: listing legal actions then allocates none (search bots list
    them thousands of times a second). There are a few thousand distinct plays in a deck."""
    return Play(verb, card, value, target, item)


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
    card: str

    def __str__(self) -> str:
        return f"gasp {self.card}"


@dataclass(frozen=True, slots=True)
class Drop:
    card: str

    def __str__(self) -> str:
        return f"drop {self.card}"


@dataclass(frozen=True, slots=True)
class Lose:
    card: str

    def __str__(self) -> str:
        return f"lose {self.card}"


Action = Play | EndPlay | Keep | Gasp | Drop | Lose

END = EndPlay()
KEEP = Keep()

_CARD_ONLY: dict[str, type[Gasp] | type[Drop] | type[Lose]] = {"gasp": Gasp, "drop": Drop, "lose": Lose}
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
    if len(words) == 1 and verb in ("end", "keep"):
        return END if verb == "end" else KEEP
    if verb in _CARD_ONLY and len(words) == 2:
        return _CARD_ONLY[verb](_card(words[1], text))
    if verb in VALUED and len(words) in (2, 3):
        card = _card(words[1], text)
        if card == DOLPHIN:
            if len(words) != 3 or not words[2].isdigit() or int(words[2]) == 0:
                raise MalformedInput(f"a Dolphin played for {verb} names its value, like '{verb} DO 10'")
            return Play(verb, card, value=int(words[2]))
        if len(words) == 3:
            raise MalformedInput(f"only a Dolphin names a value; {card} has its own: write '{verb} {card}'")
        return Play(verb, card)
    if verb in PLAIN and len(words) == 2:
        return Play(verb, _card(words[1], text))
    if verb in TARGETED and len(words) == 2:
        card, sep, target = words[1].partition(">")
        if sep and target.isdigit():
            return Play(verb, _card(card, text), target=int(target))
        raise MalformedInput(f"{verb} names its target seat, like '{verb} {card or 'A5P'}>1'")
    if verb == "calm" and len(words) == 3:
        item, sep, target = words[2].partition(">")
        if item.isdigit() and (not sep or target.isdigit()):
            return Play("calm", _card(words[1], text), item=int(item), target=int(target) if sep else -1)
    raise MalformedInput(f"not a Hold Your Breath! action: {text!r}; {_HELP}")


def _card(word: str, text: str) -> str:
    card = word.upper()
    if not _LABEL.match(card):
        raise MalformedInput(f"not a card in {text!r}: {word!r} (a card is like A5D, S10P, SH, KR or DO)")
    return card
