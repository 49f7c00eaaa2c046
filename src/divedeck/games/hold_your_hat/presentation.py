"""Hold your Hat in player words: legal actions as records, the one log writer, and the static data of a config.

The browser and the terminal render what these return and hold no rule of their own: how many words EXTRA TIME
draws (HYH-R30), which team a button is for, what a log line says, all come from here.
"""

from __future__ import annotations

from typing import Any

from ...engine.records import ActionRecord, LogPart, seat, text
from .actions import (
    Action,
    Binoculars,
    EndTurn,
    ExtraTime,
    Foul,
    Got,
    Guess,
    Order,
    Raid,
    Skip,
    Start,
    Theft,
    TheftVerdict,
    format_action,
    team_letter,
)
from .config import HoldYourHatConfig
from .rules_sheet import rules_sheet
from .state import ROUND_TYPES, SPECIAL_NAMES, SPECIAL_ORDER, HoldYourHatState

ROUND_NAMES = {
    "describe": ("Describe", "Describe the word with as many words as you like, but no form of the word itself."),
    "one word": ("One word", "One clue of a single word per card. Teammates may guess as often as they like."),
    "mime": ("Mime", "No words at all: gestures, faces and sounds only."),
}
# Each team's colour on screen, with its letter beside it so that colour is never the only cue.
TEAM_COLORS = ("#ff9f43", "#5fa8ff", "#3ddc97", "#b78cff", "#ff6b6b", "#ffd84d")
WORD_COLORS = {"red": "#ff6b6b", "orange": "#ff9f43", "yellow": "#ffd84d", "green": "#3ddc97", "blue": "#5fa8ff",
               "purple": "#b78cff"}
SPECIAL_HELP = {"B": "the clue-giver sees the top five word cards before the timer and may reorder them",
                "E": "after the timer runs out: a few more words and the timer again",
                "S": "set the current word aside and take the next one",
                "T": "one guess at another team's word, during their turn",
                "R": "before another team's turn: guess their words too"}
TURN_END_REASONS = {"timeout": "time is up", "no_words": "no word left to explain this turn",
                    "round_complete": "the last word of the round is won"}


def team_name(team: int) -> str:
    return f"team {team_letter(team)}"


def team_title(team: int) -> str:
    """A team's name at the start of a sentence or on a button."""
    return f"Team {team_letter(team)}"


def static_data(config: HoldYourHatConfig) -> dict[str, Any]:
    """What a page needs once: the teams (names, colours, members), the rounds, the colours and the word list."""
    table = config.table
    return {
        "teams": [{"team": t, "letter": team_letter(t), "name": team_title(t), "color": TEAM_COLORS[t],
                   "members": list(members)} for t, members in enumerate(config.members())],
        "rounds": [{"type": kind, "name": ROUND_NAMES[kind][0], "help": ROUND_NAMES[kind][1]}
                   for kind in ROUND_TYPES[:config.rounds]],
        "word_colors": WORD_COLORS,
        "specials": [{"letter": letter, "name": SPECIAL_NAMES[letter], "help": SPECIAL_HELP[letter]}
                     for letter in SPECIAL_ORDER],
        "words": {"language": table.language, "cards": len(table), "in_game": config.deck_size},
        "turn_ms": config.turn_seconds * 1000,
        "judging": config.judging,
        "party": config.party,
        "rules": rules_sheet(config),
    }


# -- action records --------------------------------------------------------------------------------------------------


def _label(state: HoldYourHatState, seat_: int, action: Action) -> str:
    active = state.active
    match action:
        case Start():
            return "Start the timer"
        case Binoculars():
            return f"Play BINOCULARS: the clue-giver sees the top {min(5, len(state.deck))} cards"
        case Order():
            return "Put the cards back in this order"
        case Raid(team=team):
            return f"{team_title(team)}: play RAID"
        case Guess():
            return "Guess the word" if state.context.team_of[seat_] == active else "Guess the word (RAID)"
        case Got(team=team):
            return "Got it!" if team == active else f"{team_title(team)} got it (RAID)"
        case Theft():
            return "Play THEFT: one guess at their word"
        case TheftVerdict(team=team, right=right):
            return f"{team_title(team)}'s THEFT: {'right' if right else 'wrong'}"
        case Skip():
            return "Skip (SKIP card)"
        case Foul():
            return "Foul: a clue broke the rules"
        case ExtraTime():  # HYH-R30: at most extra_time_words, and no more than the deck holds
            words = min(state.context.config.extra_time_words, len(state.deck))
            return f"Play EXTRA TIME ({words} more word{'s' if words != 1 else ''})"
        case EndTurn():
            return "End the turn"
    return format_action(action)


def action_record(state: HoldYourHatState, seat_: int, action: Action) -> ActionRecord:
    """``action`` (legal for ``seat_``) as a record; its target is the team it names, its cards the words it moves
    (the BINOCULARS cards in their new order, which only the clue-giver arranging them sees)."""
    cards: list[str] = []
    if isinstance(action, Order):
        top_first = [state.entry(card)[0] for card in reversed(state.deck[-state.peek:])]
        cards = [top_first[position - 1] for position in action.order]
    target = getattr(action, "team", None)
    return {"notation": format_action(action), "kind": type(action).__name__.lower(), "cards": cards,
            "target": target, "label": _label(state, seat_, action)}


# -- the log ---------------------------------------------------------------------------------------------------------


def _quoted(word: str) -> str:
    return f"\u201c{word}\u201d"


def _teams(teams: list[int]) -> str:
    return " and ".join(team_letter(t) for t in teams)


def _guess_parts(shown: dict[str, Any], head: list[LogPart]) -> list[LogPart]:
    result = shown["result"]
    said = shown["said"] or shown.get("text")
    words = f" {_quoted(said)}" if said else ""
    if result == "blank":
        return [*head, text(" without a word: wrong" if shown["kind"] == "theft" else " guessed nothing")]
    if shown["kind"] == "theft":
        return [*head, text(f"{words}: {result}")]
    if result == "wrong":
        return [*head, text(f" guessed{words}: {'close!' if shown.get('close') else 'no'}")]
    if result == "ignored":
        return [*head, text(f" guessed{words} again: {team_name(shown['team'])} already claims this word")]
    return [*head, text(f" guessed{words}: right!")]


def log_parts(shown: dict[str, Any]) -> list[LogPart]:
    """The log line of an event as one seat received it (``Event.for_seat``): it can show nothing that seat may not
    see. Seats are parts (the reader's own seat reads "you"), teams are named by letter."""
    kind = shown["kind"]
    team = team_name(shown["team"]) if "team" in shown else ""
    by: list[LogPart] = [seat(shown["seat"])] if "seat" in shown else []
    match kind:
        case "game_start":
            # Seats as parts, so every reader sees the names the table shows (never the wire's numbers).
            parts = [text(f"a game of {shown['words']} words in {shown['color']}, {shown['rounds']} round(s)")]
            for t, members in enumerate(shown["teams"]):
                parts.append(text(f"; {team_name(t)}: "))
                for i, member in enumerate(members):
                    parts.extend([text(", ")] * bool(i) + [seat(member)])
            return parts
        case "round_start":
            return [text(f"round {shown['round']} ({shown['type']}) begins with {team}")]
        case "turn_start":
            return [text(f"{team}'s turn, clues by "), seat(shown["clue_giver"])]
        case "timer":
            return [*by, text(" started the timer")]
        case "word" if "word" in shown:
            hat = f", {shown['points']} points, {shown['words']} words" if shown["points"] > 1 else ""
            return [text(f"your word: {_quoted(shown['word'])}{hat}")]
        case "word":
            return [text(f"a new word is being explained ({shown['deck']} left in the deck)")]
        case "binoculars":
            seen = f": you see {', '.join(shown['cards'])}" if "cards" in shown else ""
            return [*by, text(f" played BINOCULARS: the clue-giver looks at the top {shown['count']} cards{seen}")]
        case "order":
            return [*by, text(" put the top cards back in a new order")]
        case "raid":
            return [text(f"{team} played RAID: they guess too this turn")]
        case "guess":
            return _guess_parts(shown, by)
        case "theft":
            return _guess_parts(shown, [text(f"{team} played THEFT")])
        case "got":
            return [*by, text(f" confirmed that {team} said it")]
        case "claim":
            return [text(f"{team} claims the word" if shown["opened"] else f"{team} claims it at the same time")]
        case "won":
            points = "1 point" if shown["points"] == 1 else f"{shown['points']} points"
            contest = f" (claimed by {_teams(shown['claimed_by'])} at once)" if len(shown["claimed_by"]) > 1 else ""
            return [text(f"{team} won {_quoted(shown['word'])}, {points}{contest}")]
        case "skip" | "foul":
            word = f" on {_quoted(shown['word'])}" if "word" in shown else ""
            head = f"{team} played SKIP" if kind == "skip" else "foul"
            return [text(f"{head}{word}: the word is set aside")]
        case "clue":
            return [*by, text(f": {_quoted(shown['text'])}")]
        case "timeout":
            return [text("time is up!")]
        case "extra_time_offer":
            return [text(f"{team} may play EXTRA TIME")]
        case "extra_time":
            return [text(f"{team} played EXTRA TIME: {shown['words']} more word(s) and the timer again")]
        case "decline":
            return [text(f"{team} ends the turn without EXTRA TIME")]
        case "turn_end":
            back = f"; {shown['returned']} word(s) go under the deck" if shown["returned"] else ""
            return [text(f"{team}'s turn is over ({TURN_END_REASONS[shown['reason']]}){back}")]
        case "special_reshuffle":
            return [text(f"the used special cards were shuffled into a new deck of {shown['deck']}")]
        case "special_draw":
            return [text(f"{team} drew {shown['card']}")]
        case "no_special":
            return [text(f"no special card left for {team}")]
        case "round_end":
            points = ", ".join(f"{team_letter(t)} +{p}" for t, p in enumerate(shown["points"]))
            totals = ", ".join(f"{team_letter(t)} {p}" for t, p in enumerate(shown["totals"]))
            return [text(f"round {shown['round']} over: {points} -> totals {totals}")]
        case "game_over":
            best = shown["totals"][shown["winners"][0]]
            if len(shown["winners"]) > 1:
                return [text(f"game over: teams {_teams(shown['winners'])} share the victory with {best} points")]
            return [text(f"game over: {team_name(shown['winners'][0])} won with {best} points")]
    return [text(kind)]
