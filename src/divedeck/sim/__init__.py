"""Simulating many games: for designers checking balance and for comparing bots."""

from .runner import GameResult, SimulationSpec, play_game, simulate
from .stats import summarize

__all__ = ["GameResult", "SimulationSpec", "play_game", "simulate", "summarize"]
