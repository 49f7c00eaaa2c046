"""Hold your Hat's guided first game: one describing round with three word bots, two teams of two, and a hint for
each moment in player words. Hold your Hat is real-time: the bots give clues and guess meanwhile.

Every hint reads only what the seat's view shows (the clue-giver's word, the clues given, the won cards): as
clue-giver, start the timer, then the clue a word bot would type for the word (``bots.clue_script``, which the
association data guarantees passes HYH-R24), and pass a word when there is nothing more to say; as guesser, the
guess a word bot would make from the clues shown so far (``bots.Knowledge``, knowing every link, no noise); while
another team plays, watch (and what a held RAID or THEFT would do)."""

from __future__ import annotations

from functools import cache
from typing import Any

from .actions import Clue, EndTurn, ExtraTime, Foul, Guess, Skip, Start
from .associations import load_associations
from .bots import Knowledge, _won, clue_script
from .rules import GUESS_PACE_MS
from .state import DECISION, EXTRA, MAIN, OVER, PRE, HoldYourHatState
from .words import COLORS

GUIDE: dict[str, Any] = {
    "seed": 20261203,
    # Two teams of two, one describing round, six words, a long sand timer; your team starts and you give the clues.
    "options": {"num_players": 4, "teams": 2, "rounds": 1, "deck_size": 6, "turn_seconds": 90, "first_team": 0,
                "clue_giver_rotation": "per_turn", "color": "blue", "guess_judging": "auto", "party": False},
    "seats": [{"kind": "human", "name": "You"}, {"kind": "bot", "bot": "words", "name": "Marina"},
              {"kind": "bot", "bot": "words", "name": "Coral"}, {"kind": "bot", "bot": "words", "name": "Finn"}],
    "intro": "One describing round: you and Marina (team A) against Coral and Finn (team B). You give the first "
             "clues: describe the word on your card without saying it, and your teammate guesses. Follow the hints.",
}

REACTION_MS = 200  # a hinted move comes at least this long after the moment it was hinted at
GOAL = "Each word your team guesses is worth its points; the team with the most points wins."


@cache
def _knowledge(cards: str | None, color: int) -> Knowledge:
    from .words import load_words

    return Knowledge(load_words(cards), load_associations(cards), color)


def _script(state: HoldYourHatState, view: dict[str, Any], text: str) -> list[str]:
    config = state.context.config
    found = load_associations(config.cards).get(text)
    if found is None:
        return []
    knowledge = _knowledge(config.cards, COLORS.index(view["color"]))
    return clue_script(found, view["round"], knowledge.telling)


def _good_guess(state: HoldYourHatState, view: dict[str, Any], seat: int) -> str | None:
    """The entry the clues shown so far bring to mind most strongly, after the ones this seat already tried at this
    clue (a guesser knows its own wrong guesses) and the words won this round."""
    knowledge = _knowledge(state.context.config.cards, COLORS.index(view["color"]))
    scored = sorted(knowledge.scores(view["clues"], _won(view)), key=lambda pair: (-pair[0], pair[1]))
    tried = state.misses[seat]
    return scored[tried][1] if tried < len(scored) else None


def _paced(state: HoldYourHatState, seat: int) -> bool:
    """``seat`` guessed too recently to guess again a moment from now (HYH-A26: a guess a second at most)."""
    last = state.guessed[seat]
    return last >= 0 and state.now + REACTION_MS < last + GUESS_PACE_MS


def _stuck(state: HoldYourHatState, view: dict[str, Any], seat: int) -> bool:
    """The clue-giver's teammates need another clue: one of them guessed wrong at the last clue (the log shows
    judged guesses to everyone), or nothing the clues say brings a word to mind."""
    team = state.context.team_of[seat]
    guessers = [other for other in state.context.members[team] if other != seat]
    if any(state.misses[other] for other in guessers):
        return True
    knowledge = _knowledge(state.context.config.cards, COLORS.index(view["color"]))
    return not knowledge.scores(view["clues"], _won(view))


def _specials(view: dict[str, Any]) -> str:
    held = view["teams"][view["team"]]["held"] if view["team"] is not None else []
    notes = []
    if "RAID" in held:
        notes.append("Your team holds a RAID card: played before another team's turn, it lets your team guess that "
                     "team's words too.")
    if "THEFT" in held:
        notes.append("Your team holds a THEFT card: during another team's turn it lets you type one guess at their "
                     "word, and a right one wins the word for your team.")
    return (" " + " ".join(notes)) if notes else ""


def hint(game: Any, state: HoldYourHatState, seat: int) -> dict[str, Any] | None:
    view: dict[str, Any] = dict(game.view(state, seat))
    if state.phase == OVER:
        totals = ", ".join(f"team {'ABCDEF'[t['team']]} {t['total']}" for t in view["teams"])
        return {"text": f"The game is over: {totals}. Start a real game from the lobby when ready.",
                "notation": None}
    legal = game.legal_actions(state, seat)
    giver = view["clue_giver"] == seat
    ours = view["team"] == view["active_team"]
    active = "ABCDEF"[view["active_team"]]
    if state.phase == PRE:
        if giver and Start() in legal:
            return {"text": "It is your turn to give clues. Turning the sand timer shows you the first word; your "
                            "teammates must not see it. Describe each word without saying it, and your team "
                            f"guesses as many as it can before the sand runs out. {GOAL} Good move: start the turn.",
                    "notation": "start"}
        who = "your teammate" if ours else f"team {active}"
        return {"text": f"Waiting for {who} to turn the sand timer.{_specials(view)}", "notation": None}
    if state.phase == DECISION:
        if EndTurn() in legal and giver:
            extra = (" Your team's EXTRA TIME card would draw a few more words to guess now; keep it for a later "
                     "turn." if ExtraTime() in legal else "")
            return {"text": "The sand has run out: the word you were describing goes back into the deck."
                            f"{extra} Good move: end the turn.", "notation": "end"}
        return {"text": "The sand has run out: waiting for the turn to end.", "notation": None}
    if state.phase not in (MAIN, EXTRA):
        return None
    if view["claim"]:
        return {"text": "Someone just guessed the word: a moment while the game checks the guesses.",
                "notation": None}
    if giver:
        word = view.get("word")
        if word is None:
            return {"text": "No word left to describe: waiting for the turn to end.", "notation": None}
        clues = view["clues"]
        script = [clue for clue in _script(state, view, word["text"]) if clue not in clues]
        if view["clue_allowed"] and script and clues and not _stuck(state, view, seat):
            return {"text": f"Your word is \u201c{word['text']}\u201d. Give your teammate a moment to guess from "
                            "your clues (their guesses appear in the log).", "notation": None}
        if view["clue_allowed"] and script:
            clue = script[0]
            first = "Type a clue that describes it without saying the word or a part of it" if not clues else \
                "Your teammate has not found it yet: add another clue"
            points = "1 point" if word["points"] == 1 else f"{word['points']} points"
            return {"text": f"Your word is \u201c{word['text']}\u201d ({points}). {first}, for "
                            f"example \u201c{clue}\u201d. Good move: give the clue \u201c{clue}\u201d.",
                    "notation": str(Clue(clue))}
        if Skip() in legal and word["points"] > 1:
            return {"text": f"Nothing more to say about \u201c{word['text']}\u201d: your SKIP card puts it back "
                            "without a penalty. Good move: skip the word.", "notation": "skip"}
        if Foul() in legal:
            return {"text": f"Nothing more to say about \u201c{word['text']}\u201d: pass it (it is set aside until "
                            "the next turn) and go on with the next word. Good move: pass the word.",
                    "notation": "foul"}
        return {"text": "Waiting for your teammates' guesses.", "notation": None}
    if ours:
        if not view["clues"]:
            return {"text": "Your clue-giver is reading the word: watch the clues appear, then type your guess.",
                    "notation": None}
        guess = _good_guess(state, view, seat) if Guess() in legal else None
        if guess is None or _paced(state, seat):
            return {"text": "Read the clues so far and wait for the next one.", "notation": None}
        said = "; ".join(f"\u201c{clue}\u201d" for clue in view["clues"])
        return {"text": f"The clues so far: {said}. Which word fits them? Type your guess; a wrong guess costs "
                        f"nothing. Good move: guess \u201c{guess}\u201d.", "notation": str(Guess(guess))}
    return {"text": f"Team {active} is playing: watch their clues and guesses. Your team plays next.{_specials(view)}",
            "notation": None}
