"""Hold Your Breath!'s rules (HYB-R1..R41): setup, legality, and what each action does.

Legality is written once: the target predicates (``panic_targets``, ``shark_targets``...) and ``may_end`` say what
is allowed now; ``legal_actions`` enumerates with them and ``_validate`` calls them too, adding the reason and the
rule ID when an action fails. ``apply`` validates completely before it changes anything, so a rejected action
leaves the state untouched.

A turn's automatic steps (movement HYB-R20, surfacing HYB-R21/R22, replenishing HYB-R25, the final-turn count
HYB-R30, the end of a round HYB-R31/R32/R41) resolve inside ``apply``; the state then waits for the next decision.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence

from ...engine.errors import IllegalAction, MalformedInput
from ...engine.events import Event
from ...engine.outcome import Outcome
from ...engine.rng import SeededRng
from ...engine.state import replaced
from .actions import (
    END,
    KEEP,
    PLAYS,
    Action,
    Air,
    Calm,
    Discard,
    Draw,
    Drop,
    EndPlay,
    Gasp,
    Keep,
    Kraken,
    Lose,
    Mass,
    Panic,
    Play,
    Shark,
    Swim,
    Targeted,
    cached,
)
from .cards import label_name
from .config import HoldYourBreathConfig
from .events import (
    AscentStarted,
    Breathed,
    Calmed,
    Dealt,
    DescentEnded,
    Discarded,
    DrewCard,
    Dropped,
    FinalTurns,
    GameOver,
    Gasped,
    HoldYourBreathTermination,
    KrakenDiscards,
    KrakenStruck,
    Moved,
    Panicked,
    PlayEnded,
    Replenished,
    SetAside,
    SharkChased,
    SharkSet,
    Surfaced,
    Swam,
)
from .state import (
    ASCENT,
    BLIND,
    BREATH,
    DESCENT,
    DISCARD,
    DOWN,
    KRAKEN,
    NOT_INVOLVED,
    OVER,
    PANIC,
    PLAY,
    SHARK,
    WAITING,
    Cards,
    HoldYourBreathState,
    context_for,
    is_panic,
    item,
    item_face,
    without,
)

# -- setup (HYB-R2) ------------------------------------------------------------------------------------------------


def new_state(config: HoldYourBreathConfig, seed: int) -> tuple[HoldYourBreathState, list[Event]]:
    context = context_for(config)
    n = config.num_players
    state = object.__new__(HoldYourBreathState)
    state.context = context
    state.rng = SeededRng(seed)
    state.round = DESCENT
    state.first = config.first_player  # HYB-R2.3, HYB-A34
    state.piles = ((),) * n  # HYB-R2.1
    state.depths = (0,) * n
    state.anchors = ()
    state.surfaced = ()
    state.discard = ()
    state.turns = 0
    state.winners = ()
    state.ended = ""
    cards = list(context.table.deck)
    state.rng = state.rng.shuffle(cards)  # HYB-R2.2
    return state, _deal(state, cards)


def _deal(state: HoldYourBreathState, cards: list[int]) -> list[Event]:
    """Deal a full hand to each player one card at a time from the round's first player (HYB-R2.2, HYB-R32).

    ``cards`` is the shuffled deck, its top card last; a deck too small for every hand deals what it has.
    """
    n = len(state.depths)
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(state.context.hand_size * n):
        if not cards:
            break
        hands[(state.first + i) % n].append(cards.pop())
    state.hands = tuple(tuple(sorted(hand)) for hand in hands)
    state.deck = tuple(cards)
    state.active = state.first
    state.trigger = -1
    state.final_left = 0
    _start_turn(state)
    label = state.context.table.face_label
    return [Dealt(state.round, state.first, len(cards), tuple(len(hand) for hand in hands),
                  {seat: tuple(label[c] for c in hand) for seat, hand in enumerate(state.hands)})]


def _start_turn(state: HoldYourBreathState) -> None:
    state.phase = PLAY
    state.air = 0  # A and S are reset at the start of each turn (section 3 of the rules)
    state.swim = 0
    state.kraken = ()


# -- who may act, and the predicates legality is made of ---------------------------------------------------------

_SOLO = tuple(frozenset((seat,)) for seat in range(64))


def actors(state: HoldYourBreathState) -> frozenset[int]:
    phase = state.phase
    if phase == OVER:
        return frozenset()
    if phase == KRAKEN:  # HYB-R12: the Kraken's victims choose, each for themselves
        return frozenset(seat for seat, chosen in enumerate(state.kraken) if chosen == WAITING)
    return _SOLO[state.active]


def discard_targets(state: HoldYourBreathState, seat: int) -> list[int]:
    """HYB-R12 discard, HYB-A17: an opponent holding at least a full hand."""
    return discard_targets_in(state.hands, state.context.hand_size, seat)


def panic_targets(state: HoldYourBreathState, seat: int) -> list[int]:
    """HYB-R12 panic, HYB-A21, HYB-R34: an opponent still diving with no Panic (a Shark does not block)."""
    return panic_targets_in(state.piles, state.surfaced, seat)


def shark_targets(state: HoldYourBreathState, seat: int) -> list[int]:
    """HYB-R12 shark, HYB-A22, HYB-R34: an opponent still diving with no Shark (a Panic does not block)."""
    return shark_targets_in(state.piles, state.surfaced, seat)


def kraken_targets(state: HoldYourBreathState) -> list[int]:
    """HYB-R12 kraken_shark, HYB-A20: any player with a Shark, the Kraken's player included."""
    return kraken_targets_in(state.piles)


def calm_options(state: HoldYourBreathState, seat: int) -> list[tuple[int, int]]:
    """(item, target) pairs a Calm may be played with (HYB-R12 calm, HYB-A23, HYB-A24).

    A Panic is discarded (no target, -1). A Shark moves to another diver without a Shark, chosen by the player; if
    there is none it is discarded (-1).
    """
    return calm_options_in(state.piles, state.surfaced, seat)


def may_end(state: HoldYourBreathState, seat: int) -> bool:
    """HYB-R14, HYB-A4: with ``forced_breath``, a diver who has played no Air keeps playing while holding Air."""
    if not state.context.config.forced_breath or state.air or not state.is_diver(seat):
        return True
    verbs = state.context.table.face_verbs
    return not any("air" in verbs[face] for face in state.hands[seat])


# The same predicates on the fields they read, tuples or lists: the fast random playout (``playout.py``) keeps the
# state in lists while it plays and asks these too, so legality stays written once. Every Swim Pile item is a
# hindrance; an item is a Panic unless its low bits say SHARK (``state.item``).

def discard_targets_in(hands: Sequence[Sequence[int]], size: int, seat: int) -> list[int]:
    return [t for t, hand in enumerate(hands) if t != seat and len(hand) >= size]


def panic_targets_in(piles: Sequence[Sequence[int]], surfaced: Sequence[int], seat: int) -> list[int]:
    return [t for t, pile in enumerate(piles)
            if t != seat and t not in surfaced and all(entry & 3 == SHARK for entry in pile)]


def shark_targets_in(piles: Sequence[Sequence[int]], surfaced: Sequence[int], seat: int) -> list[int]:
    return [t for t, pile in enumerate(piles)
            if t != seat and t not in surfaced and all(entry & 3 != SHARK for entry in pile)]


def kraken_targets_in(piles: Sequence[Sequence[int]]) -> list[int]:
    return [t for t, pile in enumerate(piles) if any(entry & 3 == SHARK for entry in pile)]


def calm_options_in(piles: Sequence[Sequence[int]], surfaced: Sequence[int], seat: int) -> list[tuple[int, int]]:
    options: list[tuple[int, int]] = []
    recipients: list[int] | None = None
    for index, entry in enumerate(piles[seat]):
        if entry & 3 != SHARK:
            options.append((index, -1))
            continue
        if recipients is None:
            recipients = shark_targets_in(piles, surfaced, seat)
        options.extend((index, target) for target in recipients or [-1])
    return options


def _distinct(hand: Cards) -> list[int]:
    """The faces of a sorted hand, each once: copies are interchangeable, so one action per face."""
    faces: list[int] = []
    previous = -1
    for face in hand:
        if face != previous:
            faces.append(face)
            previous = face
    return faces


# -- legal actions -------------------------------------------------------------------------------------------------

def legal_actions(state: HoldYourBreathState, seat: int) -> list[Action]:
    phase = state.phase
    if phase == OVER or not 0 <= seat < len(state.hands):
        return []
    label = state.context.table.face_label
    if phase == KRAKEN:
        if not state.kraken or state.kraken[seat] != WAITING:
            return []
        return [cached(Lose, label[face]) for face in _distinct(state.hands[seat])]
    if seat != state.active:
        return []
    if phase == BREATH:
        return [cached(Gasp, label[face]) for face in _distinct(state.hands[seat])]
    if phase == DISCARD:
        return [KEEP, *(cached(Drop, label[face]) for face in _distinct(state.hands[seat]))]
    return _play_actions(state, seat)


def _targets(state: HoldYourBreathState, seat: int, kind: type) -> list[int]:
    if kind is Discard:
        return discard_targets(state, seat)
    if kind is Panic:
        return panic_targets(state, seat)
    if kind is Shark:
        return shark_targets(state, seat)
    return kraken_targets(state)


def _play_actions(state: HoldYourBreathState, seat: int) -> list[Action]:
    table = state.context.table
    actions: list[Action] = [END] if may_end(state, seat) else []
    diver = state.is_diver(seat)
    can_swim = diver and not state.hindered(seat)
    targets: dict[type, list[int]] = {}
    for face in _distinct(state.hands[seat]):
        verbs = table.face_verbs[face]
        card = table.face_label[face]
        wild = table.face_kind[face] == "dolphin"
        for kind, allowed in ((Air, diver), (Swim, can_swim)):
            if allowed and kind.verb in verbs:
                if wild:
                    actions.extend(cached(kind, card, value) for value in table.dolphin_values)
                else:
                    actions.append(cached(kind, card))
        for verb in table.face_actions[face]:
            play: type = PLAYS[verb]
            if play is Draw or play is Mass:
                actions.append(cached(play, card))
            elif play is Calm:
                actions.extend(cached(Calm, card, index, target) for index, target in calm_options(state, seat))
            else:
                if play not in targets:
                    targets[play] = _targets(state, seat, play)
                actions.extend(cached(play, card, target) for target in targets[play])
    return actions


# -- validation ------------------------------------------------------------------------------------------------------

def _hand_face(state: HoldYourBreathState, seat: int, card: str, rule: str) -> int:
    face = state.context.table.face_by_label.get(card, -1)
    if face < 0:
        raise MalformedInput(f"there is no card {card} in this deck")
    if face not in state.hands[seat]:
        raise IllegalAction(f"you have no {label_name(card)} in your hand", rule)
    return face


def validate(state: HoldYourBreathState, seat: int, action: Action) -> int | None:
    """Check ``action`` by ``seat`` (an actor: the engine's frame has checked that) completely; return the face it
    uses (``None`` for end and keep). Raises ``IllegalAction`` with the reason and rule ID."""
    phase = state.phase
    if phase == KRAKEN:
        if not isinstance(action, Lose):
            raise IllegalAction("the Kraken makes you give up a card first: 'lose <card>'", "HYB-R12")
        return _hand_face(state, seat, action.card, "HYB-R12")
    match action:
        case Lose():
            raise IllegalAction("only a victim of the Kraken's mass discard gives up a card", "HYB-R12")
        case Gasp(card=card) if phase == BREATH:
            return _hand_face(state, seat, card, "HYB-R23")
        case _ if phase == BREATH:
            raise IllegalAction("you took no Air this turn: lay a card face down as a Panic first ('gasp <card>')",
                                "HYB-R23")
        case Gasp():
            raise IllegalAction("a breath penalty comes only after a turn without Air", "HYB-R23")
        case Keep() if phase == DISCARD:
            return None
        case Drop(card=card) if phase == DISCARD:
            return _hand_face(state, seat, card, "HYB-R24")
        case _ if phase == DISCARD:
            raise IllegalAction("your plays are over: discard cards from your hand or keep the rest", "HYB-R24")
        case Keep() | Drop():
            raise IllegalAction("discarding from your hand comes after ending your plays ('end')", "HYB-R24")
        case EndPlay():
            if not may_end(state, seat):
                raise IllegalAction("you hold an Air card (or a Dolphin) and have taken no Air: play one for Air "
                                    "before ending", "HYB-R14")
            return None
        case Air() | Swim() | Draw() | Mass() | Discard() | Panic() | Shark() | Kraken() | Calm():
            return _validate_play(state, seat, action)
    raise MalformedInput(f"not a Hold Your Breath! action: {action!r}")


def _validate_play(state: HoldYourBreathState, seat: int, action: Play) -> int:
    table = state.context.table
    verb = action.verb
    rule = {"air": "HYB-R10", "swim": "HYB-R11"}.get(verb, "HYB-R12")
    face = _hand_face(state, seat, action.card, rule)
    card = label_name(action.card)  # in players' words: reasons are read in "Why not?"
    if verb not in table.face_verbs[face]:
        if isinstance(action, Air | Swim):
            raise IllegalAction(f"{card} is not a{'n' if verb == 'air' else ''} {verb.capitalize()} card", rule)
        icon = "Kraken" if verb == "mass" else verb.capitalize()
        raise IllegalAction(f"{card} has no {icon} icon", "HYB-R12")
    match action:
        case Air(value=value) | Swim(value=value):
            if not state.is_diver(seat):
                raise IllegalAction("you have surfaced: Air and Swim cards no longer move you", "HYB-R34")
            if table.face_kind[face] == "dolphin":
                if value not in table.dolphin_values:
                    values = " or ".join(map(str, table.dolphin_values))
                    raise IllegalAction(f"a Dolphin played for {verb.capitalize()} is worth {values}", "HYB-R13")
            elif value:
                raise IllegalAction(f"only a Dolphin is declared with a value; {card} is worth "
                                    f"{table.face_value[face]}", "HYB-R13")
            if isinstance(action, Swim) and state.hindered(seat):
                raise IllegalAction("clear your Swim Pile (every Panic and the Shark) before playing Swim", "HYB-R11")
        case Discard() | Panic() | Shark() | Kraken():
            _validate_target(state, seat, action)
        case Calm(item=index, target=target):
            _validate_calm(state, seat, index, target)
    return face


def _validate_target(state: HoldYourBreathState, seat: int, action: Targeted) -> None:
    target = action.target
    name = action.verb.capitalize()
    if not 0 <= target < len(state.hands):
        raise IllegalAction(f"there is no seat {target + 1} to play on", "HYB-R12")
    if isinstance(action, Kraken):
        if not state.has_shark(target):
            raise IllegalAction(f"seat {target + 1} has no Shark for the Kraken to remove", "HYB-R12")
        return
    if target == seat:
        raise IllegalAction(f"a {name} is played on an opponent, not on yourself", "HYB-R12")
    if isinstance(action, Discard):
        size = state.context.hand_size
        held = len(state.hands[target])
        if held < size:
            raise IllegalAction(f"seat {target + 1} holds {held} card(s): a Discard needs an opponent holding {size}",
                                "HYB-A17")
        return
    if not state.is_diver(target):
        raise IllegalAction(f"seat {target + 1} has surfaced and can no longer be hindered", "HYB-R34")
    if isinstance(action, Panic) and state.has_panic(target):
        raise IllegalAction(f"seat {target + 1} already has a Panic in their Swim Pile", "HYB-R12")
    if isinstance(action, Shark) and state.has_shark(target):
        raise IllegalAction(f"seat {target + 1} already has a Shark: a Swim Pile holds at most one", "HYB-A22")


def _validate_calm(state: HoldYourBreathState, seat: int, index: int, target: int) -> None:
    pile = state.piles[seat]
    if not pile:
        raise IllegalAction("your Swim Pile holds nothing to calm", "HYB-R12")
    if not 0 <= index < len(pile):
        raise IllegalAction(f"your Swim Pile has hindrances 0 to {len(pile) - 1}, not {index}", "HYB-R12")
    if is_panic(pile[index]):
        if target != -1:
            raise IllegalAction("a calmed Panic goes to the Discard Pile: name no seat", "HYB-R12")
        return
    recipients = shark_targets(state, seat)
    if not recipients:
        if target != -1:
            raise IllegalAction("no other diver can take the Shark: it goes to the Discard Pile", "HYB-A23")
        return
    if target not in recipients:
        names = ", ".join(str(recipient + 1) for recipient in recipients)
        raise IllegalAction(f"the calmed Shark moves to another diver without a Shark: seat {names}", "HYB-A23")


# -- effects ---------------------------------------------------------------------------------------------------------

def perform(state: HoldYourBreathState, seat: int, action: Action) -> list[Event]:
    """Validate ``action`` completely, then do it; the events say what happened."""
    face = validate(state, seat, action)
    events: list[Event] = []
    match action:
        case EndPlay():
            _resolve(state, seat, events)
        case Keep():
            _finish_turn(state, seat, events)
        case Gasp(card=card):
            assert face is not None
            _take(state, seat, face)
            state.piles = replaced(state.piles, seat, state.piles[seat] + (item(face, DOWN),))
            events.append(Gasped(seat, False, {seat: card}))
            _after_penalty(state, seat, events)
        case Drop(card=card):
            assert face is not None
            _take(state, seat, face)
            state.discard += (face,)
            events.append(Dropped(seat, card))
            if not state.hands[seat]:
                _finish_turn(state, seat, events)
        case Lose():
            assert face is not None
            _lose(state, seat, face, events)
        case _:
            assert face is not None
            _take(state, seat, face)
            events.extend(_play(state, seat, action, face))
    return events


def _take(state: HoldYourBreathState, seat: int, face: int) -> None:
    state.hands = replaced(state.hands, seat, without(state.hands[seat], face))


def _give(state: HoldYourBreathState, seat: int, face: int) -> None:
    hand = list(state.hands[seat])
    insort(hand, face)
    state.hands = replaced(state.hands, seat, tuple(hand))


def _random_card(state: HoldYourBreathState, seat: int) -> int:
    """A uniformly random card of ``seat``'s hand, drawn from the state's RNG (HYB-A18)."""
    order = list(range(len(state.hands[seat])))
    state.rng = state.rng.shuffle(order)
    return state.hands[seat][order[0]]


def _to_pile(state: HoldYourBreathState, seat: int, entry: int) -> None:
    state.piles = replaced(state.piles, seat, state.piles[seat] + (entry,))


def _play(state: HoldYourBreathState, seat: int, action: Play, face: int) -> list[Event]:
    """The effect of a card play (the card has left the hand); Panics and Sharks stay in a Swim Pile, every other
    played card goes to the Discard Pile."""
    table = state.context.table
    label = table.face_label
    card = action.card
    match action:
        case Panic(target=target):  # HYB-A33: the card itself lies face up in the target's Swim Pile
            _to_pile(state, target, item(face, PANIC))
            return [Panicked(seat, card, target)]
        case Shark(target=target):
            _to_pile(state, target, item(face, SHARK))
            return [SharkSet(seat, card, target)]
    state.discard += (face,)
    match action:
        case Air(value=value):  # HYB-R10, HYB-R13
            state.air += value or table.face_value[face]
            return [Breathed(seat, card, value or table.face_value[face])]
        case Swim(value=value):  # HYB-R11, HYB-R13
            state.swim += value or table.face_value[face]
            return [Swam(seat, card, value or table.face_value[face])]
        case Draw():  # HYB-A27: with an empty deck the play is legal and draws nothing
            if not state.deck:
                return [DrewCard(seat, card, False, 0, {})]
            drawn = state.deck[-1]
            state.deck = state.deck[:-1]
            _give(state, seat, drawn)
            return [DrewCard(seat, card, True, len(state.deck), {seat: label[drawn]})]
        case Discard(target=target):  # HYB-A17, HYB-A18: a random card of the target's hand, face up
            lost = _random_card(state, target)
            _take(state, target, lost)
            state.discard += (lost,)
            return [Discarded(seat, card, target, label[lost])]
        case Calm(item=index, target=target):  # HYB-A23, HYB-A24: one hindrance of the player's choice
            pile = state.piles[seat]
            entry = pile[index]
            state.piles = replaced(state.piles, seat, pile[:index] + pile[index + 1:])
            removed = item_face(entry)
            if is_panic(entry) or target < 0:
                state.discard += (removed,)
            else:
                _to_pile(state, target, item(removed, SHARK))
            return [Calmed(seat, card, index, "panic" if is_panic(entry) else "shark", label[removed],
                           None if is_panic(entry) or target < 0 else target)]
        case Kraken(target=target):
            pile = state.piles[target]
            index = next(i for i, entry in enumerate(pile) if not is_panic(entry))
            state.piles = replaced(state.piles, target, pile[:index] + pile[index + 1:])
            state.discard += (item_face(pile[index]),)
            return [SharkChased(seat, card, target, label[item_face(pile[index])])]
    return _mass(state, seat, card)


def _mass(state: HoldYourBreathState, seat: int, card: str) -> list[Event]:
    """HYB-A19: hand sizes are counted after the Kraken left the player's hand; with ``random`` each victim loses a
    random card at once, else the victims choose (phase KRAKEN)."""
    size = state.context.hand_size
    victims = tuple(s for s, hand in enumerate(state.hands) if len(hand) >= size)
    if victims and state.context.config.kraken_discard == "random":
        losses = []
        for victim in victims:
            lost = _random_card(state, victim)
            _take(state, victim, lost)
            losses.append(lost)
        state.discard += tuple(losses)
        label = state.context.table.face_label
        return [KrakenStruck(seat, card, victims),
                KrakenDiscards(tuple((v, label[f]) for v, f in zip(victims, losses, strict=True)))]
    if victims:
        state.kraken = tuple(WAITING if s in victims else NOT_INVOLVED for s in range(len(state.hands)))
        state.phase = KRAKEN
    return [KrakenStruck(seat, card, victims)]


def _lose(state: HoldYourBreathState, seat: int, face: int, events: list[Event]) -> None:
    """HYB-R12 KRAKEN_DISCARDS: a victim sets a card aside; when all are in they go to the Discard Pile together."""
    label = state.context.table.face_label
    _take(state, seat, face)
    state.kraken = replaced(state.kraken, seat, face)
    events.append(SetAside(seat, {seat: label[face]}))
    if WAITING in state.kraken:
        return
    losses = tuple((victim, chosen) for victim, chosen in enumerate(state.kraken) if chosen >= 0)
    state.discard += tuple(chosen for _, chosen in losses)
    state.kraken = ()
    state.phase = PLAY
    events.append(KrakenDiscards(tuple((victim, label[chosen]) for victim, chosen in losses)))


def _resolve(state: HoldYourBreathState, seat: int, events: list[Event]) -> None:
    """``end``: movement (HYB-R20), surfacing and the immediate win (HYB-R21, R22), the breath penalty (HYB-R23)."""
    air, swim = state.air, state.swim
    moved = min(air, swim)  # HYB-A3: the lesser of the turn's totals
    events.append(PlayEnded(seat, air, swim, moved))
    context = state.context
    if state.is_diver(seat) and moved:
        old = state.depths[seat]
        # HYB-A8: down to the bottom of the board in the Descent, up to the surface in the Ascent; excess is lost
        new = min(old + moved, context.max_depth) if state.round == DESCENT else max(old - moved, 0)
        if new != old:
            state.depths = replaced(state.depths, seat, new)
            events.append(Moved(seat, state.round, old, new))
        if state.round == ASCENT and old > 0 and new == 0:  # HYB-R21
            state.surfaced += (seat,)
            events.append(Surfaced(seat, len(state.surfaced)))
            anchor = state.anchors[seat]
            if anchor > 0 and anchor == max(state.anchors):  # HYB-R22: the rest of the turn is not played
                _game_over(state, (seat,), "HYB-R22", events)
                return
    if state.is_diver(seat) and not air:  # HYB-R23, HYB-A4
        if state.hands[seat]:
            state.phase = BREATH
            return
        if context.config.empty_hand_panic == "deck_top" and state.deck:  # HYB-A6
            top = state.deck[-1]
            state.deck = state.deck[:-1]
            _to_pile(state, seat, item(top, BLIND))
            events.append(Gasped(seat, True, {}))
    _after_penalty(state, seat, events)


def _after_penalty(state: HoldYourBreathState, seat: int, events: list[Event]) -> None:
    """HYB-R24: the player discards what they like; with an empty hand there is nothing to choose."""
    if state.hands[seat]:
        state.phase = DISCARD
    else:
        _finish_turn(state, seat, events)


def _finish_turn(state: HoldYourBreathState, seat: int, events: list[Event]) -> None:
    """HYB-R25 replenish, HYB-R26/R30 the final-turn count, then the next player (or the end of the round)."""
    context = state.context
    label = context.table.face_label
    deck = state.deck
    drawn: list[int] = []
    while len(state.hands[seat]) + len(drawn) < context.hand_size and deck:
        drawn.append(deck[-1])
        deck = deck[:-1]
    if drawn:
        state.deck = deck
        state.hands = replaced(state.hands, seat, tuple(sorted(state.hands[seat] + tuple(drawn))))
        events.append(Replenished(seat, len(drawn), len(deck), {seat: tuple(label[c] for c in drawn)}))
    state.turns += 1
    n = len(state.hands)
    if state.trigger >= 0:
        state.final_left -= 1
        if state.final_left == 0:
            _end_round(state, events)
            return
    elif _triggers_final_turns(state, seat):
        state.trigger = seat
        state.final_left = n
        events.append(FinalTurns(seat, state.round))
    state.active = (seat + 1) % n
    _start_turn(state)


def _triggers_final_turns(state: HoldYourBreathState, seat: int) -> bool:
    """HYB-R30, HYB-A10: the turn that ends with the deck empty, or (``short_hand``) a hand left short."""
    if state.deck:
        return False
    if state.context.config.final_turn_trigger == "deck_emptied":
        return True
    return len(state.hands[seat]) < state.context.hand_size


def _end_round(state: HoldYourBreathState, events: list[Event]) -> None:
    if state.round == ASCENT:
        _game_over(state, winners_at_end(state), "HYB-R41", events)
        return
    state.anchors = state.depths  # HYB-R31
    events.append(DescentEnded(state.anchors))
    _setup_ascent(state, events)


def _setup_ascent(state: HoldYourBreathState, events: list[Event]) -> None:
    """HYB-R32 in its order: Swim Piles stay, hands to the Discard Pile, the first player, shuffle, deal."""
    n = len(state.hands)
    cards = list(state.discard)
    for hand in state.hands:
        cards.extend(hand)
    shallowest = min(state.anchors)
    tied = tuple(seat for seat in range(n) if state.anchors[seat] == shallowest)
    if len(tied) == 1:
        first = tied[0]
    elif state.context.config.ascent_tie_break == "random":  # HYB-A12: rock-paper-scissors, seeded
        order = list(tied)
        state.rng = state.rng.shuffle(order)
        first = order[0]
    else:  # the first tied seat clockwise from the Descent's first player
        first = min(tied, key=lambda seat: (seat - state.first) % n)
    state.rng = state.rng.shuffle(cards)
    state.round = ASCENT
    state.first = first
    state.discard = ()
    events.append(AscentStarted(first, tied, len(cards)))
    events.extend(_deal(state, cards))


# -- the end (HYB-R40, HYB-R41) --------------------------------------------------------------------------------------

def distance(state: HoldYourBreathState, seat: int) -> int:
    """HYB-R41: down and back up, less the hindrance penalty per card still in the Swim Pile (HYB-A14)."""
    anchor = state.anchors[seat] if state.anchors else state.depths[seat]
    return anchor + (anchor - state.depths[seat]) - state.context.table.hindrance_penalty * len(state.piles[seat])


def winners_at_end(state: HoldYourBreathState) -> tuple[int, ...]:
    """HYB-R41, HYB-A13, HYB-A15: surfaced players first (greatest anchor, then earliest), else total distance."""
    if state.context.config.winner_rule == "surfaced_first" and state.surfaced:
        best = max(state.anchors[seat] for seat in state.surfaced)
        return (next(seat for seat in state.surfaced if state.anchors[seat] == best),)
    totals = [distance(state, seat) for seat in range(len(state.hands))]
    best = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


def termination(state: HoldYourBreathState) -> HoldYourBreathTermination:
    """How the finished game in ``state`` was won."""
    if state.ended == "HYB-R22":
        return HoldYourBreathTermination.DEEPEST_SURFACED
    if state.context.config.winner_rule == "surfaced_first" and state.surfaced:
        return HoldYourBreathTermination.SURFACED_FIRST
    return HoldYourBreathTermination.DISTANCE


def _game_over(state: HoldYourBreathState, winners: tuple[int, ...], rule: str, events: list[Event]) -> None:
    state.winners = winners
    state.ended = rule
    state.phase = OVER
    state.kraken = ()
    n = len(state.hands)
    events.append(GameOver(winners, termination(state), rule, tuple(distance(state, seat) for seat in range(n)),
                           state.anchors, state.surfaced))


def outcome(state: HoldYourBreathState) -> Outcome | None:
    if not state.winners:
        return None
    n = len(state.hands)
    by = termination(state)
    return Outcome(state.winners, tuple(float(distance(state, seat)) for seat in range(n)), by,
                   {"turns": state.turns, "by": str(by), "anchors": list(state.anchors),
                    "depths": list(state.depths), "surfaced": list(state.surfaced),
                    "hindrances": [len(pile) for pile in state.piles]})
