"""Simulating many games: for designers checking balance and for comparing bots."""

from .runner import GameResult, Interrupted, SimulationSpec, play_game, runs, simulate
from .stats import summarize

__all__ = ["GameResult", "Interrupted", "SimulationSpec", "play_game", "runs", "simulate", "summarize"]
