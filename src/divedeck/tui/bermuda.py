"""Bermuda in the terminal: a picture of a seat's view, and its keys for the real-time loop (``tui/realtime.py``,
``play bermuda --solo``)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .seats import numbered

STATUS = {
    "hidden": ("face down", "dim"),
    "empty": ("empty: any card starts it", ""),
    "building": ("building", "cyan"),
    "complete": ("complete: exactly deep enough", "bold green"),
    "too_long": ("too long: lost", "bold red"),
    "broken": ("a bad step: lost", "bold red"),
}
REASONS = {"bad_step": "a bad step", "empty": "no card", "too_short": "too short", "too_long": "too long"}


def _cards(cards: list[int], depth: int | None = None, bad: list[int] | None = None) -> Text:
    text = Text()
    for i, card in enumerate(cards, 1):
        if i > 1:
            text.append(" ")
        text.append(str(card), style="bold red" if bad and i in bad else "bold")
    if depth is not None and len(cards) < depth:
        text.append(("  " if cards else "") + " ".join("_" for _ in range(depth - len(cards))), style="dim")
    return text or Text("-", style="dim")


def _treasure(treasure: dict[str, Any] | None) -> Text:
    if treasure is None:
        return Text("? (face down)", style="dim")
    return Text.assemble((treasure["name"], "bold yellow"), f" {treasure['id']}")


def _score_line(view: dict[str, Any]) -> Text:
    if view["challenge"] == "chained":
        return Text(f"successful dives {view['dives']} · treasures {view['treasures_won']}", style="bold")
    if view["challenge"] == "one_round":
        return Text(f"treasures {view['treasures_won']}", style="bold")
    return Text(f"treasures won {view['treasures_won']} · Keeper's protection {view['protection']}", style="bold")


def render_bermuda(view: dict[str, Any], names: list[str]) -> RenderableType:
    """The columns under their treasures (depth, protection, cards, how they stand), scores, hand, last result."""
    challenge = {"chained": "single-breath challenge", "one_round": "single-breath round"}.get(view["challenge"] or "")
    header = Text("Bermuda", style="bold")
    header.append(f" · {challenge}" if challenge else f" · round {view['round']} of {view['rounds']}")
    header.append("  ")
    header.append_text(_score_line(view))
    table = Table(box=None, pad_edge=False, show_edge=False)
    for title in ("col", "treasure", "depth", "prot.", "cards (first laid first)", "stands"):
        table.add_column(title)
    for column in view["columns"]:
        treasure = column["treasure"]
        depth = treasure["depth"] if treasure else None
        status, style = STATUS[column["status"]]
        if column["status"] == "building":
            status += ": next " + " or ".join(map(str, column["accepts"]))
        table.add_row(str(column["column"]), _treasure(treasure), "?" if depth is None else str(depth),
                      "?" if treasure is None else str(treasure["protection"]), _cards(column["cards"], depth),
                      Text(status, style=style))
    parts: list[RenderableType] = [header, table]
    if view.get("hand") is not None:
        hand = Text("Your hand  ", style="bold")
        hand.append_text(_cards(view["hand"]) if view["hand"] else Text("(empty)", style="dim"))
        parts.append(hand)
    if view["players"] > 1:
        holding = ", ".join(numbered(names, s) for s, held in enumerate(view["holding"]) if held) or "nobody"
        parts.append(Text(f"Holding their breath: {holding}", style="dim"))
    last = view["last_result"]
    if last:
        parts.append(Text("Last dive:", style="bold"))
        for column in last["columns"]:
            line = Text("  ")
            line.append_text(_treasure(column["treasure"]))
            line.append(f" (depth {column['treasure']['depth']})  ")
            line.append_text(_cards(column["cards"], None, column["bad_steps"]))
            if column["won"]:
                line.append("  won", style="bold green")
            else:
                line.append("  lost: " + ", ".join(REASONS[r] for r in column["reasons"]), style="bold red")
            parts.append(line)
    return Group(*parts)


class BermudaKeys:
    """Bermuda's keys in the real-time loop (``tui/realtime.py``). A terminal cannot tell when a key is let go,
    so the breath is a toggle: SPACE takes a deep breath and holds it, SPACE again breathes out. A digit lays that
    card; with several columns a second digit says under which."""

    help = "SPACE: take a deep breath / breathe out   1-9: lay that card   s: sort (if allowed)"
    quiet = frozenset({"hold", "lay"})

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.pending: int | None = None  # a card chosen, waiting for its column (only with several columns)

    def press(self, view: dict[str, Any], key: str) -> tuple[str | None, Text | None]:
        if key == " ":
            self.pending = None
            return ("release" if view["holding"][self.seat] else "hold"), None
        if key in ("s", "S"):
            return "sort", None
        if not key.isdigit() or key == "0":
            return None, None
        if view["phase"] == "prepare":
            return None, Text("Cards go down during the dive: take a deep breath first (SPACE).", style="cyan")
        columns = len(view["columns"])
        if self.pending is not None:
            card, self.pending = self.pending, None
            return f"lay {card} c{key}", None
        if columns == 1:
            return f"lay {key} c1", None
        self.pending = int(key)
        return None, Text(f"Lay {key} under which column (1-{columns})?", style="cyan")

    def prompt(self, view: dict[str, Any], now: int) -> Text:
        if view["phase"] == "dive":
            text = Text(f"DIVING {(now - view['t0']) / 1000:5.1f} s", style="bold reverse cyan")
            if view["deadline"] is not None:
                text.append(f" (time limit in {(view['deadline'] - now) / 1000:.1f} s)")
            text.append("  type a card's value to lay it · SPACE breathes out and ends the dive")
            return text
        if view["dive_at"] is not None:
            return Text(f"Holding your breath... the dive starts in {(view['dive_at'] - now) / 1000:.1f} s "
                        "(SPACE breathes out)", style="bold yellow")
        sort = " · s sorts your hand" if view["sorting_allowed"] and view["hand"] != sorted(view["hand"]) else ""
        return Text(f"Look at your hand. SPACE takes a deep breath and holds it{sort}.", style="bold")
