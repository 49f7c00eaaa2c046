"""Hold your Hat's rules (HYH-R1..R43, variant HYH-V1): setup, legality, time, and what each action does.

Legality is written once, in ``problem``: it returns the reason an action is refused (with its rule ID) or
``None``. ``legal_actions`` lists the structural actions ``problem`` accepts; ``check`` and ``perform`` call it too,
after letting every deadline up to the action's time fire on a copy of the state (HYH-R6), so a rejected action
changes nothing and an action stamped at or after a deadline meets the state the deadline left.
"""

from __future__ import annotations

from itertools import permutations

from ...engine.errors import IllegalAction, MalformedInput
from ...engine.events import Event
from ...engine.game import CLOCK
from ...engine.outcome import Outcome, Termination
from ...engine.rng import SeededRng
from ...engine.state import replaced
from . import events as ev
from . import judging
from .actions import (
    Action,
    Binoculars,
    Clue,
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
    Tick,
    team_letter,
)
from .config import MAX_TEAMS, HoldYourHatConfig
from .state import (
    DECISION,
    EXTRA,
    MAIN,
    OVER,
    PRE,
    ROUND_TYPES,
    SPECIAL_NAMES,
    Context,
    HoldYourHatState,
    context_for,
    sort_specials,
    special_deck,
)
from .words import COLORS

BINOCULARS_PEEK = 5  # HYH-R11
# A person types a guess in a second or two and runs out of ideas for a word after a few wrong ones; a client that
# types a colour's word list does neither (HYH-A26, HYH-A27).
GUESS_PACE_MS = 1000
MISSES_PER_CLUE = 5


class HatTermination(Termination):
    """How a game of Hold your Hat ends: after the last round, by the totals."""

    HIGHEST_TOTAL = ("highest_total", "HYH-R42")
    SHARED_VICTORY = ("shared_victory", "HYH-A17")


START = Start()
BINOCULARS = Binoculars()
SKIP = Skip()
FOUL = Foul()
EXTRA_TIME = ExtraTime()
END = EndTurn()
GUESS = Guess()  # the blank form: a seat offered it may type a guess
ORDERS = {k: tuple(Order(p) for p in permutations(range(1, k + 1))) for k in range(1, BINOCULARS_PEEK + 1)}
RAIDS = tuple(Raid(t) for t in range(MAX_TEAMS))
GOTS = tuple(Got(t) for t in range(MAX_TEAMS))
THEFTS = tuple(Theft(t) for t in range(MAX_TEAMS))
THEFT_OK = tuple(TheftVerdict(t, True) for t in range(MAX_TEAMS))
THEFT_MISS = tuple(TheftVerdict(t, False) for t in range(MAX_TEAMS))


def all_actions(config: HoldYourHatConfig) -> list[Action]:
    """Every action a seat could take under ``config`` but typed text (the move table's, in a fixed order)."""
    teams = range(config.teams)
    out: list[Action] = [START, BINOCULARS]
    out += [order for k in sorted(ORDERS) for order in ORDERS[k]]
    out += [RAIDS[t] for t in teams] + [GOTS[t] for t in teams]
    out += [verdict for t in teams for verdict in (THEFT_OK[t], THEFT_MISS[t])]
    return [*out, SKIP, FOUL, EXTRA_TIME, END]


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
    state.guessed = (-1,) * context.seats
    state.misses = (0,) * context.seats
    events: list[Event] = [ev.GameStart(context.members, COLORS[state.color], config.rounds, config.deck_size,
                                        state.held)]
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
    state.clues = ()
    state.timer = -1


def _setup_round(state: HoldYourHatState, events: list[Event]) -> None:
    """HYH-R3: the same word set, shuffled into the word deck; the round's first team enters PRE_TURN."""
    deck = list(state.word_set)
    state.rng = state.rng.shuffle(deck)
    state.deck = tuple(deck)
    state.won = ((),) * state.teams
    _reset_turn(state)
    state.phase = PRE
    events.append(ev.RoundStart(state.round, ROUND_TYPES[state.round - 1], state.active, len(deck)))
    _turn_start(state, events)


def _turn_start(state: HoldYourHatState, events: list[Event]) -> None:
    events.append(ev.TurnStart(state.active, state.clue_giver(), state.round))


# -- who may do what (the one place legality is written) --------------------------------------------------------


def _fail(reason: str, rule: str) -> IllegalAction:
    return IllegalAction(reason, rule)


def _running(state: HoldYourHatState, rule: str, what: str) -> IllegalAction | None:
    if state.phase == PRE:
        return _fail(f"{what} only while the timer runs: the clue-giver has not started it yet", rule)
    if state.phase == DECISION:
        return _fail(f"the timer has run out: no {what} now (HYH-I6)", rule)
    return None


def _team_ok(state: HoldYourHatState, team: int) -> IllegalAction | None:
    if not 0 <= team < state.teams:
        return _fail(f"there is no team {team_letter(team)} in this game", "HYH-R1")
    return None


def _raiding(state: HoldYourHatState, team: int) -> bool:
    """``team`` raids and may guess now: RAIDs work in MAIN only, unless raid_in_extra_time (HYH-R30, HYH-A9)."""
    return bool(state.raiders >> team & 1) and (state.phase == MAIN or state.context.config.raid_in_extra_time)


def _start_problem(state: HoldYourHatState, seat: int) -> IllegalAction | None:
    if state.phase != PRE:
        return _fail("the timer has already been started this turn", "HYH-R12")
    if seat != state.clue_giver():
        return _fail(f"the clue-giver (seat {state.clue_giver() + 1}) starts the timer", "HYH-R12")
    if state.peek:
        return _fail("arrange the cards seen through BINOCULARS first", "HYH-R11")
    return None


def _binoculars_problem(state: HoldYourHatState, team: int) -> IllegalAction | None:
    if team != state.active:
        return _fail("BINOCULARS is played on your own team's turn", "HYH-R11")
    if state.phase != PRE:
        return _fail("BINOCULARS is played before the timer starts", "HYH-R11")
    if "B" not in state.held[team]:
        return _fail("your team holds no BINOCULARS", "HYH-R11")
    if state.used_binoculars:
        return _fail("only one BINOCULARS per turn", "HYH-R11")
    return None


def _order_problem(state: HoldYourHatState, seat: int, order: tuple[int, ...]) -> IllegalAction | None:
    if state.phase != PRE or not state.peek:
        return _fail("there are no cards seen through BINOCULARS to arrange", "HYH-R11")
    if seat != state.clue_giver():
        return _fail("only the clue-giver sees and arranges the cards", "HYH-A12")
    if sorted(order) != list(range(1, state.peek + 1)):
        return _fail(f"give the {state.peek} cards' old positions (1 = top) in their new order, each once",
                     "HYH-R11")
    return None


def _raid_problem(state: HoldYourHatState, seat: int, team: int, raider: int) -> IllegalAction | None:
    if team != raider and not (state.context.party and seat == state.clue_giver()):
        return _fail(f"only a member of team {team_letter(raider)} plays its RAID", "HYH-R1")
    if raider == state.active:
        return _fail("RAID is played before another team's turn, not your own", "HYH-R10")
    if state.phase != PRE:
        return _fail("RAID is played before the turn, until the timer starts", "HYH-R10")
    if "R" not in state.held[raider]:
        return _fail(f"team {team_letter(raider)} holds no RAID", "HYH-R10")
    if state.raiders >> raider & 1:
        return _fail(f"team {team_letter(raider)} already raids this turn", "HYH-A8")
    return None


def typed_guesses(context: Context) -> bool:
    """Guesses (and THEFTs) may be typed and judged by the game: with ``auto`` judging, and at a shared screen
    (party) besides the spoken ones the clue-giver confirms, so that a team can play with players who are not in
    the room (HYH-A29). Who those players are (people, bots) the rules never ask."""
    return context.judging == "auto" or context.party


def _guess_problem(state: HoldYourHatState, seat: int, team: int) -> IllegalAction | None:
    if not typed_guesses(state.context):
        return _fail("guesses are spoken at this table: the clue-giver confirms them", "HYH-R27")
    found = _running(state, "HYH-R20", "guesses")
    if found:
        return found
    if seat == state.clue_giver():
        return _fail("the clue-giver does not guess", "HYH-A25")
    if team != state.active and not _raiding(state, team):
        if state.phase == EXTRA:
            return _fail("during EXTRA TIME only the active team guesses", "HYH-A9")
        return _fail("only the active team (and raiders) may guess", "HYH-R20")
    if state.misses[seat] >= MISSES_PER_CLUE:
        return _fail(f"{MISSES_PER_CLUE} wrong guesses at this word: wait for the next clue or the next word",
                     "HYH-A27")
    return None


def _pace_problem(state: HoldYourHatState, seat: int, action: Guess) -> IllegalAction | None:
    """HYH-A26: one seat's typed guesses are GUESS_PACE_MS apart, by their own times (whoever sends them)."""
    last = state.guessed[seat]
    t = state.now if action.t is None else action.t
    if action.text is not None and last >= 0 and t < last + GUESS_PACE_MS:
        return _fail(f"one typed guess every {GUESS_PACE_MS / 1000:g} seconds: your last was "
                     f"{(t - last) / 1000:g} s ago", "HYH-A26")
    return None


def _got_problem(state: HoldYourHatState, seat: int, guesser: int) -> IllegalAction | None:
    found = _running(state, "HYH-R20", "guesses")
    if found:
        return found
    if seat != state.clue_giver():
        return _fail("the clue-giver confirms a spoken guess", "HYH-R27")
    if guesser != state.active and not _raiding(state, guesser):
        return _fail(f"team {team_letter(guesser)} is not guessing this turn", "HYH-R20")
    if state.claiming() >> guesser & 1:
        return _fail(f"team {team_letter(guesser)} already claims this word", "HYH-R28")
    return None


def _theft_problem(state: HoldYourHatState, seat: int, team: int, thief: int, spoken: bool) -> IllegalAction | None:
    """A typed THEFT by the stealing team, or (``spoken``) the clue-giver's verdict on a spoken one."""
    if spoken:
        if state.context.judging != "clue_giver":
            return _fail("THEFT is typed by the stealing team at this table", "HYH-R27")
        if seat != state.clue_giver():
            return _fail("the clue-giver judges a spoken THEFT", "HYH-R27")
    else:
        if not typed_guesses(state.context):
            return _fail("THEFT is spoken at this table: the clue-giver judges it", "HYH-R27")
        if team != thief:
            return _fail(f"only a member of team {team_letter(thief)} plays its THEFT", "HYH-R1")
    found = _running(state, "HYH-R21", "THEFT")
    if found:
        return found
    if thief == state.active:
        return _fail("THEFT is played during another team's turn", "HYH-R21")
    if "T" not in state.held[thief]:
        return _fail(f"team {team_letter(thief)} holds no THEFT", "HYH-R21")
    if state.claiming() >> thief & 1:
        return _fail(f"team {team_letter(thief)} already claims this word", "HYH-R21")
    return None


def _set_aside_problem(state: HoldYourHatState, seat: int, team: int, skip: bool) -> IllegalAction | None:
    """SKIP (``skip``) by the active team, or a foul reported by the clue-giver."""
    rule = "HYH-R22" if skip else "HYH-R23"
    found = _running(state, rule, "SKIP" if skip else "fouls")
    if found:
        return found
    if skip and team != state.active:
        return _fail("SKIP is played on your own team's turn", rule)
    if skip and "S" not in state.held[team]:
        return _fail("your team holds no SKIP", rule)
    if not skip and seat != state.clue_giver():
        return _fail("the clue-giver reports a foul (agree on it aloud)", rule)
    if state.claim:
        return _fail("the word has been guessed: it is being claimed", "HYH-R28")
    return None


def _clue_problem(state: HoldYourHatState, seat: int, text: str) -> IllegalAction | None:
    found = _running(state, "HYH-R24", "clues")
    if found:
        return found
    if seat != state.clue_giver():
        return _fail("only the clue-giver gives clues", "HYH-R24")
    entry, _, alternates = state.entry(state.current)
    reason = judging.clue_problem(text, entry, alternates, state.round, state.clued)
    if reason:
        return _fail(reason, "HYH-A21" if "one clue per word card" in reason else "HYH-R24")
    return None


def _decision_problem(state: HoldYourHatState, team: int, extra: bool) -> IllegalAction | None:
    """EXTRA TIME (``extra``) or the end of the turn, decided by the active team after a timeout."""
    rule = "HYH-R30" if extra else "HYH-R32"
    if team != state.active:
        return _fail("only the active team decides about EXTRA TIME", rule)
    if state.phase != DECISION:
        if extra and state.phase in (MAIN, EXTRA):
            return _fail("EXTRA TIME is played after the timer runs out", rule)
        return _fail("there is no EXTRA TIME decision to make now", rule)
    return None


def problem(state: HoldYourHatState, seat: int, action: Action) -> IllegalAction | None:
    """Why ``seat`` (a seat of a game that goes on) may not take ``action`` now (the state's deadlines have fired),
    or ``None``."""
    team = state.context.team_of[seat]
    match action:
        case Start():
            return _start_problem(state, seat)
        case Binoculars():
            return _binoculars_problem(state, team)
        case Order(order=order):
            return _order_problem(state, seat, order)
        case Raid(team=raider):
            return _team_ok(state, raider) or _raid_problem(state, seat, team, raider)
        case Guess():
            return _guess_problem(state, seat, team) or _pace_problem(state, seat, action)
        case Got(team=guesser):
            return _team_ok(state, guesser) or _got_problem(state, seat, guesser)
        case Theft(team=thief):
            return _team_ok(state, thief) or _theft_problem(state, seat, team, thief, spoken=False)
        case TheftVerdict(team=thief):
            return _team_ok(state, thief) or _theft_problem(state, seat, team, thief, spoken=True)
        case Skip():
            return _set_aside_problem(state, seat, team, skip=True)
        case Foul():
            return _set_aside_problem(state, seat, team, skip=False)
        case Clue(text=text):
            return _clue_problem(state, seat, text)
        case ExtraTime():
            return _decision_problem(state, team, extra=True)
        case EndTurn():
            return _decision_problem(state, team, extra=False)
        case Tick():
            return _fail("only the clock ticks", "HYH-R6")
    raise MalformedInput(f"not a Hold your Hat action: {action!r}")


def _candidates(state: HoldYourHatState, seat: int) -> list[Action]:
    """The structural actions that could be legal for ``seat`` in this phase, in a stable order (``problem``
    decides; this only leaves out what the seat's role rules out, so that listing stays cheap)."""
    context = state.context
    team = context.team_of[seat]
    active = state.active
    giver = seat == state.clue_giver()
    phase = state.phase
    held = state.held
    if phase == PRE:
        out: list[Action] = []
        if giver and state.peek:
            out += ORDERS[state.peek]
        elif giver:
            out.append(START)
        if team == active and "B" in held[team] and not state.peek:
            out.append(BINOCULARS)
        if giver and context.party:
            out += [RAIDS[t] for t in range(state.teams) if t != active and "R" in held[t]]
        elif team != active and "R" in held[team]:
            out.append(RAIDS[team])
        return out
    if phase in (MAIN, EXTRA):
        typed = typed_guesses(context)
        if giver:
            out = [GOTS[t] for t in range(state.teams) if t == active or state.raiders >> t & 1]
            if context.judging != "auto":  # spoken THEFTs, judged by the clue-giver (at a party too)
                out += [a for t in range(state.teams) if t != active and "T" in held[t]
                        for a in (THEFT_OK[t], THEFT_MISS[t])]
            return [*out, SKIP, FOUL]
        if team == active:
            return [GUESS, SKIP] if typed else [SKIP]
        if not typed:
            return []
        out = [GUESS] if state.raiders >> team & 1 else []
        return [*out, THEFTS[team]] if "T" in held[team] else out
    if phase == DECISION and team == active:
        return [EXTRA_TIME, END]
    return []


def legal_actions(state: HoldYourHatState, seat: int) -> list[Action]:
    """Every structural action ``seat`` may take now. Typed guesses, thefts and clues are accepted by ``check`` and
    ``apply`` whenever the blank form (``guess ?``, ``theft B ?``) is listed, or, for clues, from the clue-giver."""
    if not 0 <= seat < state.context.seats:  # the clock's seat, say: it only ticks
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


def _prepare(state: HoldYourHatState, seat: int, action: Action) -> tuple[HoldYourHatState, list[Event], int]:
    """Judge ``action`` at its own time; return the state to act on (a copy if deadlines fired), their events and
    the time. The frame has checked the seat and that the game was not over before the action's time."""
    if not isinstance(action, Action):
        raise MalformedInput(f"not a Hold your Hat action: {action!r}")
    t = state.now if action.t is None else action.t
    if t < state.now:
        raise IllegalAction(f"time runs forward: this input is stamped {t}, before the last one ({state.now})",
                            "HYH-R6")
    if seat == CLOCK and not isinstance(action, Tick):
        raise IllegalAction("the clock only ticks", "HYH-R6")
    work, events = state, list[Event]()
    due = deadline(state)
    if due is not None and t >= due:
        work = state.clone()
        _fire(work, t, events)
    if seat != CLOCK:
        if work.phase == OVER:  # a deadline before the action's time ended the game
            raise IllegalAction("the game is over", "HYH-R42")
        found = problem(work, seat, action)
        if found is not None:
            raise found
    return work, events, t


def check(state: HoldYourHatState, seat: int, action: Action) -> None:
    _prepare(state, seat, action)


# -- effects ---------------------------------------------------------------------------------------------------------


def perform(state: HoldYourHatState, seat: int, action: Action) -> list[Event]:
    work, events, t = _prepare(state, seat, action)
    if work is not state:
        state.copy_from(work)
    state.now = t
    if isinstance(action, Tick):
        return events
    team = state.context.team_of[seat]
    active = state.active
    match action:
        case Start():  # HYH-R12
            state.timer = t + state.context.turn_ms
            state.phase = MAIN
            events.append(ev.TimerStarted(active, seat, t, state.timer))
            _next_word(state, events, skipped=False)
        case Binoculars():  # HYH-R11
            _spend(state, active, "B")
            state.used_binoculars = True
            state.peek = min(BINOCULARS_PEEK, len(state.deck))
            top = tuple(state.entry(card)[0] for card in reversed(state.deck[-state.peek:]))
            events.append(ev.BinocularsPlayed(active, seat, state.peek, {state.clue_giver(): top}))
        case Order(order=order):  # HYH-R11
            k = state.peek
            top_first = list(reversed(state.deck[-k:]))
            arranged = [top_first[position - 1] for position in order]
            state.deck = state.deck[:-k] + tuple(reversed(arranged))
            state.peek = 0
            events.append(ev.Reordered(active, seat, order))
        case Raid(team=raider):  # HYH-R10
            _spend(state, raider, "R")
            state.raiders |= 1 << raider
            events.append(ev.RaidPlayed(raider, seat))
        case Guess(text=text):  # HYH-R20, HYH-R27
            _guess(state, seat, team, text, t, events)
        case Got(team=guesser):  # HYH-R27
            events.append(ev.Confirmed(guesser, seat, t))
            _claim(state, guesser, t, events)
        case Theft(team=thief, text=text):  # HYH-R21
            _theft(state, seat, thief, t, events, text=text)
        case TheftVerdict(team=thief, right=right):  # HYH-R21, HYH-R27
            _theft(state, seat, thief, t, events, verdict=right)
        case Skip():  # HYH-R22, HYH-R31
            _spend(state, active, "S")
            word, points = _word(state)
            events.append(ev.SkipPlayed(active, seat, word, points))
            _set_aside(state, events, skipped=True)
        case Foul():  # HYH-R23
            word, points = _word(state)
            events.append(ev.Fouled(active, seat, word, points))
            _set_aside(state, events, skipped=False)
        case Clue(text=text):  # HYH-R24
            state.clued += 1
            state.clues = (*state.clues, text)
            state.misses = (0,) * state.context.seats  # HYH-A27: a new clue, new ideas
            events.append(ev.ClueGiven(active, seat, text))
        case ExtraTime():  # HYH-R30
            _extra_time(state, seat, t, events)
        case EndTurn():  # HYH-R32
            events.append(ev.Declined(active, seat))
            _end_turn(state, events, "timeout")
    return events


def _word(state: HoldYourHatState) -> tuple[dict[int, str], dict[int, int]]:
    """The current word and its points, as private fields for the clue-giver."""
    text, points, _ = state.entry(state.current)
    giver = state.clue_giver()
    return {giver: text}, {giver: points}


def _set_aside(state: HoldYourHatState, events: list[Event], *, skipped: bool) -> None:
    state.aside += (state.current,)
    state.current = -1
    _next_word(state, events, skipped=skipped)


def _spend(state: HoldYourHatState, team: int, letter: str) -> None:
    """A used special card goes to the special discard pile."""
    hand = state.held[team]
    i = hand.index(letter)
    state.held = replaced(state.held, team, hand[:i] + hand[i + 1:])
    state.discard += letter


def _guess(state: HoldYourHatState, seat: int, team: int, text: str | None, t: int, events: list[Event]) -> None:
    if text is None:
        events.append(ev.Guessed(team, seat, t, "blank", None, {}))
        return
    state.guessed = replaced(state.guessed, seat, t)
    secret = {seat: text, state.clue_giver(): text}
    if state.claiming() >> team & 1:  # HYH-R28.1: further guesses by a claiming team are ignored
        events.append(ev.Guessed(team, seat, t, "ignored", None, secret))
        return
    entry, _, alternates = state.entry(state.current)
    if not judging.guess_matches(text, entry, alternates):
        state.misses = replaced(state.misses, seat, state.misses[seat] + 1)
        close = {}
        if judging.guess_is_close(text, entry, alternates):  # HYH-A28
            close = dict.fromkeys((*state.context.members[team], state.clue_giver()), True)
        events.append(ev.Guessed(team, seat, t, "wrong", text, {}, close))
        return
    events.append(ev.Guessed(team, seat, t, "right", None, secret))
    _claim(state, team, t, events)


def _theft(state: HoldYourHatState, seat: int, thief: int, t: int, events: list[Event], *,
           text: str | None = None, verdict: bool | None = None) -> None:
    """A THEFT, typed (``text``, ``None`` for the blank form) or spoken and judged (``verdict``)."""
    _spend(state, thief, "T")  # HYH-R21: discarded at once, right or wrong
    if verdict is not None:
        right = verdict
        events.append(ev.TheftPlayed(thief, seat, t, "right" if right else "wrong", None, {}))
    elif text is None:
        right = False
        events.append(ev.TheftPlayed(thief, seat, t, "blank", None, {}))
    else:
        entry, _, alternates = state.entry(state.current)
        right = judging.guess_matches(text, entry, alternates)
        if right:
            events.append(ev.TheftPlayed(thief, seat, t, "right", None, {seat: text, state.clue_giver(): text}))
        else:
            events.append(ev.TheftPlayed(thief, seat, t, "wrong", text, {}))
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
    events.append(ev.Claimed(team, t, opened, state.claim_deadline() - 1))
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
    events.append(ev.WordWon(winner, text, points, tuple(teams), state.round))


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
    state.clues = ()
    if any(state.misses):
        state.misses = (0,) * state.context.seats
    text, points, _ = state.entry(card)
    giver = state.clue_giver()
    events.append(ev.NewWord(state.active, len(state.deck), {giver: text}, {giver: points},
                             {giver: len(text.split())}))


def _timeout(state: HoldYourHatState, events: list[Event]) -> None:
    """HYH-R26: the timer ran out."""
    events.append(ev.TimeUp(state.active, state.timer))
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
            events.append(ev.ExtraTimeOffered(active))
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
    events.append(ev.ExtraTimePlayed(active, seat, n, t, state.timer))
    _next_word(state, events, skipped=False)


def _end_turn(state: HoldYourHatState, events: list[Event], reason: str) -> None:
    """HYH-R35 in its order, then the next turn or the end of the round (HYH-R40, HYH-R43)."""
    active = state.active
    returned = len(state.aside)
    if returned:  # (1) the first card set aside goes directly under the bottom card
        state.deck = tuple(reversed(state.aside)) + state.deck
        state.aside = ()
    events.append(ev.TurnEnd(active, reason, returned))
    if not state.specials and state.discard:  # (2) HYH-R35.2, HYH-A13
        pile = list(state.discard)
        state.rng = state.rng.shuffle(pile)
        state.specials = "".join(pile)
        state.discard = ""
        events.append(ev.SpecialReshuffle(len(pile)))
    if state.specials:
        card = state.specials[-1]
        state.specials = state.specials[:-1]
        state.held = replaced(state.held, active, sort_specials(state.held[active] + card))
        events.append(ev.SpecialDraw(active, SPECIAL_NAMES[card]))
    else:
        events.append(ev.NoSpecial(active))
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
    events.append(ev.RoundEnd(r, tuple(points), tuple(totals)))
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
    events.append(ev.GameOver(tuple(winners), tuple(totals)))


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
    termination = HatTermination.SHARED_VICTORY if len(teams) > 1 else HatTermination.HIGHEST_TOTAL
    return Outcome(winners, scores, termination, {"turns": state.turns, "teams": teams,
                                                "team_totals": [sum(row) for row in state.scores]})
