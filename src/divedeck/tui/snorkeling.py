"""Snorkeling in the terminal: centre pile, personal piles, scores and your hand, from a seat's view."""

from __future__ import annotations

from typing import Any

from rich.color import Color, ColorParseError
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..games.snorkeling.actions import parse_action
from ..games.snorkeling.cards import load_cards
from ..games.snorkeling.presentation import action_label
from .seats import numbered

_FALLBACK_STYLE = "bold"


def _card_styles() -> dict[str, tuple[str, str]]:
    """Colour letter -> (Rich style, symbol). Every card shows its symbol too: colour is never the only cue."""
    styles = {}
    for color in load_cards().colors:
        name = {"purple": "magenta"}.get(color.name, color.name)
        try:
            Color.parse(name)
            style = f"bold {name}"
        except ColorParseError:
            style = _FALLBACK_STYLE
        styles[color.letter] = (style, color.symbol)
    return styles


_STYLES = _card_styles()
_LANTERNFISH = load_cards().lanternfish_name


def card_text(label: str) -> Text:
    """The card's label as the log writes it (``Y3``), in its colour, after its colour's symbol."""
    style, symbol = _STYLES.get(label[0], (_FALLBACK_STYLE, label[0]))
    return Text(f"{symbol}{label}", style=style)


def cards_text(labels: list[str], separator: str = " ") -> Text:
    text = Text()
    for i, label in enumerate(labels):
        if i:
            text.append(separator)
        text.append_text(card_text(label))
    return text or Text("-", style="dim")


def render_snorkeling(view: dict[str, Any], names: list[str]) -> RenderableType:
    seat = view["seat"]
    active = view["active"]
    header = Text(f"Round {view['round']}", style="bold")
    if view["winners"]:
        winners = " and ".join(names[seat] for seat in view["winners"])
        header.append(f" · game over: {winners} won", style="bold green")
    elif active is not None:
        header.append(f" · {names[active]} to play")

    center = view["center"]
    played = view["turn"]["center_played"]
    center_line = Text("Centre  ")
    shown = center[-6:]
    if len(center) > len(shown):
        center_line.append(f"({len(center) - len(shown)} below) ", style="dim")
    if len(shown) > 1:
        center_line.append_text(cards_text(shown[:-1]))
        center_line.append("  ")
    center_line.append("top ")
    center_line.append_text(card_text(center[-1]))
    center_line.append(f"   deck {view['deck_size']}", style="dim")
    if played:
        center_line.append(f"\n        this turn: {played} card(s) on top of ", style="dim")
        center_line.append_text(card_text(view["turn"]["t0"]))

    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column("seat")
    table.add_column("score", justify="right")
    table.add_column("pile (bottom → top)")
    table.add_column("top", justify="right")
    table.add_column("hand", justify="right")
    for other in range(len(view["scores"])):
        name = Text(numbered(names, other), style="bold reverse" if other == active else "")
        pile = Text(_LANTERNFISH, style="dim")
        if view["piles"][other]:
            pile.append(" ")
            pile.append_text(cards_text(view["piles"][other]))
        hand = Text(f"{view['hand_sizes'][other]} cards")
        if view["known_in_hand"][other] and other != seat:
            hand.append(" incl. ")
            hand.append_text(cards_text(view["known_in_hand"][other]))
        table.add_row(name, str(view["scores"][other]), pile, str(view["pile_tops"][other]), hand)

    parts: list[RenderableType] = [header, center_line, table]
    if seat is not None:
        hand_line = Text("Your hand  ", style="bold")
        hand_line.append_text(cards_text(view["hand"], "  "))
        parts.append(hand_line)
    return Group(*parts)


def describe_snorkeling_action(notation: str, names: list[str]) -> str:
    """What a move does, in the words of the browser's action labels."""
    return action_label(parse_action(notation), load_cards().name, lambda owner: f"{names[owner]}'s")
