"""Hold Your Breath! in the terminal: the depth board, every Swim Pile, the turn's Air and Swim, and your hand,
from a seat's view."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

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


def _cards_by_label(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {card["label"]: card for card in view["cards"]}


def card_text(label: str, cards: dict[str, dict[str, Any]], *, uses: bool = False) -> Text:
    """A card as its label in its kind's style; with ``uses``, also what it may be played as."""
    info = cards.get(label, {"kind": "", "value": None, "icon": None, "name": label})
    text = Text(label, style=_KIND_STYLES.get(info["kind"], "bold"))
    if uses:
        if info["kind"] in ("air", "swim"):
            text.append(f" {info['kind'].capitalize()} {info['value']} or {str(info['icon']).capitalize()}",
                        style="dim")
        elif info["kind"] == "dolphin":
            text.append(" any card", style="dim")
        else:
            text.append(f" {info['name']}", style="dim")
    return text


def _pile_text(items: list[dict[str, Any]], cards: dict[str, dict[str, Any]]) -> Text:
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
            text.append_text(card_text(entry["card"], cards))
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
    cards = _cards_by_label(view)
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
        table_line.append_text(card_text(view["discard"][-1], cards))
    if active is not None and not view["winners"]:
        table_line.append(f"   this turn: Air {turn['air']} · Swim {turn['swim']} → move {turn['move']} ft")

    # The board keeps its full width (one character per 5 ft); names and Swim Piles wrap instead on a narrow screen.
    board = Table(box=None, pad_edge=False, show_edge=False)
    board.add_column("diver", overflow="fold", max_width=16)
    board.add_column("surface → depth", no_wrap=True, min_width=_BOARD_CELLS + 1)
    board.add_column("ft", justify="right")
    board.add_column("⚓", justify="right")
    board.add_column("Swim Pile", overflow="fold")
    board.add_column("hand", justify="right")
    if view["distances"] is not None:
        board.add_column("total", justify="right")
    anchors = view["anchors"]
    for other in range(view["players"]):
        name = Text(names[other], style="bold reverse" if other == active else "")
        if other in view["surfaced"]:
            name.append(f" ↑{view['surfaced'].index(other) + 1}", style="bold green")  # surfaced, and in which order
        row: list[Any] = [
            name,
            _gauge(view["depths"][other], anchors[other] if anchors else None, view["max_depth"]),
            str(view["depths"][other]),
            "-" if anchors is None else str(anchors[other]),
            _pile_text(view["piles"][other], cards),
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
            hand_line.append_text(card_text(label, cards, uses=True))
        if not view["hand"]:
            hand_line.append("empty", style="dim")
        parts.append(hand_line)
        if view.get("kraken_given"):
            given = Text("Set aside for the Kraken: ")
            given.append_text(card_text(view["kraken_given"], cards))
            parts.append(given)
    return Group(*parts)


def describe_hold_your_breath_action(notation: str, names: list[str]) -> str:
    words = notation.split()
    verb = words[0]
    if verb == "end":
        return "stop playing cards: move, then finish the turn"
    if verb == "keep":
        return "keep the rest of your hand and refill it"
    if verb in ("gasp", "drop", "lose"):
        return {"gasp": "lay {} face down in your Swim Pile as a Panic", "drop": "discard {}",
                "lose": "give up {} to the Kraken"}[verb].format(words[1])
    card, _, target_text = words[1].partition(">")
    target = names[int(target_text)] if target_text else ""
    if verb in ("air", "swim"):
        value = f" as {verb.capitalize()} {words[2]}" if len(words) > 2 else ""
        return f"{'breathe' if verb == 'air' else 'swim'} with {card}{value}"
    if verb == "draw":
        return f"use {card} to draw a card"
    if verb == "discard":
        return f"use {card}: {target} discards a random card"
    if verb == "calm":
        item, _, receiver = words[2].partition(">")
        if receiver:
            return f"use {card} to calm the Shark (hindrance {item}) onto {names[int(receiver)]}"
        return f"use {card} to calm hindrance {item} of your Swim Pile"
    if verb == "panic":
        return f"put {card} on {target} as a Panic"
    if verb == "shark":
        return f"put {card} on {target} as the Shark"
    if verb == "kraken":
        return f"use {card} as the Kraken: chase {target}'s Shark away"
    return f"use {card} as the Kraken: everyone with a full hand discards a card"
