"""`divedeck replay`: a saved game or a server's table, move by move, as one seat (or a spectator) saw it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..engine.config import config_to_options
from ..engine.errors import ConfigError
from ..engine.match import Match
from .app import app, out


@app.command()
def replay(
    game_file: Annotated[str, typer.Argument(metavar="FILE_OR_TABLE",
                                             help="A saved game (from 'divedeck play --save'), or the id of a table "
                                                  "played on the server.")],
    seat: Annotated[int | None, typer.Option(help="Show the log as this seat saw it (its own cards shown); "
                                                  "default: as a spectator.")] = None,
    db: Annotated[str | None, typer.Option(help="The server's database, for a table id (default: the one "
                                                "'divedeck serve' uses).")] = None,
) -> None:
    """Show the log of a saved game or of a table played on the server, move by move."""
    recorded = _load_for_replay(game_file, db)
    game = recorded.game
    if seat is not None and not 0 <= seat < game.num_players(recorded.config):
        raise ConfigError(f"there is no seat {seat} in this game")
    match = Match.start(game, config_to_options(recorded.config), recorded.seed)
    out.print(f"[bold]{game.title}[/bold], seed {match.seed}, {len(recorded.actions)} moves"
              f"{f', as seen by seat {seat}' if seat is not None else ', as seen by a spectator'}")
    # Every text goes through what ``seat`` may read: a face-down card is named to its owner alone.
    for event in match.opening:
        out.print("    " + game.format_event(event, seat, None), markup=False)
    for number, (actor, action) in enumerate(recorded.actions, 1):
        out.print(f"{number:>4}. seat {actor}: {game.public_action(action, seat, actor)}", markup=False)
        for event in match.act(actor, action):
            out.print("      " + game.format_event(event, seat, None), markup=False)
    outcome = game.outcome(match.state)
    if outcome is None:
        out.print("(the game is not finished)")
    else:
        out.print(f"Winner: {', '.join(f'seat {w}' for w in outcome.winners)}; "
                  f"scores {' '.join(f'{s:g}' for s in outcome.scores)}")


def _load_for_replay(name: str, db: str | None) -> Match:
    path = Path(name)
    if path.exists() or name.endswith(".json"):
        return Match.load(path)
    from sqlalchemy.engine import make_url

    from ..server.settings import default_database_path
    from ..server.storage import Storage

    url = make_url(db or f"sqlite:///{default_database_path()}")
    # Opening an SQLite database that is not there would create it: a mistyped name must create nothing.
    if url.get_backend_name() == "sqlite" and url.database and not Path(url.database).is_file():
        raise ConfigError(f"{name} is neither a saved game file nor a table: there is no file {name}, "
                          f"and no database at {url.database}")
    storage = Storage(url.render_as_string(hide_password=False))
    try:
        stored = storage.load(name)
    finally:
        storage.close()
    if stored is None:
        raise ConfigError(f"{name} is neither a saved game file nor a table in the server's database")
    match = Match.start(stored.game, stored.options, stored.seed)
    match.replay([[seat, action] for seat, action, _ in stored.actions])
    return match
