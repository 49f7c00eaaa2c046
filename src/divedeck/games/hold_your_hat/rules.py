"""Hold your Hat's rules (HYH-R1..R43, variant HYH-V1): setup, legality, time, and what each action does.

Legality is written once, in ``problem``: it returns the reason an action is refused (with its rule ID) or
``None``. ``legal_actions`` lists the structural actions ``problem`` accepts; ``check`` and ``apply`` call it too,
after letting every deadline up to the action's time fire on a copy of the state (HYH-R6), so a rejected action
changes nothing and an action stamped at or after a deadline meets the state the deadline left.
"""

from __future__ import annotations

from itertools import permutations

from ...engine.errors import IllegalAction, MalformedInput
from ...engine.events import Event, LooseEvent
from ...engine.game import CLOCK
from ...engine.outcome import Outcome
from ...engine.rng import SeededRng
from . import judging
from .actions import MISS, OK, Act, team_letter
from .config import HoldYourHatConfig
from .state import (
    DECISION,
    EXTRA,
    MAIN,
    OVER,
    PRE,
    ROUND_TYPES,
    SPECIAL_NAMES,
    HoldYourHatState,
    context_for,
    replaced,
    sort_specials,
    special_deck,
)
from .words import COLORS

BINOCULARS_PEEK = 5  # HYH-R11

START = Act("start")
BINOCULARS = Act("binoculars")
SKIP = Act("skip")
FOUL = Act("foul")
EXTRA_TIME = Act("extra")
END = Act("end")
GUESS = Act("guess")  # the blank form: a seat offered it may type a guess
_ORDERS = {k: tuple(Act("order", order=p) for p in permutations(range(1, k + 1))) for k in range(1, 6)}
_RAID = tuple(Act("raid", team=t) for t in range(6))
_GOT = tuple(Act("got", team=t) for t in range(6))
_THEFT = tuple(Act("theft", team=t) for t in range(6))
_THEFT_OK = tuple(Act("theft", team=t, verdict=OK) for t in range(6))
_THEFT_MISS = tuple(Act("theft", team=t, verdict=MISS) for t in range(6))


# -- setup (HYH-R2, HYH-R3, HYH-V1) ------------------------------------------------------------------------------


def new_state(config: HoldYourHatConfig, seed: int) -> tuple[HoldYourHatState, list[Event]]:
    context = context_for(config)
    teams = context.teams
    state = object.__new__(HoldYourHatState)
    state.context = context
    rng = SeededRng(seed)
    cards = list(range(len(context.table)))
    rng = rng.shuffle(cards)  # HYH-R2.1: the top deck_size cards (the end of the list) are the game's words
    state.word_set = tuple(sorted(cards[len(cards) - config.deck_size:]))
    if config.color == "random":  # HYH-R2.2
        colors = list(range(len(COLORS)))
        rng = rng.shuffle(colors)
        state.color = colors[-1]
    else:
        state.color = COLORS.index(config.color)
    specials = special_deck()
    held = [""] * teams
    if config.start_with_raid:  # HYH-V1: one RAID each, face up, before the shuffle
        for team in range(teams):
            specials.remove("R")
            held[team] = "R"
    rng = rng.shuffle(specials)  # HYH-R2.3
    state.rng = rng
    state.specials = "".join(specials)
    state.discard = ""
    state.held = tuple(held)
    state.scores = tuple((0,) * config.rounds for _ in range(teams))  # HYH-R2.4
    state.pointers = (0,) * teams
    state.round = 1
    state.active = config.first_team  # HYH-R2.5
    state.now = 0
    state.turns = 0
    events: list[Event] = [LooseEvent("game_start", {
        "teams": [list(m) for m in context.members], "color": COLORS[state.color], "rounds": config.rounds,
        "words": config.deck_size, "held": list(state.held)})]
    _setup_round(state, events)
    return state, events


def _reset_turn(state: HoldYourHatState) -> None:
    state.current = -1
    state.aside = ()
    state.extra = ()
    state.raiders = 0
    state.used_binoculars = False
    state.used_extra = False
    state.peek = 0
    state.claim = ()
    state.clued = 0
    state.timer = -1


def _setup_round(state: HoldYourHatState, events: list[Event]) -> None:
    """HYH-R3: the same word set, shuffled into the word deck; the round's first team enters PRE_TURN."""
    deck = list(state.word_set)
    state.rng = state.rng.shuffle(deck)
    state.deck = tuple(deck)
    state.won = ((),) * state.teams
    _reset_turn(state)
    state.phase = PRE
    events.append(LooseEvent("round_start", {"round": state.round, "type": ROUND_TYPES[state.round - 1],
                                        "team": state.active, "deck": len(deck)}))
    _turn_start(state, events)


def _turn_start(state: HoldYourHatState, events: list[Event]) -> None:
    events.append(LooseEvent("turn_start", {"team": state.active, "clue_giver": state.clue_giver(),
                                       "round": state.round}))


# -- who may do what (the one place legality is written) --------------------------------------------------------


def _fail(reason: str, rule: str) -> IllegalAction:
    return IllegalAction(reason, rule)


def _running(state: HoldYourHatState, rule: str, what: str) -> IllegalAction | None:
    if state.phase == PRE:
        return _fail(f"{what} only while the timer runs: the clue-giver has not started it yet", rule)
    if state.phase == DECISION:
        return _fail(f"the timer has run out: no {what} now (HYH-I6)", rule)
    if state.phase not in (MAIN, EXTRA):
        return _fail("the game is over", "HYH-R42")
    return None


def _team_ok(state: HoldYourHatState, team: int | None) -> IllegalAction | None:
    if team is None or not 0 <= team < state.teams:
        return _fail(f"there is no team {team_letter(team or 0)} in this game", "HYH-R1")
    return None


def _raiding(state: HoldYourHatState, team: int) -> bool:
    """``team`` raids and may guess now: RAIDs work in MAIN only, unless raid_in_extra_time (HYH-R30, HYH-A9)."""
    return bool(state.raiders >> team & 1) and (state.phase == MAIN or state.context.config.raid_in_extra_time)


def problem(state: HoldYourHatState, seat: int, action: Act) -> IllegalAction | None:
    """Why ``seat`` may not take ``action`` now (the state's deadlines have fired), or ``None``."""
    context = state.context
    if state.phase == OVER:
        return _fail("the game is over", "HYH-R42")
    if not 0 <= seat < context.seats:
        return _fail(f"there is no seat {seat} in this game", "HYH-R1")
    verb = action.verb
    team = context.team_of[seat]
    active = state.active
    clue_giver = state.clue_giver()
    held = state.held
    if verb == "start":
        if state.phase != PRE:
            return _fail("the timer has already been started this turn", "HYH-R12")
        if seat != clue_giver:
            return _fail(f"the clue-giver (seat {clue_giver}) starts the timer", "HYH-R12")
        if state.peek:
            return _fail("arrange the cards seen through BINOCULARS first", "HYH-R11")
        return None
    if verb == "binoculars":
        if team != active:
            return _fail("BINOCULARS is played on your own team's turn", "HYH-R11")
        if state.phase != PRE:
            return _fail("BINOCULARS is played before the timer starts", "HYH-R11")
        if "B" not in held[team]:
            return _fail("your team holds no BINOCULARS", "HYH-R11")
        if state.used_binoculars:
            return _fail("only one BINOCULARS per turn", "HYH-R11")
        return None
    if verb == "order":
        if state.phase != PRE or not state.peek:
            return _fail("there are no cards seen through BINOCULARS to arrange", "HYH-R11")
        if seat != clue_giver:
            return _fail("only the clue-giver sees and arranges the cards", "HYH-A12")
        if sorted(action.order) != list(range(1, state.peek + 1)):
            return _fail(f"give the {state.peek} cards' old positions (1 = top) in their new order, each once",
                         "HYH-R11")
        return None
    if verb == "raid":
        raider = action.team
        found = _team_ok(state, raider)
        if found:
            return found
        assert raider is not None
        if team != raider and not (context.party and seat == clue_giver):
            return _fail(f"only a member of team {team_letter(raider)} plays its RAID", "HYH-R1")
        if raider == active:
            return _fail("RAID is played before another team's turn, not your own", "HYH-R10")
        if state.phase != PRE:
            return _fail("RAID is played before the turn, until the timer starts", "HYH-R10")
        if "R" not in held[raider]:
            return _fail(f"team {team_letter(raider)} holds no RAID", "HYH-R10")
        if state.raiders >> raider & 1:
            return _fail(f"team {team_letter(raider)} already raids this turn", "HYH-A8")
        return None
    if verb == "guess":
        if context.judging != "auto":
            return _fail("guesses are spoken at this table: the clue-giver confirms them", "HYH-R27")
        found = _running(state, "HYH-R20", "guesses")
        if found:
            return found
        if seat == clue_giver:
            return _fail("the clue-giver does not guess", "HYH-A25")
        if team != active and not _raiding(state, team):
            if state.phase == EXTRA:
                return _fail("during EXTRA TIME only the active team guesses", "HYH-A9")
            return _fail("only the active team (and raiders) may guess", "HYH-R20")
        return None
    if verb == "got":
        guesser = action.team
        found = _team_ok(state, guesser) or _running(state, "HYH-R20", "guesses")
        if found:
            return found
        assert guesser is not None
        if seat != clue_giver:
            return _fail("the clue-giver confirms a spoken guess", "HYH-R27")
        if guesser != active and not _raiding(state, guesser):
            return _fail(f"team {team_letter(guesser)} is not guessing this turn", "HYH-R20")
        if state.claiming() >> guesser & 1:
            return _fail(f"team {team_letter(guesser)} already claims this word", "HYH-R28")
        return None
    if verb == "theft":
        thief = action.team
        found = _team_ok(state, thief)
        if found:
            return found
        assert thief is not None
        if action.verdict is not None:
            if context.judging != "clue_giver":
                return _fail("THEFT is typed by the stealing team at this table", "HYH-R27")
            if seat != clue_giver:
                return _fail("the clue-giver judges a spoken THEFT", "HYH-R27")
        else:
            if context.judging != "auto":
                return _fail("THEFT is spoken at this table: the clue-giver judges it", "HYH-R27")
            if team != thief:
                return _fail(f"only a member of team {team_letter(thief)} plays its THEFT", "HYH-R1")
        found = _running(state, "HYH-R21", "THEFT")
        if found:
            return found
        if thief == active:
            return _fail("THEFT is played during another team's turn", "HYH-R21")
        if "T" not in held[thief]:
            return _fail(f"team {team_letter(thief)} holds no THEFT", "HYH-R21")
        if state.claiming() >> thief & 1:
            return _fail(f"team {team_letter(thief)} already claims this word", "HYH-R21")
        return None
    if verb == "skip":
        found = _running(state, "HYH-R22", "SKIP")
        if found:
            return found
        if team != active:
            return _fail("SKIP is played on your own team's turn", "HYH-R22")
        if "S" not in held[team]:
            return _fail("your team holds no SKIP", "HYH-R22")
        if state.claim:
            return _fail("the word has been guessed: it is being claimed", "HYH-R28")
        return None
    if verb == "foul":
        found = _running(state, "HYH-R23", "fouls")
        if found:
            return found
        if seat != clue_giver:
            return _fail("the clue-giver reports a foul (agree on it aloud)", "HYH-R23")
        if state.claim:
            return _fail("the word has been guessed: it is being claimed", "HYH-R28")
        return None
    if verb == "clue":
        found = _running(state, "HYH-R24", "clues")
        if found:
            return found
        if seat != clue_giver:
            return _fail("only the clue-giver gives clues", "HYH-R24")
        text, _, alternates = state.entry(state.current)
        reason = judging.clue_problem(action.text or "", text, alternates, state.round, state.clued)
        if reason:
            return _fail(reason, "HYH-A21" if "one clue per word card" in reason else "HYH-R24")
        return None
    if verb in ("extra", "end"):
        rule = "HYH-R30" if verb == "extra" else "HYH-R32"
        if team != active:
            return _fail("only the active team decides about EXTRA TIME", rule)
        if state.phase != DECISION:
            if verb == "extra" and state.phase in (MAIN, EXTRA):
                return _fail("EXTRA TIME is played after the timer runs out", rule)
            return _fail("there is no EXTRA TIME decision to make now", rule)
        return None
    if verb == "tick":
        return _fail("only the clock ticks", "HYH-R6")
    raise MalformedInput(f"not a Hold your Hat action: {action!r}")


def _candidates(state: HoldYourHatState, seat: int) -> list[Act]:
    """The structural actions that could be legal for ``seat`` in this phase, in a stable order (``problem``
    decides; this only leaves out what the seat's role rules out, so that listing stays cheap)."""
    context = state.context
    team = context.team_of[seat]
    active = state.active
    giver = seat == state.clue_giver()
    phase = state.phase
    held = state.held
    if phase == PRE:
        out: list[Act] = []
        if giver and state.peek:
            out += _ORDERS[state.peek]
        elif giver:
            out.append(START)
        if team == active and "B" in held[team] and not state.peek:
            out.append(BINOCULARS)
        if giver and context.party:
            out += [_RAID[t] for t in range(state.teams) if t != active and "R" in held[t]]
        elif team != active and "R" in held[team]:
            out.append(_RAID[team])
        return out
    if phase in (MAIN, EXTRA):
        auto = context.judging == "auto"
        if giver:
            out = [_GOT[t] for t in range(state.teams) if t == active or state.raiders >> t & 1]
            if not auto:
                out += [a for t in range(state.teams) if t != active and "T" in held[t]
                        for a in (_THEFT_OK[t], _THEFT_MISS[t])]
            return [*out, SKIP, FOUL]
        if team == active:
            return [GUESS, SKIP] if auto else [SKIP]
        if not auto:
            return []
        out = [GUESS] if state.raiders >> team & 1 else []
        return [*out, _THEFT[team]] if "T" in held[team] else out
    if phase == DECISION and team == active:
        return [EXTRA_TIME, END]
    return []


def legal_actions(state: HoldYourHatState, seat: int) -> list[Act]:
    """Every structural action ``seat`` may take now. Typed guesses, thefts and clues are accepted by ``check`` and
    ``apply`` whenever the blank form (``guess ?``, ``theft B ?``) is listed, or, for clues, from the clue-giver."""
    if state.phase == OVER or not 0 <= seat < state.context.seats:
        return []
    return [action for action in _candidates(state, seat) if problem(state, seat, action) is None]


def actors(state: HoldYourHatState) -> frozenset[int]:
    if state.phase == OVER:
        return frozenset()
    return frozenset(seat for seat in range(state.context.seats) if legal_actions(state, seat))


# -- time (HYH-R6) ---------------------------------------------------------------------------------------------------


def deadline(state: HoldYourHatState) -> int | None:
    """The next deadline: the sand timer's end or the open claim's (HYH-R28), whichever comes first."""
    if state.phase not in (MAIN, EXTRA):
        return None
    claim = state.claim_deadline()
    return min(state.timer, claim) if claim >= 0 else state.timer


def _fire(state: HoldYourHatState, t: int, events: list[Event]) -> None:
    """Let every deadline up to ``t`` fire, in time order (HYH-R6)."""
    while state.phase in (MAIN, EXTRA):
        timer, claim = state.timer, state.claim_deadline()
        if claim >= 0 and claim < timer and claim <= t:
            state.now = claim
            _resolve_claim(state, events)
            _next_word(state, events, skipped=False)
        elif timer <= t:
            state.now = timer
            _timeout(state, events)
        else:
            return


def _prepare(state: HoldYourHatState, seat: int, action: Act) -> tuple[HoldYourHatState, list[Event], int]:
    """Check ``action`` completely; return the state to act on (a copy if deadlines fired), their events, the time."""
    if not isinstance(action, Act):
        raise MalformedInput(f"not a Hold your Hat action: {action!r}")
    t = state.now if action.t is None else action.t
    if t < state.now:
        raise IllegalAction(f"time runs forward: this input is stamped {t}, before the last one ({state.now})",
                            "HYH-R6")
    if seat == CLOCK:
        if action.verb != "tick":
            raise IllegalAction("the clock only ticks", "HYH-R6")
        if state.phase == OVER:
            raise IllegalAction("the game is over", "HYH-R42")
    elif state.phase == OVER:
        raise IllegalAction("the game is over", "HYH-R42")
    work, events = state, list[Event]()
    due = deadline(state)
    if due is not None and t >= due:
        work = state.clone()
        _fire(work, t, events)
    if seat != CLOCK:
        found = problem(work, seat, action)
        if found is not None:
            raise found
    return work, events, t


def check(state: HoldYourHatState, seat: int, action: Act) -> None:
    _prepare(state, seat, action)


# -- effects ---------------------------------------------------------------------------------------------------------


def apply(state: HoldYourHatState, seat: int, action: Act) -> list[Event]:
    work, events, t = _prepare(state, seat, action)
    if work is not state:
        state.copy_from(work)
    state.now = t
    verb = action.verb
    if verb == "tick":
        return events
    team = state.context.team_of[seat]
    active = state.active
    if verb == "start":  # HYH-R12
        state.timer = t + state.context.turn_ms
        state.phase = MAIN
        events.append(LooseEvent("timer", {"team": active, "seat": seat, "t": t, "until": state.timer}))
        _next_word(state, events, skipped=False)
    elif verb == "binoculars":  # HYH-R11
        _spend(state, active, "B")
        state.used_binoculars = True
        state.peek = min(BINOCULARS_PEEK, len(state.deck))
        top = [state.entry(card)[0] for card in reversed(state.deck[-state.peek:])]
        events.append(LooseEvent("binoculars", {"team": active, "seat": seat, "count": state.peek},
                            {state.clue_giver(): {"cards": top}}))
    elif verb == "order":  # HYH-R11
        k = state.peek
        top_first = list(reversed(state.deck[-k:]))
        arranged = [top_first[position - 1] for position in action.order]
        state.deck = state.deck[:-k] + tuple(reversed(arranged))
        state.peek = 0
        events.append(LooseEvent("order", {"team": active, "seat": seat, "order": list(action.order)}))
    elif verb == "raid":  # HYH-R10
        raider = action.team
        assert raider is not None
        _spend(state, raider, "R")
        state.raiders |= 1 << raider
        events.append(LooseEvent("raid", {"team": raider, "seat": seat}))
    elif verb == "guess":  # HYH-R20, HYH-R27
        _guess(state, seat, team, action.text, t, events)
    elif verb == "got":  # HYH-R27
        assert action.team is not None
        events.append(LooseEvent("got", {"team": action.team, "seat": seat, "t": t}))
        _claim(state, action.team, t, events)
    elif verb == "theft":  # HYH-R21
        _theft(state, seat, action, t, events)
    elif verb == "skip":  # HYH-R22, HYH-R31
        _spend(state, active, "S")
        events.append(LooseEvent("skip", {"team": active, "seat": seat}, {state.clue_giver(): _word(state)}))
        state.aside += (state.current,)
        state.current = -1
        _next_word(state, events, skipped=True)
    elif verb == "foul":  # HYH-R23
        events.append(LooseEvent("foul", {"team": active, "seat": seat}, {state.clue_giver(): _word(state)}))
        state.aside += (state.current,)
        state.current = -1
        _next_word(state, events, skipped=False)
    elif verb == "clue":  # HYH-R24
        state.clued += 1
        events.append(LooseEvent("clue", {"team": active, "seat": seat, "text": action.text}))
    elif verb == "extra":  # HYH-R30
        _extra_time(state, seat, t, events)
    elif verb == "end":  # HYH-R32
        events.append(LooseEvent("decline", {"team": active, "seat": seat}))
        _end_turn(state, events, "timeout")
    return events


def _word(state: HoldYourHatState) -> dict[str, object]:
    text, points, _ = state.entry(state.current)
    return {"word": text, "points": points}


def _spend(state: HoldYourHatState, team: int, letter: str) -> None:
    """A used special card goes to the special discard pile."""
    hand = state.held[team]
    i = hand.index(letter)
    state.held = replaced(state.held, team, hand[:i] + hand[i + 1:])
    state.discard += letter


def _guess(state: HoldYourHatState, seat: int, team: int, text: str | None, t: int, events: list[Event]) -> None:
    clue_giver = state.clue_giver()
    public = {"team": team, "seat": seat, "t": t}
    if text is None:
        events.append(LooseEvent("guess", {**public, "result": "blank"}))
        return
    secret = {seat: {"text": text}, clue_giver: {"text": text}}
    if state.claiming() >> team & 1:  # HYH-R28.1: further guesses by a claiming team are ignored
        events.append(LooseEvent("guess", {**public, "result": "ignored"}, secret))
        return
    entry, _, alternates = state.entry(state.current)
    if not judging.guess_matches(text, entry, alternates):
        events.append(LooseEvent("guess", {**public, "result": "wrong", "text": text}))
        return
    events.append(LooseEvent("guess", {**public, "result": "right"}, secret))
    _claim(state, team, t, events)


def _theft(state: HoldYourHatState, seat: int, action: Act, t: int, events: list[Event]) -> None:
    thief = action.team
    assert thief is not None
    _spend(state, thief, "T")  # HYH-R21: discarded at once, right or wrong
    public: dict[str, object] = {"team": thief, "seat": seat, "t": t}
    if action.verdict is not None:
        right = action.verdict == OK
        events.append(LooseEvent("theft", {**public, "result": "right" if right else "wrong"}))
    elif action.text is None:
        right = False
        events.append(LooseEvent("theft", {**public, "result": "blank"}))
    else:
        entry, _, alternates = state.entry(state.current)
        right = judging.guess_matches(action.text, entry, alternates)
        if right:
            events.append(LooseEvent("theft", {**public, "result": "right"},
                                {seat: {"text": action.text}, state.clue_giver(): {"text": action.text}}))
        else:
            events.append(LooseEvent("theft", {**public, "result": "wrong", "text": action.text}))
    if right:
        _claim(state, thief, t, events)
    else:
        _settle(state, events)


def could_join(state: HoldYourHatState, team: int) -> bool:
    """``team`` could still join the open claim: it guesses this turn, or it holds a THEFT (HYH-R28.1)."""
    if state.claiming() >> team & 1:
        return False
    return team == state.active or _raiding(state, team) or "T" in state.held[team]


def _claim(state: HoldYourHatState, team: int, t: int, events: list[Event]) -> None:
    """HYH-R28.1: a correct guess opens the claim window or joins it.

    When no other team could join any more, waiting for the window to close would change nothing but the time:
    the claim is resolved at once and the next word drawn (an interpretation, see the docs on HYH-R28).
    """
    opened = not state.claim
    state.claim += ((team, t),)
    events.append(LooseEvent("claim", {"team": team, "t": t, "opened": opened, "until": state.claim_deadline() - 1}))
    _settle(state, events)


def _settle(state: HoldYourHatState, events: list[Event]) -> None:
    """Resolve the open claim at once when no team could join it any more (its last THEFT spent, say)."""
    if state.claim and state.phase in (MAIN, EXTRA) and not any(could_join(state, t) for t in range(state.teams)):
        _resolve_claim(state, events)
        _next_word(state, events, skipped=False)


def _resolve_claim(state: HoldYourHatState, events: list[Event]) -> None:
    """HYH-R28.2-3: the claiming team (or, among several, the one with the fewest points...) wins the card."""
    claim = state.claim
    teams = [team for team, _ in claim]
    if len(teams) == 1:
        winner = teams[0]
    else:
        fewest = min(state.total(team) for team in teams)
        tied = [(team, t) for team, t in claim if state.total(team) == fewest]
        if len(tied) == 1:
            winner = tied[0][0]
        elif any(team == state.active for team, _ in tied):
            winner = state.active
        else:
            first = min(t for _, t in tied)
            earliest = [team for team, t in tied if t == first]
            n = state.teams
            winner = min(earliest, key=lambda team: (team - state.active) % n)
    card = state.current
    text, points, _ = state.entry(card)
    state.won = replaced(state.won, winner, state.won[winner] + (card,))
    state.current = -1
    state.claim = ()
    events.append(LooseEvent("won", {"team": winner, "word": text, "points": points, "claimed_by": teams,
                                "round": state.round}))


def _next_word(state: HoldYourHatState, events: list[Event], *, skipped: bool) -> None:
    """HYH-R25 (and HYH-R31 for SKIP in EXTRA TIME): the next word becomes current, or the turn ends."""
    card = -1
    if state.phase == MAIN or (skipped and state.deck):
        if state.deck:
            card = state.deck[-1]
            state.deck = state.deck[:-1]
    elif state.extra:
        card = state.extra[0]
        state.extra = state.extra[1:]
    if card < 0:
        _end_turn(state, events, "round_complete" if state.round_complete() else "no_words")
        return
    state.current = card
    state.clued = 0
    text, points, _ = state.entry(card)
    events.append(LooseEvent("word", {"team": state.active, "deck": len(state.deck)},
                        {state.clue_giver(): {"word": text, "points": points, "words": len(text.split())}}))


def _timeout(state: HoldYourHatState, events: list[Event]) -> None:
    """HYH-R26: the timer ran out."""
    events.append(LooseEvent("timeout", {"team": state.active, "t": state.timer}))
    state.timer = -1
    if state.claim:  # guesses stamped before the deadline still count; no next word
        _resolve_claim(state, events)
        if state.round_complete():
            _end_turn(state, events, "round_complete")
            return
    if state.current >= 0:
        state.aside += (state.current,)
        state.current = -1
    if state.phase == MAIN:
        active = state.active
        if "E" in state.held[active] and not state.used_extra and state.deck:
            state.phase = DECISION
            events.append(LooseEvent("extra_time_offer", {"team": active}))
            return
    else:
        state.aside += state.extra
        state.extra = ()
    _end_turn(state, events, "timeout")


def _extra_time(state: HoldYourHatState, seat: int, t: int, events: list[Event]) -> None:
    """HYH-R30: up to extra_time_words cards from the top of the deck; the timer again; RAIDs stop."""
    active = state.active
    _spend(state, active, "E")
    state.used_extra = True
    n = min(state.context.config.extra_time_words, len(state.deck))
    drawn = tuple(reversed(state.deck[-n:]))  # in draw order: the top card first
    state.deck = state.deck[:-n]
    state.extra = drawn
    state.timer = t + state.context.turn_ms
    state.phase = EXTRA
    if not state.context.config.raid_in_extra_time:
        state.raiders = 0
    events.append(LooseEvent("extra_time", {"team": active, "seat": seat, "words": n, "t": t, "until": state.timer}))
    _next_word(state, events, skipped=False)


def _end_turn(state: HoldYourHatState, events: list[Event], reason: str) -> None:
    """HYH-R35 in its order, then the next turn or the end of the round (HYH-R40, HYH-R43)."""
    active = state.active
    returned = len(state.aside)
    if returned:  # (1) the first card set aside goes directly under the bottom card
        state.deck = tuple(reversed(state.aside)) + state.deck
        state.aside = ()
    events.append(LooseEvent("turn_end", {"team": active, "reason": reason, "returned": returned}))
    if not state.specials and state.discard:  # (2) HYH-R35.2, HYH-A13
        pile = list(state.discard)
        state.rng = state.rng.shuffle(pile)
        state.specials = "".join(pile)
        state.discard = ""
        events.append(LooseEvent("special_reshuffle", {"deck": len(pile)}))
    if state.specials:
        card = state.specials[-1]
        state.specials = state.specials[:-1]
        state.held = replaced(state.held, active, sort_specials(state.held[active] + card))
        events.append(LooseEvent("special_draw", {"team": active, "card": SPECIAL_NAMES[card]}))
    else:
        events.append(LooseEvent("no_special", {"team": active}))
    if state.context.config.clue_giver_rotation == "per_turn":  # (3) HYH-R4
        state.pointers = replaced(state.pointers, active, (state.pointers[active] + 1)
                                  % len(state.context.members[active]))
    complete = state.round_complete()
    _reset_turn(state)  # (4)
    state.turns += 1
    state.active = (active + 1) % state.teams
    if complete:  # (5)
        _end_round(state, events)
    else:
        state.phase = PRE
        _turn_start(state, events)


def _end_round(state: HoldYourHatState, events: list[Event]) -> None:
    """HYH-R41..R43: record the round's scores; the next round, or the end of the game."""
    r = state.round
    points = [state.round_points(team) for team in range(state.teams)]
    state.scores = tuple(row[:r - 1] + (points[team],) + row[r:] for team, row in enumerate(state.scores))
    totals = [sum(row) for row in state.scores]
    events.append(LooseEvent("round_end", {"round": r, "points": points, "totals": totals}))
    config = state.context.config
    if r < config.rounds:
        state.round = r + 1
        if config.clue_giver_rotation == "per_round":
            state.pointers = tuple((p + 1) % len(state.context.members[team])
                                   for team, p in enumerate(state.pointers))
        _setup_round(state, events)  # the team after the one whose turn ended the round starts (HYH-R3)
        return
    state.phase = OVER  # the last round's won cards stay on the table
    best = max(totals)
    winners = [team for team in range(state.teams) if totals[team] == best]
    events.append(LooseEvent("game_over", {"winners": winners, "totals": totals}))


# -- the end ---------------------------------------------------------------------------------------------------------


def winning_teams(state: HoldYourHatState) -> list[int]:
    totals = [sum(row) for row in state.scores]
    best = max(totals)
    return [team for team in range(state.teams) if totals[team] == best]


def outcome(state: HoldYourHatState) -> Outcome | None:
    """HYH-R42: the highest total wins; equal highest totals share the victory (HYH-A17). Scores are per seat."""
    if state.phase != OVER:
        return None
    context = state.context
    teams = winning_teams(state)
    winners = tuple(sorted(seat for team in teams for seat in context.members[team]))
    scores = tuple(float(sum(state.scores[context.team_of[seat]])) for seat in range(context.seats))
    return Outcome(winners, scores, "HYH-R42", {"turns": state.turns, "teams": teams,
                                                "team_totals": [sum(row) for row in state.scores]})
