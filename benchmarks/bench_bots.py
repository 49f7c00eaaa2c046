"""Search-bot speed benchmark: divedeck's ISMCTS against OpenSpiel's, in simulations per second, interleaved.

Five contenders search from mid-game decision states in one process, each with a fixed number of simulations per
search (one determinization, one walk down the tree, one random rollout each):

* ``divedeck-full``: ``divedeck.bots.ismcts.ISMCTSBot`` on 4-player Snorkeling, uniformly random rollouts played
  to the end of the game (every round to the target score), no early stop;
* ``divedeck-round``: the same with the rollout stopped at the end of the round, where its scoring is exact, and the
  evaluation of the totals then: a Snorkeling round is one deal, like a whole game of crazy_eights;
* ``divedeck-cut``: the same with the rollout also cut after 40 random actions and the evaluation of the totals so far
  (what the ``hard`` level uses: ``divedeck.bots.evaluation``);
* ``openspiel-py``: OpenSpiel's Python ISMCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) on 4-player
  ``crazy_eights``, with ``RandomRolloutEvaluator(n_rollouts=1)``, observation-string keys and the resampler below
  (crazy_eights has no ``ResampleFromInfostate``, so OpenSpiel's C++ bot cannot play it);
* ``openspiel-cpp``: OpenSpiel's C++ ``pyspiel.ISMCTSBot`` on ``euchre`` (which can resample itself), with the C++
  ``RandomRolloutEvaluator``: the compiled reference.

The machine is a noisy shared VM, so the budget is cut into rounds: each round runs a chunk of every contender,
sized from its recent rate to take the same time, in an order that rotates every round. Figures are medians over
rounds; every ratio is the median of per-round ratios.

    uv run --group bench python benchmarks/bench_bots.py [--seconds 120] [--simulations 200] [--json out.json]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from bench_engine import environment, fmt_spread, spread

from divedeck.bots.base import Decision
from divedeck.bots.evaluation import evaluator_for
from divedeck.bots.ismcts import ISMCTSBot
from divedeck.engine import get_game

FULL, ROUND, CUT = "divedeck-full", "divedeck-round", "divedeck-cut"
OPENSPIEL_PY, OPENSPIEL_CPP = "openspiel-py", "openspiel-cpp"
SIMS_VS_OPENSPIEL_PY = 3.0  # target from the issue: ISMCTS simulations/s at least 3x OpenSpiel's Python ISMCTS
PLAYERS = 4
HARD = evaluator_for(get_game("snorkeling"))  # the evaluation and rollout cutoff the hard level uses
assert HARD is not None
CUTOFF = HARD.actions
UCT_C_OPENSPIEL = 2.0  # crazy_eights' returns are card points, not [0, 1]: OpenSpiel's usual constant


class Unavailable(Exception):
    """OpenSpiel is not installed (uv sync --group bench)."""


def _middle_half(trail: list[Any]) -> list[Any]:
    start = len(trail) // 4
    return trail[start: max(start + 1, 3 * len(trail) // 4)]


# --- divedeck -------------------------------------------------------------------------------------------------


def snorkeling_states(samples: int, seed: int) -> list[Any]:
    """Decision states with a choice (two legal actions or more) from the middle half of random 4-player games."""
    game = get_game("snorkeling")
    config = game.make_config({"num_players": PLAYERS})
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < samples:
        state = game.new(config, rng.getrandbits(63))
        trail = []
        while game.outcome(state) is None:
            seat = min(game.actors(state))
            legal = game.legal_actions(state, seat)
            if len(legal) > 1:
                trail.append(state.clone())
            game.apply(state, seat, rng.choice(legal))
        states.extend(_middle_half(trail))
    rng.shuffle(states)  # each chunk of searches then samples many games, not a stretch of one
    return states[:samples]


def snorkeling_searcher(rollouts: str) -> Callable[[list[Any], int, int], tuple[int, float]]:
    """Searches with random rollouts to the end of the game (``FULL``), to the end of the round with its exact
    scoring evaluated (``ROUND``), or as ``hard`` plays them (``CUT``)."""
    game = get_game("snorkeling")

    def searches(states: list[Any], simulations: int, seed: int) -> tuple[int, float]:
        if rollouts == CUT:
            bot = ISMCTSBot(seed, iterations=simulations, early_stop=False, cutoff=CUTOFF, evaluator=HARD.evaluator,
                            stop_events=HARD.events)
        elif rollouts == ROUND:
            bot = ISMCTSBot(seed, iterations=simulations, early_stop=False, evaluator=HARD.evaluator,
                            stop_events=HARD.events)
        else:
            bot = ISMCTSBot(seed, iterations=simulations, early_stop=False)
        decisions = []
        for state in states:
            seat = state.active
            decisions.append(Decision(game, seat, {}, game.legal_actions(state, seat),
                                      partial(game.determinize, state, seat)))
        done = 0
        started = time.perf_counter()
        for decision in decisions:
            bot.search(decision)
            done += bot.last.iterations
        return done, time.perf_counter() - started

    return searches


# --- OpenSpiel ----------------------------------------------------------------------------------------------------


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError as exc:
        raise Unavailable("install the benchmark group: uv sync --group bench") from exc
    return pyspiel


def openspiel_states(game: Any, samples: int, seed: int) -> list[Any]:
    """Decision states with a choice from the middle half of random games of an OpenSpiel game."""
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < samples:
        state = game.new_initial_state()
        trail = []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                legal = state.legal_actions()
                if len(legal) > 1:
                    trail.append(state.clone())
                state.apply_action(rng.choice(legal))
        states.extend(_middle_half(trail))
    rng.shuffle(states)
    return states[:samples]


class CrazyEightsResampler:
    """A state of OpenSpiel's ``crazy_eights`` that ``player`` cannot tell from the given one, for ISMCTS.

    Chance outcomes in crazy_eights are the cards themselves (the dealer, then a deal of ``hand size x players``
    cards round the table from the dealer's left, then the face-up card, turned again while it is an 8, which goes
    back into the deck, then one chance node per ``Draw``), so a state is its action history. The resampler keeps
    every action the player saw and re-deals the cards the other players received unseen: their current hands are
    drawn uniformly from the cards the player cannot locate, and each opponent's chance slots are filled, earliest
    first, with the card it plays soonest among those it could hold by then (earliest deadline first), its current
    hand last. A re-deal that cannot work (an 8 put back into the deck given to someone before that) is drawn again,
    so the hands stay uniform given what the player saw. Replaying the new history gives the state. The analysis of
    a history is cached: each simulation pays for a shuffle, the re-deal and the replay.
    """

    def __init__(self, game: Any, seed: int) -> None:
        self.pyspiel = _pyspiel()
        self.game = game
        self.players = game.num_players()
        self.rng = random.Random(seed)
        self.cards = game.max_chance_outcomes() - self.players  # chance outcomes: the cards, then one per dealer
        self.deal = self.players * (7 if self.players == 2 else 5)  # OpenSpiel's crazy_eights: 7 cards each for two
        self.cache: dict[tuple[tuple[int, ...], int], Any] = {}

    def _analyse(self, state: Any, player: int) -> Any:
        history = tuple(state.history())
        key = (history, player)
        found = self.cache.get(key)
        if found is not None:
            return found
        chance = self.pyspiel.PlayerId.CHANCE
        replay = self.game.new_initial_state()
        dealer = None
        dealt = 0
        dealing = True
        drawer = -1
        slots: list[tuple[int, int, int]] = []  # (history index, receiving seat, card)
        upcard = -1
        played: list[dict[int, int]] = [{} for _ in range(self.players)]  # card -> index where its owner played it
        returned: dict[int, int] = {}  # a face-up 8 put back into the deck -> when (no one may hold it before)
        for index, action in enumerate(history):
            if replay.is_chance_node():
                if dealer is None:
                    dealer = action - self.cards
                    assert replay.action_to_string(chance, action).startswith(f"Decide Player {dealer} ")
                elif dealing:
                    dealt += 1
                    if dealt <= self.deal:
                        slots.append((index, (dealer + dealt) % self.players, action))
                    else:  # a face-up card; an 8 goes back into the deck and the next one is turned up
                        if upcard >= 0:
                            returned[upcard] = index
                        upcard = action
                else:
                    slots.append((index, drawer, action))
            else:
                if dealing:
                    dealing = False
                    assert dealt > self.deal, "crazy_eights dealt fewer cards than expected"
                seat = replay.current_player()
                if action == self.cards:  # "Draw": the next chance outcome goes to this seat
                    drawer = seat
                elif action < self.cards:  # "Play <card>"
                    played[seat][action] = index
            replay.apply_action(action)
        seen = {card for _, seat, card in slots if seat == player} | {upcard}
        seen |= {card for seat in range(self.players) if seat != player for card in played[seat]}
        pool = [card for card in range(self.cards) if card not in seen]
        sizes = [sum(1 for _, s, _ in slots if s == seat) - len(played[seat]) for seat in range(self.players)]
        found = (history, slots, played, returned, pool, sizes)
        self.cache[key] = found
        return found

    def __call__(self, state: Any, player: int) -> Any:
        history, slots, played, returned, pool, sizes = self._analyse(state, player)
        never = len(history)
        while True:  # rejection: a re-deal that would need a returned 8 before it was returned is drawn again
            actions = self._redeal(history, slots, played, returned, pool, sizes, player, never)
            if actions is not None:
                break
        sample = self.game.new_initial_state()
        for action in actions:
            sample.apply_action(action)
        return sample

    def _redeal(self, history: tuple[int, ...], slots: list[tuple[int, int, int]], played: list[dict[int, int]],
                returned: dict[int, int], pool: list[int], sizes: list[int], player: int, never: int,
                ) -> list[int] | None:
        pool = list(pool)
        self.rng.shuffle(pool)
        # Per opponent, the cards it received: (deadline, release, card); a card still in hand has no deadline.
        received: dict[int, list[tuple[int, int, int]]] = {}
        taken = 0
        for seat in range(self.players):
            if seat != player:
                cards = [(index, returned.get(card, -1), card) for card, index in played[seat].items()]
                cards += [(never, returned.get(card, -1), card) for card in pool[taken: taken + sizes[seat]]]
                taken += sizes[seat]
                received[seat] = sorted(cards)
        actions = list(history)
        for index, seat, _ in slots:
            if seat == player:
                continue
            cards = received[seat]
            for k, (deadline, release, card) in enumerate(cards):  # earliest deadline first among released cards
                if release < index:
                    if deadline < index:
                        return None
                    actions[index] = card
                    del cards[k]
                    break
            else:
                return None
        return actions


def check_resampler(game: Any, states: list[Any], seed: int) -> int:
    """Every resample must look the same to the player (observation and legal actions) and hide a different deal."""
    resample = CrazyEightsResampler(game, seed)
    differ = 0
    for state in states:
        player = state.current_player()
        sample = resample(state, player)
        if (sample.observation_string(player) != state.observation_string(player)
                or sample.legal_actions() != state.legal_actions()):
            raise AssertionError(f"the crazy_eights resampler changed what player {player} sees")
        differ += sample.history() != state.history()
    return differ


def openspiel_python_searcher(game: Any) -> Callable[[list[Any], int, int], tuple[int, float]]:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    def searches(states: list[Any], simulations: int, seed: int) -> tuple[int, float]:
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)), UCT_C_OPENSPIEL,
                               simulations, random_state=np.random.RandomState(seed + 1),
                               final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                               use_observation_string=True)
        bot.set_resampler(CrazyEightsResampler(game, seed + 2))
        started = time.perf_counter()
        for state in states:
            bot.run_search(state)
        return simulations * len(states), time.perf_counter() - started

    return searches


def openspiel_cpp_searcher(pyspiel: Any) -> Callable[[list[Any], int, int], tuple[int, float]]:
    def searches(states: list[Any], simulations: int, seed: int) -> tuple[int, float]:
        bot = pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed + 1), UCT_C_OPENSPIEL, simulations, -1,
                                pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
        started = time.perf_counter()
        for state in states:
            bot.step(state)
        return simulations * len(states), time.perf_counter() - started

    return searches


# --- contenders and rounds ------------------------------------------------------------------------------------------


@dataclass
class Contender:
    name: str
    label: str
    searches: Callable[[list[Any], int, int], tuple[int, float]]
    states: list[Any]
    playout_length: float  # mean random-playout length to the end from the states (decisions + chance steps)
    searches_per_second: float = 0.0
    next_state: int = 0
    rates: list[float] = field(default_factory=list)


def snorkeling_playout_length(states: list[Any], seed: int, rollouts: str = FULL) -> float:
    """The mean length of the contender's rollouts from ``states`` (to the end, to the round's end, or cut)."""
    game = get_game("snorkeling")
    rng = random.Random(seed)
    stop = frozenset() if rollouts == FULL else HARD.events
    limit = CUTOFF if rollouts == CUT else 1 << 62
    steps = sum(game.random_playout(state.clone(), rng.random, limit, stop) for state in states)
    return steps / len(states)


def openspiel_playout_length(states: list[Any], seed: int) -> float:
    rng = random.Random(seed)
    steps = 0
    for state in states:
        state = state.clone()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / len(states)


def make_contenders(samples: int, seed: int) -> list[Contender]:
    states = snorkeling_states(samples, seed)
    contenders = [
        Contender(FULL, "divedeck ISMCTS, Snorkeling 4p, random rollouts to the end of the game",
                  snorkeling_searcher(FULL), states, snorkeling_playout_length(states, seed)),
        Contender(ROUND, "divedeck ISMCTS, Snorkeling 4p, random rollouts to the end of the round + evaluation",
                  snorkeling_searcher(ROUND), states, snorkeling_playout_length(states, seed, ROUND)),
        Contender(CUT, f"divedeck ISMCTS, Snorkeling 4p, random rollouts to the end of the round, at most {CUTOFF} "
                  "actions, + evaluation", snorkeling_searcher(CUT), states,
                  snorkeling_playout_length(states, seed, CUT)),
    ]
    try:
        pyspiel = _pyspiel()
    except Unavailable as exc:
        print(f"OpenSpiel is not installed, measuring divedeck alone; {exc}")
        return contenders
    eights = pyspiel.load_game("crazy_eights", {"players": PLAYERS})
    eights_states = openspiel_states(eights, samples, seed + 1)
    differ = check_resampler(eights, eights_states, seed)
    print(f"crazy_eights resampler checked on {len(eights_states)} states ({differ} re-dealt differently)")
    euchre = pyspiel.load_game("euchre")
    euchre_states = openspiel_states(euchre, samples, seed + 2)
    contenders += [
        Contender(OPENSPIEL_PY, "OpenSpiel Python ISMCTS, crazy_eights 4p", openspiel_python_searcher(eights),
                  eights_states, openspiel_playout_length(eights_states, seed)),
        Contender(OPENSPIEL_CPP, "OpenSpiel C++ ISMCTSBot, euchre 4p", openspiel_cpp_searcher(pyspiel),
                  euchre_states, openspiel_playout_length(euchre_states, seed)),
    ]
    return contenders


def run_chunk(contender: Contender, seconds: float, simulations: int, seed: int) -> None:
    """About ``seconds`` of searches from the contender's next states; records its simulations per second."""
    count = max(1, round(seconds * contender.searches_per_second))
    states = [contender.states[(contender.next_state + i) % len(contender.states)] for i in range(count)]
    contender.next_state += count
    gc.collect()
    done, elapsed = contender.searches(states, simulations, seed)
    contender.rates.append(done / elapsed)
    contender.searches_per_second = statistics.median(contender.rates[-5:]) / simulations


def benchmark(contenders: list[Contender], budget: float, rounds: int, simulations: int, seed: int) -> float:
    began = time.perf_counter()
    master = random.Random(seed)
    for contender in contenders:  # warm up and a first rate
        done, elapsed = contender.searches(contender.states[:3], simulations, master.getrandbits(31))
        contender.searches_per_second = done / elapsed / simulations
        contender.next_state = 3
    for index in range(rounds):
        left = budget - (time.perf_counter() - began)
        chunk = max(0.1, left / (rounds - index) / len(contenders))
        shift = index % len(contenders)
        for contender in contenders[shift:] + contenders[:shift]:
            run_chunk(contender, chunk, simulations, master.getrandbits(31))
        print(f"\r  round {index + 1}/{rounds}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return time.perf_counter() - began


def ratio(numerators: list[float], denominators: list[float], target: float | None = None) -> dict[str, Any]:
    found: dict[str, Any] = spread([a / b for a, b in zip(numerators, denominators, strict=True)])
    found["target"] = f">= {target:.1f}x" if target else None
    found["ok"] = None if target is None else found["median"] >= target
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="total time budget (default 120)")
    parser.add_argument("--rounds", type=int, default=None, help="interleaving rounds (default: one per ~6 s)")
    parser.add_argument("--simulations", type=int, default=200, help="simulations per search (default 200)")
    parser.add_argument("--samples", type=int, default=300, help="mid-game states per game (default 300)")
    parser.add_argument("--seed", type=int, default=2024, help="master seed (default 2024)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON to FILE")
    parser.add_argument("--quick", action="store_true", help="smoke run: 12 s, 3 rounds, 50 simulations")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.rounds, args.simulations, args.samples = 12.0, 3, 50, 60
    rounds = args.rounds or min(40, max(3, round(args.seconds / 6)))

    env = environment()
    contenders = make_contenders(args.samples, args.seed)
    print(f"budget {args.seconds:.0f} s in {rounds} rounds, {args.simulations} simulations per search ...",
          file=sys.stderr)
    wall = benchmark(contenders, args.seconds, rounds, args.simulations, args.seed)
    by_name = {c.name: c for c in contenders}
    summaries = {c.name: {"label": c.label, "rounds": len(c.rates), "simulations_per_second": spread(c.rates),
                          "ms_per_search": spread([1000 * args.simulations / r for r in c.rates]),
                          "playout_length": c.playout_length} for c in contenders}
    found: dict[str, Any] = {}
    if OPENSPIEL_PY in by_name:
        py = by_name[OPENSPIEL_PY].rates
        found[f"{FULL} / {OPENSPIEL_PY}"] = ratio(by_name[FULL].rates, py, SIMS_VS_OPENSPIEL_PY)
        found[f"{ROUND} / {OPENSPIEL_PY}"] = ratio(by_name[ROUND].rates, py, SIMS_VS_OPENSPIEL_PY)
        found[f"{CUT} / {OPENSPIEL_PY}"] = ratio(by_name[CUT].rates, py, SIMS_VS_OPENSPIEL_PY)
        found[f"{OPENSPIEL_CPP} / {FULL}"] = ratio(by_name[OPENSPIEL_CPP].rates, by_name[FULL].rates)
        found[f"{OPENSPIEL_CPP} / {CUT}"] = ratio(by_name[OPENSPIEL_CPP].rates, by_name[CUT].rates)

    print()
    for key, value in env.items():
        print(f"{key + ':':<12} {value}")
    print(f"{'run:':<12} {rounds} interleaved rounds, {wall:.0f} s wall, {args.simulations} simulations per "
          f"search, {args.samples} states per game, seed {args.seed}")
    print()
    print("| contender | simulations/s | ms per search | mean rollout length from the states (actions) |")
    print("|---|--:|--:|--:|")
    for summary in summaries.values():
        print(f"| {summary['label']} | {fmt_spread(summary['simulations_per_second'], ',.0f')} "
              f"| {fmt_spread(summary['ms_per_search'], ',.1f')} | {summary['playout_length']:.1f} |")
    if found:
        print()
        print("| ratio of simulations/s | measured | target | result |")
        print("|---|--:|--:|---|")
        for name, value in found.items():
            result = "" if value["ok"] is None else ("PASS" if value["ok"] else "MISS")
            print(f"| {name} | {fmt_spread(value, '.2f', 'x')} | {value['target'] or '—'} | {result} |")
    if args.json:
        payload = {"environment": env, "run": {"rounds": rounds, "wall_seconds": wall, "seed": args.seed,
                                               "simulations": args.simulations, "samples": args.samples,
                                               "budget_seconds": args.seconds},
                   "contenders": summaries, "ratios": found, "per_round": {c.name: c.rates for c in contenders}}
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
