"""Snorkeling's rules (SNK-R1..R17, variant SNK-V1): setup, legality, and what each action does.

Legality is written once: ``center_rule`` and ``pile_needs`` say what the centre and each pile accept now,
``legal_actions`` enumerates with them, and ``validate`` calls them too, adding the reason and rule ID when an
action fails. ``perform`` validates completely before it changes anything, so a rejected action leaves the state
untouched. The engine's frame has already checked that the game goes on and that the seat is the one to play
(SNK-R1, SNK-R5, SNK-R15), so these functions check only what is Snorkeling's own.
"""

from __future__ import annotations

from bisect import bisect
from collections.abc import Sequence

from ...engine.errors import IllegalAction, MalformedInput
from ...engine.events import Event
from ...engine.outcome import Outcome
from ...engine.rng import SeededRng
from ...engine.state import replaced
from .actions import END_TURN, PASS, Action, EndTurn, Pass, PlayCenter, PlayPile
from .config import SnorkelingConfig
from .context import Context, context_for
from .events import GameOver, Refilled, Retrieved, RoundEnded, RoundEndReason, RoundStarted, SnorkelingTermination
from .state import CENTER, GAME_OVER, OPPONENTS, SnorkelingState, without

# -- setup (SNK-R2, SNK-R3) ------------------------------------------------------------------------------------


def new_state(config: SnorkelingConfig, seed: int) -> tuple[SnorkelingState, list[Event]]:
    state = object.__new__(SnorkelingState)
    state.context = context_for(config)
    state.rng = SeededRng(seed)
    state.scores = (0,) * config.num_players  # SNK-R2.2
    state.round = 1
    state.starter = config.first_player  # SNK-R2.3
    state.total_turns = 0
    state.winners = ()
    events = _setup_round(state)
    return state, events


def _setup_round(state: SnorkelingState, with_events: bool = True) -> list[Event]:
    """SNK-R3: gather every reef card, shuffle, deal one at a time from the starter, turn up the centre.

    Returns the deal as an event, unless ``with_events`` is off (a search's playout reads no events)."""
    table = state.context.table
    n = len(state.scores)
    cards = list(table.deck)
    state.rng = state.rng.shuffle(cards)
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(table.hand_size * n):
        hands[(state.starter + i) % n].append(cards.pop())
    state.hands = tuple(tuple(sorted(hand)) for hand in hands)
    state.known = ((),) * n
    state.center = (cards.pop(),)  # SNK-R3.4, SNK-A26: any card, no effect
    state.deck = tuple(cards)
    state.piles = ((),) * n  # SNK-R16: only the Lanternfish (implied) stays
    state.active = state.starter
    state.phase = CENTER
    state.played = 0
    state.hit = 0
    state.turns = 0
    state.stall = 0
    refresh_acceptance(state)
    if not with_events:
        return []
    label = table.face_label
    return [RoundStarted(state.round, state.starter, label[state.center[-1]], len(cards),
                         {seat: tuple(label[c] for c in hand) for seat, hand in enumerate(state.hands)})]


# -- legality (SNK-R5..R9) ------------------------------------------------------------------------------------

def center_rule(state: SnorkelingState) -> tuple[int, int]:
    """(colour, value) a centre card may match now; ``-1`` where nothing matches. SNK-R6, or SNK-R7 in Expert."""
    return center_accepts(state.context, state.center, state.played)


def center_accepts(context: Context, center: Sequence[int], k: int) -> tuple[int, int]:
    """``center_rule`` for a centre pile whose last ``k`` cards were played this turn (any sequence of faces)."""
    if context.config.expert_diving:  # SNK-R7 / SNK-V1: against the card directly below
        top = center[-1]
        return context.face_color[top], (context.face_value[top] + 1) % context.num_values
    t0 = center[-1 - k]
    if k == 0:  # SNK-R6, first card: T0's colour, or T0's value + 1 with the wrap
        return context.face_color[t0], (context.face_value[t0] + 1) % context.num_values
    # SNK-R6, later cards: only in colour mode (the first card had T0's colour), and of that colour (SNK-A3)
    t0_color = context.face_color[t0]
    return (t0_color if context.face_color[center[-k]] == t0_color else -1), -1


def pile_needs(state: SnorkelingState, seat: int) -> tuple[int, ...]:
    """For each seat, the value a card needs to go onto its pile now, or ``-1`` if it may receive none.

    SNK-R9 (one below the top, the Lanternfish counting as 5), SNK-A2 (not your own pile), SNK-A1 (the per-turn
    limit), SNK-A5 (nothing onto a 0). Pile plays also need a centre play first (SNK-A19), checked by the callers.
    """
    return piles_accept(state.context, state.piles, seat, state.hit)


def piles_accept(context: Context, piles: Sequence[Sequence[int]], seat: int, hit: int) -> tuple[int, ...]:
    """``pile_needs`` for these piles when the seats in bit set ``hit`` already received a card this turn."""
    config = context.config
    limit = config.opponent_play_limit
    if limit == "one_total" and hit:
        return (-1,) * len(piles)
    face_value = context.face_value
    below_lantern = context.lanternfish_value - 1
    needs = [face_value[pile[-1]] - 1 if pile else below_lantern for pile in piles]
    if not config.allow_own_pile:
        needs[seat] = -1
    if limit == "one_per_opponent" and hit:
        for target in range(len(needs)):
            if hit >> target & 1:
                needs[target] = -1
    return tuple(needs)


def refresh_acceptance(state: SnorkelingState) -> None:
    """Store what the centre and the piles accept now, so that listing and checking actions only read fields.

    Called whenever the centre, the piles, the turn's plays or the active seat change. Pile needs matter only once
    the turn has a centre card (SNK-A19), so until then they are left empty: most turns never need them.
    """
    state.accept_color, state.accept_value = center_rule(state)
    state.pile_needs = pile_needs(state, state.active) if state.played else ()


_SOLO = tuple(frozenset((seat,)) for seat in range(64))


def actors(state: SnorkelingState) -> frozenset[int]:
    return frozenset() if state.winners else _SOLO[state.active]


def legal_actions(state: SnorkelingState, seat: int) -> list[Action]:
    phase = state.phase
    if seat != state.active or phase == GAME_OVER:
        return []
    context = state.context
    face_value = context.face_value
    hand = state.hands[seat]  # sorted, so copies of a face are neighbours: one action per face
    k = state.played
    actions: list[Action]
    if phase == CENTER:
        actions = [END_TURN] if k else [PASS]
        color = state.accept_color
        value = state.accept_value
        face_color = context.face_color
        center_actions = context.center_actions
        previous = -1
        for face in hand:
            if face != previous:
                previous = face
                if face_color[face] == color or face_value[face] == value:
                    actions.append(center_actions[face])
        if not k:
            return actions
    else:
        actions = [END_TURN]
    pile_actions = context.pile_actions
    for target, need in enumerate(state.pile_needs):
        if need >= 0:
            previous = -1
            for face in hand:
                if face != previous:
                    previous = face
                    if face_value[face] == need:
                        actions.append(pile_actions[face][target])
    return actions


def validate(state: SnorkelingState, seat: int, action: Action) -> None:
    """Raise ``IllegalAction`` with the reason and rule ID if ``seat``, the one to play, may not take ``action``."""
    _validate(state, seat, action)


def _raise_missing_card(state: SnorkelingState, card: str) -> None:
    if card not in state.context.face_by_label:
        raise MalformedInput(f"there is no card {card} in this deck")
    raise IllegalAction(f"you have no {state.context.table.name(card)} in your hand", "SNK-R5")


def _validate(state: SnorkelingState, seat: int, action: Action) -> int | None:
    """Check ``action`` completely; return the face it plays (``None`` for pass and end).

    Dispatched on the exact type, not with ``match``: class patterns cost about 100 ns more per action (measured),
    and this runs for every action of every search rollout that goes through the contract."""
    kind = type(action)
    if kind is PlayCenter:
        card = action.card  # type: ignore[union-attr]
        face = state.context.face_by_label.get(card, -1)
        if face not in state.hands[seat]:
            _raise_missing_card(state, card)
        if state.phase != CENTER:
            raise IllegalAction("no more centre cards after playing onto a personal pile", "SNK-R8")
        context = state.context
        if context.face_color[face] != state.accept_color and context.face_value[face] != state.accept_value:
            _raise_center_reason(state, card)
        return face
    if kind is PlayPile:
        card, target = action.card, action.target  # type: ignore[union-attr]
        if not isinstance(target, int) or not 0 <= target < len(state.hands):
            raise IllegalAction(f"there is no seat {target!r} to play onto", "SNK-R9")
        face = state.context.face_by_label.get(card, -1)
        if face not in state.hands[seat]:
            _raise_missing_card(state, card)
        if not state.played:
            raise IllegalAction("you may play onto a personal pile only after playing to the centre", "SNK-R8")
        if state.context.face_value[face] != state.pile_needs[target]:
            _raise_pile_reason(state, seat, target)
        return face
    if kind is Pass:
        if state.played:
            raise IllegalAction("you have played to the centre this turn; end the turn instead of passing", "SNK-R5")
        return None
    if kind is EndTurn:
        if not state.played:
            raise IllegalAction("play at least one card to the centre before ending the turn, or pass", "SNK-R8")
        return None
    raise MalformedInput(f"not a Snorkeling action: {action!r}")


def _raise_center_reason(state: SnorkelingState, card: str) -> None:
    # Reasons are read by players ("Why not?"): cards by their names, as on the table, never by their codes.
    table = state.context.table
    if state.context.config.expert_diving:
        top = table.name(table.label(state.center[-1]))
        raise IllegalAction(f"{table.name(card)} matches neither the colour of {top} nor its value + 1", "SNK-R7")
    k = state.played
    t0 = state.center[-1 - k]
    t0_label = table.name(table.label(t0))
    if k == 0:
        raise IllegalAction(f"{table.name(card)} matches neither the colour of {t0_label} nor its value + 1",
                            "SNK-R6")
    if table.face_color[state.center[-k]] != table.face_color[t0]:
        raise IllegalAction("after a +1 card no more centre cards may be played this turn (Expert Diving "
                            "allows it)", "SNK-R6")
    color = table.colors[table.face_color[t0]].name
    raise IllegalAction(f"this turn's centre cards must all be {color}, like {t0_label} (the centre card when "
                        "your turn began)", "SNK-R6")


def _raise_pile_reason(state: SnorkelingState, seat: int, target: int) -> None:
    config = state.context.config
    if target == seat and not config.allow_own_pile:
        raise IllegalAction("you may not play onto your own pile", "SNK-A2")
    if config.opponent_play_limit == "one_per_opponent" and state.hit >> target & 1:
        raise IllegalAction(f"seat {target + 1}'s pile already received a card this turn", "SNK-R9")
    if config.opponent_play_limit == "one_total" and state.hit:
        raise IllegalAction("only one card may be played onto a personal pile per turn", "SNK-R9")
    top = state.pile_top_value(target)
    if top == 0:
        raise IllegalAction("nothing may be played onto a Beach", "SNK-A5")
    raise IllegalAction(f"seat {target + 1}'s pile shows {top}: only a {top - 1} may go on it", "SNK-R9")


# -- effects (SNK-R5..R17) --------------------------------------------------------------------------------------

def perform(state: SnorkelingState, seat: int, action: Action) -> list[Event]:
    face = _validate(state, seat, action)
    context = state.context
    if face is None:
        passed = type(action) is Pass
        events: list[Event] = [context.pass_events[seat] if passed else context.end_turn_events[seat]]
        _end_turn(state, seat, passed, events)
        return events
    hands = state.hands
    hand = hands[seat]
    i = hand.index(face)
    state.hands = hands[:seat] + (hand[:i] + hand[i + 1:],) + hands[seat + 1:]
    known = state.known[seat]
    if known and face in known:
        state.known = replaced(state.known, seat, without(known, face))
    if type(action) is PlayCenter:
        state.center += (face,)
        state.played += 1
        state.accept_color, state.accept_value = center_rule(state)
        if state.played == 1:
            state.pile_needs = pile_needs(state, seat)
        return [context.center_events[seat][face]]
    target = action.target  # type: ignore[union-attr]
    state.piles = replaced(state.piles, target, state.piles[target] + (face,))
    state.hit |= 1 << target
    state.phase = OPPONENTS
    state.pile_needs = pile_needs(state, seat)
    events = [context.pile_events[seat][face][target]]
    if context.face_value[face] == 0:  # SNK-R10, SNK-A10: the round ends at once
        state.total_turns += 1  # the turn was cut short, but it was taken
        _end_round(state, "beach", events, beached=target)
    return events


def _add_to_hand(state: SnorkelingState, seat: int, face: int) -> None:
    """Hands are kept sorted by face (grouped by colour), so equal faces sit together."""
    hands = state.hands
    hand = hands[seat]
    i = bisect(hand, face)
    state.hands = hands[:seat] + (hand[:i] + (face,) + hand[i:],) + hands[seat + 1:]


def _can_draw(state: SnorkelingState) -> bool:
    return bool(state.deck) or len(state.center) > 1


def _draw(state: SnorkelingState, seat: int, events: list[Event]) -> bool:
    """SNK-R12: draw the top card, refilling the deck from the centre (all but its top) when it is empty."""
    deck = state.deck
    if not deck:
        center = state.center
        if len(center) == 1:
            events.append(state.context.no_draw_events[seat])
            return False
        cards = list(center[:-1])
        state.rng = state.rng.shuffle(cards)
        state.center = center[-1:]
        deck = tuple(cards)
        events.append(Refilled(len(deck)))
    face = deck[-1]
    state.deck = deck[:-1]
    _add_to_hand(state, seat, face)
    events.append(state.context.draw_events[seat][face])
    return True


def _end_turn(state: SnorkelingState, seat: int, passed: bool, events: list[Event]) -> None:
    """SNK-R11 in its order, then the round-stall checks of SNK-R13, then the next player's turn."""
    emptied = state.played > 0 and not state.hands[seat]  # SNK-R11.1, SNK-A8
    _draw(state, seat, events)  # SNK-R11.2, SNK-A16: every turn, a pass too
    if emptied:  # SNK-R11.3, SNK-A9: after the normal draw
        pile = state.piles[seat]
        if pile:
            face = pile[-1]
            state.piles = replaced(state.piles, seat, pile[:-1])
            _add_to_hand(state, seat, face)
            state.known = replaced(state.known, seat, state.known[seat] + (face,))
            events.append(Retrieved(seat, state.context.table.face_label[face]))
        else:  # SNK-A17: the Lanternfish never enters a hand
            _draw(state, seat, events)
    while len(state.hands[seat]) < 2 and _can_draw(state):  # SNK-R11.4, SNK-A7
        _draw(state, seat, events)
    state.turns += 1
    state.total_turns += 1
    # The turn is over: its centre cards are no longer "this turn's" (a refill may even have taken them away).
    state.played = 0
    state.hit = 0
    n = len(state.hands)
    if passed and not state.deck and len(state.center) == 1:
        state.stall += 1
    else:
        state.stall = 0
    if state.stall >= n:  # SNK-R13(a)
        _end_round(state, "stall", events)
    elif state.turns >= state.context.config.turn_cap:  # SNK-R13(b)
        _end_round(state, "turn_cap", events)
    else:
        state.active = (seat + 1) % n  # SNK-R11.5
        state.phase = CENTER
        state.accept_color, state.accept_value = center_rule(state)
        state.pile_needs = ()  # no centre card yet this turn (see refresh_acceptance)


def _end_round(state: SnorkelingState, reason: RoundEndReason, events: list[Event] | None,
               beached: int | None = None) -> None:
    """SNK-R17: score (SNK-R14), check the game end (SNK-R15), then finish or deal the next round (SNK-R3).

    The events go into ``events``; ``None`` builds none (a search's playout)."""
    n = len(state.hands)
    gains = [state.pile_top_value(seat) for seat in range(n)]  # SNK-R14, SNK-A24
    scores = state.scores = tuple(total + gain for total, gain in zip(state.scores, gains, strict=True))
    if events is not None:
        label = state.context.face_label
        tops = tuple(label[pile[-1]] if pile else None for pile in state.piles)
        events.append(RoundEnded(state.round, reason, tuple(gains), scores, tops, beached))
    best = max(scores)
    leaders = tuple(seat for seat in range(n) if scores[seat] == best)
    config = state.context.config
    # SNK-R15: a unique highest total at or above the target wins; a shared one plays another full round with
    # everyone (SNK-A11, SNK-A23), unless the round cap is reached, where the highest totals share the win (SNK-A27).
    reached = best >= config.target_score and len(leaders) == 1
    if reached or state.round >= config.round_cap:
        state.winners = leaders
        state.phase = GAME_OVER
        refresh_acceptance(state)
        if events is not None:
            events.append(GameOver(leaders, scores, SnorkelingTermination.TARGET_SCORE if reached
                                   else SnorkelingTermination.ROUND_CAP))
        return
    state.round += 1
    if state.context.config.next_round_starter == "rotate_left":  # SNK-R3.5, SNK-A12
        state.starter = (state.starter + 1) % n
    if events is None:
        _setup_round(state, with_events=False)
    else:
        events.extend(_setup_round(state))


def outcome(state: SnorkelingState) -> Outcome | None:
    if not state.winners:
        return None
    reached = len(state.winners) == 1 and state.scores[state.winners[0]] >= state.context.config.target_score
    termination = SnorkelingTermination.TARGET_SCORE if reached else SnorkelingTermination.ROUND_CAP
    return Outcome(state.winners, tuple(float(s) for s in state.scores), termination,
                   {"rounds": state.round, "turns": state.total_turns})
