"""Hold Your Breath! in the terminal: the depth board, every Swim Pile, the turn's Air and Swim, and your hand,
from a seat's view."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..games.hold_your_breath.actions import parse_action
from ..games.hold_your_breath.cards import label_card, label_name
from ..games.hold_your_breath.presentation import describe_action
from .seats import numbered

# Every card shows its label and words too: colour is never the only cue.
_KIND_STYLES = {"air": "bold cyan", "swim": "bold green", "shark": "bold red", "kraken": "bold magenta",
                "dolphin": "bold yellow"}
_PHASE_TEXT = {
    "play": "playing cards",
    "kraken": "the Kraken's victims choose a card to discard",
    "breath": "no Air this turn: choosing a card to lay face down as a Panic",
    "discard": "discarding before refilling the hand",
}
_BOARD_CELLS = 31  # the default board's 0..150 ft in 5-ft spaces; other boards are scaled to it


def card_text(label: str, *, uses: bool = False) -> Text:
    """A card as its label in its kind's style; with ``uses``, also what it may be played as."""
    kind, value, icon = label_card(label)
    text = Text(label, style=_KIND_STYLES[kind])
    if uses:
        if value:
            text.append(f" {kind.capitalize()} {value} or {icon.capitalize()}", style="dim")
        elif kind == "dolphin":
            text.append(" any card", style="dim")
        else:
            text.append(f" {label_name(label)}", style="dim")
    return text


def _pile_text(items: list[dict[str, Any]]) -> Text:
    if not items:
        return Text("clear", style="dim")
    text = Text()
    for index, entry in enumerate(items):
        if index:
            text.append("  ")
        text.append(f"{index}:", style="dim")
        if entry["kind"] == "shark":
            text.append("Shark", style="bold red")
        elif entry["face_down"]:
            text.append("Panic▮", style="bold red")
        else:
            text.append("Panic", style="bold red")
        if entry["card"]:
            text.append("(")
            text.append_text(card_text(entry["card"]))
            text.append(")")
    return text


def _gauge(depth: int, anchor: int | None, max_depth: int) -> Text:
    """The depth board as a line: the surface on the left, the pirate (P) and the anchor (⚓) where they are."""
    cells = ["·"] * _BOARD_CELLS

    def cell(feet: int) -> int:
        return round(feet * (_BOARD_CELLS - 1) / max_depth) if max_depth else 0

    if anchor is not None:
        cells[cell(anchor)] = "⚓"
    text = Text("≈", style="cyan")
    pirate = cell(depth)
    for index, mark in enumerate(cells):
        text.append("P" if index == pirate else mark, style="bold yellow" if index == pirate else "blue")
    return text


def render_hold_your_breath(view: dict[str, Any], names: list[str]) -> RenderableType:
    seat = view["seat"]
    active = view["active"]
    stage = "Descent (diving down)" if view["round"] == "descent" else "Ascent (racing up)"
    header = Text(stage, style="bold")
    if view["winners"]:
        winners = " and ".join(names[s] for s in view["winners"])
        header.append(f" · game over: {winners} won", style="bold green")
    elif active is not None:
        waiting = view["actors"] if view["phase"] == "kraken" else [active]
        header.append(f" · {', '.join(names[s] for s in waiting)}: {_PHASE_TEXT[view['phase']]}")
    final = view["final"]
    if final["trigger"] is not None and not view["winners"]:
        header.append(f" · final turns: {final['turns_left']} left, {names[final['trigger']]} last",
                      style="bold magenta")

    turn = view["turn"]
    table_line = Text(f"Dive Deck {view['deck_size']}   Discard Pile {len(view['discard'])}", style="dim")
    if view["discard"]:
        table_line.append("  top ", style="dim")
        table_line.append_text(card_text(view["discard"][-1]))
    if active is not None and not view["winners"]:
        table_line.append(f"   this turn: Air {turn['air']} · Swim {turn['swim']} → move {turn['move']} ft")

    # The board keeps its full width (one character per 5 ft); names and Swim Piles wrap instead on a narrow screen.
    board = Table(box=None, pad_edge=False, show_edge=False)
    board.add_column("seat", overflow="fold", max_width=18)
    board.add_column("surface → depth", no_wrap=True, min_width=_BOARD_CELLS + 1)
    board.add_column("ft", justify="right")
    board.add_column("⚓", justify="right")
    board.add_column("Swim Pile", overflow="fold")
    board.add_column("hand", justify="right")
    if view["distances"] is not None:
        board.add_column("total", justify="right")
    anchors = view["anchors"]
    for other in range(view["players"]):
        name = Text(numbered(names, other), style="bold reverse" if other == active else "")
        if other in view["surfaced"]:
            name.append(f" ↑{view['surfaced'].index(other) + 1}", style="bold green")  # surfaced, and in which order
        row: list[Any] = [
            name,
            _gauge(view["depths"][other], anchors[other] if anchors else None, view["max_depth"]),
            str(view["depths"][other]),
            "-" if anchors is None else str(anchors[other]),
            _pile_text(view["piles"][other]),
            str(view["hand_sizes"][other]),
        ]
        if view["distances"] is not None:
            row.append(str(view["distances"][other]))
        board.add_row(*row)

    parts: list[RenderableType] = [header, table_line, board]
    if view["kraken"]:
        waiting = ", ".join(names[s] for s in view["kraken"]["waiting"])
        parts.append(Text(f"The Kraken waits for: {waiting}", style="bold magenta"))
    if seat is not None:
        hand_line = Text("Your hand  ", style="bold")
        for index, label in enumerate(view["hand"]):
            if index:
                hand_line.append("   ")
            hand_line.append_text(card_text(label, uses=True))
        if not view["hand"]:
            hand_line.append("empty", style="dim")
        parts.append(hand_line)
        if view.get("kraken_given"):
            given = Text("Set aside for the Kraken: ")
            given.append_text(card_text(view["kraken_given"]))
            parts.append(given)
    return Group(*parts)


def describe_hold_your_breath_action(notation: str, names: list[str]) -> str:
    return describe_action(parse_action(notation), names.__getitem__)
