"""Information-set Monte Carlo tree search: a strong bot for any turn-based game, through the contract only.

Single-observer ISMCTS with availability counts (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 2012). Each iteration samples a full state the bot's seat cannot tell from the true one
(``Decision.determinize``), walks one tree of action sequences shared by every sample, adds a node, plays the
game out with a rollout policy and credits each node with the result of the seat that chose its action:

- A node's children are keyed by action (actions are hashable). Only the children legal in this iteration's
  sample compete, so each child also counts how often it was *available*: UCB uses that count where plain UCT
  uses the parent's visits, ``mean + c * sqrt(ln(available) / visits)``.
- Whoever acts in the sample acts in the tree, with their own reward (max^n); when several seats may act at
  once, the lowest one acts first, like the simulator does.
- The reward of a finished game is 1 shared among the winners (``Game.outcome``). A rollout may stop after
  ``cutoff`` actions, or right after an action whose events include a kind in ``stop_events`` (the end of a round),
  and ask an ``Evaluator`` for each seat's chance of winning instead (see ``evaluation.py``).
- With a ``prior`` (a policy's move probabilities, e.g. the ``learned`` bot's network: ``prior.py``), selection is
  PUCT-style (Silver et al., AlphaZero) at the nodes where the prior has an answer: ``mean + prior_weight * p *
  sqrt(visits of the node) / (1 + visits of the child)``, an action not tried yet valued at the mean of those tried
  (the first one tried is the likeliest). The prior is asked once per node, with the acting seat's view of the
  sample that first reached it (the root's is the bot's own view), down to ``prior_depth`` actions below the root.
  Elsewhere, and without a prior, selection is the UCB above.
- The answer is the most visited action at the root. The search stops at its iteration budget, its time budget or,
  when ``early_stop`` is on, as soon as no other action could overtake the most visited one in what is left.

The bot never sees the true state: everything it plays through comes from ``determinize``, so its choice depends
only on its seat's information and its own seeded generator (deterministic for a seed under an iteration budget).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.game import Game
from .base import Bot, Decision
from .evaluation import Evaluator

# (game, state, seat, legal actions, rng) -> one of the legal actions. ``None`` instead of a policy means uniform
# random, which the search leaves to ``Game.random_playout``: by far the most common rollout, and a game may run it
# in a loop of its own that is much faster than one ``apply`` after another.
RolloutPolicy = Callable[[Game[Any, Any], Any, int, Sequence[Any], random.Random], Any]
# (game, the acting seat's view, seat, legal actions) -> a probability per legal action, in order, or ``None`` where
# it has no answer (a player count no policy was trained for): then the node is searched with plain UCB.
Prior = Callable[[Game[Any, Any], Mapping[str, Any], int, Sequence[Any]], Sequence[float] | None]
_UNASKED: dict[Any, float] = {}  # a node whose prior has not been asked for yet


class _Node:
    """The position after one action, shared by every sample that reaches it."""

    __slots__ = ("children", "visits", "reward", "available", "seat", "prior")

    def __init__(self, seat: int) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed over visits, from the point of view of ``seat``
        self.available = 1  # how often this action was legal when its parent was visited
        self.seat = seat  # the seat that took the action leading here
        # The prior of the actions from here (action -> probability), None for none, _UNASKED before it is asked.
        self.prior: dict[Any, float] | None = _UNASKED


@dataclass
class SearchStats:
    """What the last search did, for benchmarks and the strength table."""

    iterations: int = 0
    seconds: float = 0.0
    nodes: int = 0
    stopped: str = ""  # "iterations", "time", "early" or "forced" (a single legal action: no search)
    visits: dict[str, int] = field(default_factory=dict)

    @property
    def iterations_per_second(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


class ISMCTSBot:
    """SO-ISMCTS with availability counts; budgeted by iterations, by seconds, or both (whichever ends first)."""

    # A search takes up to a second: a server runs it out of its own process (server/bot_workers.py), where it
    # cannot hold up the other tables. The bot pickles (with its generator) for that.
    thinks_long = True

    def __init__(self, seed: int = 0, *, iterations: int | None = 1000, seconds: float | None = None,
                 exploration: float = 0.7, rollout: RolloutPolicy | None = None, cutoff: int | None = None,
                 evaluator: Evaluator | None = None, stop_events: frozenset[str] = frozenset(), early_stop: bool = True,
                 prior: Prior | None = None, prior_weight: float = 1.0, prior_depth: int | None = None,
                 prior_iterations: int | None = None, name: str = "ismcts") -> None:
        if iterations is None and seconds is None:
            raise ValueError("give ISMCTS an iteration budget, a time budget or both")
        if (cutoff is not None or stop_events) and evaluator is None:
            raise ValueError("a rollout cutoff needs an evaluator for the unfinished states")
        self.name = name
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_policy = rollout
        self.cutoff = cutoff
        self.evaluator = evaluator
        self.stop_events = stop_events
        self.early_stop = early_stop
        self.prior = prior
        self.prior_weight = prior_weight
        # The iteration budget of a search whose root the prior answers (asking it costs time), if not ``iterations``.
        self.prior_iterations = prior_iterations
        self.prior_depth = prior_depth if prior is not None else -1  # the deepest node (actions below the root)
        self.last = SearchStats()

    def choose(self, decision: Decision) -> Any:
        legal = decision.legal
        if len(legal) == 1:
            self.last = SearchStats(stopped="forced")
            return legal[0]
        root = self.search(decision)
        return max(legal, key=lambda a: (root.children[a].visits, root.children[a].reward) if a in root.children
                   else (-1, 0.0))

    # -- the search ----------------------------------------------------------------------------------------------
    def search(self, decision: Decision) -> _Node:
        """Run the search from ``decision``; return the root node (its children hold the visit counts)."""
        game = decision.game
        rng = self.rng
        random_float = rng.random
        root_seat = decision.seat
        root_legal = list(decision.legal)
        determinize = decision.determinize
        legal_actions = game.legal_actions
        apply = game.apply
        actors = game.actors
        exploration = self.exploration
        log = math.log
        sqrt = math.sqrt
        rollout = self._rollout
        outcome_rewards = self._outcome_rewards
        root = _Node(root_seat)
        root.available = 0
        root.prior = self._ask_prior(game, decision.view, root_seat, root_legal)
        prior_depth = self.prior_depth if self.prior_depth is not None else 1 << 62
        prior_weight = self.prior_weight
        iterations = self.iterations
        if root.prior is not None and self.prior_iterations is not None and iterations is not None:
            iterations = self.prior_iterations
        budget = iterations if iterations is not None else 1 << 62
        clock = time.perf_counter
        started = clock()
        deadline = started + self.seconds if self.seconds is not None else math.inf
        check_every = 16 if self.early_stop else 1 << 62
        stopped = "iterations"
        nodes = 1
        iteration = 0
        while iteration < budget:
            iteration += 1
            state = determinize(rng)
            node = root
            path = [root]
            seat = root_seat
            legal: Sequence[Any] = root_legal
            rewards: Sequence[float] | None = None
            depth = 0
            while True:
                children = node.children
                guided = node.prior is not None and depth <= prior_depth
                if guided and node.prior is _UNASKED:
                    node.prior = self._ask_prior(game, game.view(state, seat), seat, legal)
                    guided = node.prior is not None
                best: _Node | None = None
                best_action: Any = None
                if guided:
                    best_action, best = self._puct(node, legal, prior_weight)
                else:
                    untried: list[Any] | None = None
                    best_value = -math.inf
                    for action in legal:
                        child = children.get(action)
                        if child is None:
                            if untried is None:
                                untried = [action]
                            else:
                                untried.append(action)
                            continue
                        child.available += 1
                        if untried is None:
                            visits = child.visits
                            value = child.reward / visits + exploration * sqrt(log(child.available) / visits)
                            if value > best_value:
                                best_value, best, best_action = value, child, action
                    if untried is not None:
                        best = None
                        best_action = untried[int(random_float() * len(untried))] if len(untried) > 1 else untried[0]
                if best is None:  # a new node: add it and play the rest out
                    child = children[best_action] = _Node(seat)
                    nodes += 1
                    path.append(child)
                    apply(state, seat, best_action)
                    movers = actors(state)
                    rewards = rollout(game, state, movers) if movers else outcome_rewards(game, state)
                    break
                path.append(best)
                apply(state, seat, best_action)
                movers = actors(state)
                if not movers:
                    rewards = outcome_rewards(game, state)
                    break
                node = best
                seat = min(movers)
                legal = legal_actions(state, seat)
                depth += 1
            for visited in path:
                visited.visits += 1
                visited.reward += rewards[visited.seat]
            if iteration % check_every == 0 or deadline != math.inf:
                now = clock()
                if now >= deadline:
                    stopped = "time"
                    break
                if iteration % check_every == 0:
                    left = budget - iteration
                    if deadline != math.inf:
                        left = min(left, int((deadline - now) * iteration / max(now - started, 1e-9)) + 1)
                    first = second = 0
                    for child in root.children.values():
                        if child.visits > first:
                            first, second = child.visits, first
                        elif child.visits > second:
                            second = child.visits
                    if 0 < left < first - second:
                        stopped = "early"
                        break
        self.last = SearchStats(iterations=iteration, seconds=clock() - started, nodes=nodes, stopped=stopped,
                                visits={game.format_action(a): c.visits for a, c in root.children.items()})
        return root

    def _ask_prior(self, game: Game[Any, Any], view: Mapping[str, Any], seat: int,
                   legal: Sequence[Any]) -> dict[Any, float] | None:
        if self.prior is None:
            return None
        probabilities = self.prior(game, view, seat, legal)
        return None if probabilities is None else dict(zip(legal, probabilities, strict=True))

    @staticmethod
    def _puct(node: _Node, legal: Sequence[Any], weight: float) -> tuple[Any, _Node | None]:
        """The action PUCT picks among ``legal`` at ``node``, with its child (``None``: not tried yet).

        Actions legal in this sample only (not when the prior was asked) get the smallest prior of the others."""
        prior = node.prior
        assert prior is not None
        children = node.children
        tried = reward = 0.0
        for action in legal:
            child = children.get(action)
            if child is not None:
                child.available += 1
                tried += child.visits
                reward += child.reward
        first_play = reward / tried if tried else 0.0  # an untried action is worth the mean of the tried ones
        scale = weight * math.sqrt(max(node.visits, 1))
        floor = min(prior.values()) if prior else 0.0
        best_action: Any = None
        best: _Node | None = None
        best_value = -math.inf
        for action in legal:
            child = children.get(action)
            p = prior.get(action, floor)
            if child is None:
                value = first_play + scale * p
            else:
                value = child.reward / child.visits + scale * p / (1 + child.visits)
            if value > best_value:
                best_value, best_action, best = value, action, child
        return best_action, best

    def _outcome_rewards(self, game: Game[Any, Any], state: Any) -> Sequence[float]:
        outcome = game.outcome(state)
        assert outcome is not None, "a state where nobody may act must be finished"
        rewards = [0.0] * len(outcome.scores)
        if outcome.winners:
            share = 1.0 / len(outcome.winners)
            for seat in outcome.winners:
                rewards[seat] = share
        return rewards

    def _rollout(self, game: Game[Any, Any], state: Any, movers: frozenset[int]) -> Sequence[float]:
        """Play ``state`` on (it is the search's own copy) and return every seat's reward."""
        cutoff = self.cutoff if self.cutoff is not None else 1 << 62
        if self.rollout_policy is None:
            game.random_playout(state, self.rng.random, cutoff, self.stop_events)
            if game.actors(state):
                return self.evaluator(game, state)  # type: ignore[misc]
            return self._outcome_rewards(game, state)
        legal_actions = game.legal_actions
        apply = game.apply
        actors = game.actors
        policy = self.rollout_policy
        stop = self.stop_events
        rng = self.rng
        steps = 0
        while movers:
            if steps >= cutoff:
                return self.evaluator(game, state)  # type: ignore[misc]
            seat = min(movers)
            legal = legal_actions(state, seat)
            action = legal[0] if len(legal) == 1 else policy(game, state, seat, legal, rng)
            events = apply(state, seat, action)
            steps += 1
            movers = actors(state)
            if stop and movers:
                for event in events:
                    if event.kind in stop:
                        return self.evaluator(game, state)  # type: ignore[misc]
        return self._outcome_rewards(game, state)


def bot_policy(factory: Callable[[int], Bot], seed: int = 0) -> RolloutPolicy:
    """A rollout policy that asks a heuristic bot what the acting seat would play.

    The bot (one per seat, built by ``factory`` from ``seed`` on first use) is given that seat's view of the
    search's own sample and the legal actions, as ``decide`` would give them. Build one policy per search bot, so
    the bots' tie-breaking generators belong to it and it stays deterministic for its seed.
    """
    bots: dict[int, Bot] = {}

    def policy(game: Game[Any, Any], state: Any, seat: int, legal: Sequence[Any], rng: random.Random) -> Any:
        bot = bots.get(seat)
        if bot is None:
            bot = bots[seat] = factory(seed * 64 + seat)
        return bot.choose(Decision(game, seat, game.view(state, seat), legal, _no_determinize))

    return policy


def _no_determinize(rng: random.Random) -> Any:
    raise RuntimeError("a rollout policy may not search")
