"""`divedeck serve`: the web server, its limits, and the flags that make it several processes and machines."""

from __future__ import annotations

import ipaddress
import re
from typing import Annotated

import typer

from ..engine.errors import ConfigError
from ..server.settings import ServerSettings
from .app import app, out


def _proxy_address(value: str) -> str:
    try:
        return str(ipaddress.ip_network(value.strip(), strict=False))
    except ValueError:
        raise ConfigError(f"--trusted-proxy {value!r} is not an IP address or network") from None


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0 to let other machines in).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(help="Database URL (default: an SQLite file in your data folder; "
                                                "postgresql+psycopg://user:pass@host/db for PostgreSQL).")] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before it moves.")] = 0.8,
    grace: Annotated[float, typer.Option(help="Seconds a player may be away before a bot plays for them.")] = 60.0,
    move_clock_second_ms: Annotated[int, typer.Option(
        min=1, help="Milliseconds a second of a table's clock per move lasts (to try the clocks out faster).")] = 1000,
    allow_files: Annotated[bool, typer.Option(
        help="Let tables use data files on this machine (a custom deck, a word list: -o cards=FILE). Only for a "
             "server you run for people you trust: it lets them make the server read its files.")] = False,
    allowed_host: Annotated[list[str] | None, typer.Option(
        help="A host name people reach this server by, besides localhost and --host (repeat for several; '*' "
             "for any). Requests naming another host are refused.")] = None,
    trusted_proxy: Annotated[list[str] | None, typer.Option(
        help="The address (or network, e.g. 10.0.0.0/8) of a reverse proxy in front of this server whose "
             "X-Forwarded-For it believes (repeat for several). Without it nobody's is: a client is the address "
             "it connects from.")] = None,
    max_open_tables: Annotated[int, typer.Option(min=1, help="Unfinished tables the server holds at most.")] = (
        ServerSettings.max_open_tables),
    tables_per_minute: Annotated[float, typer.Option(min=0.01, help="New tables one address may create a "
                                                                    "minute.")] = ServerSettings.tables_per_minute,
    open_tables_per_address: Annotated[int, typer.Option(min=1, help="Unfinished tables one address may have "
                                                                     "created.")] = (
        ServerSettings.open_tables_per_address),
    unclaimed_expiry: Annotated[float, typer.Option(min=1, help="Seconds until a table none of its players has "
                                                                "opened is closed.")] = (
        ServerSettings.unclaimed_table_expiry),
    messages_per_second: Annotated[float, typer.Option(min=1, help="Messages a second one socket may send.")] = (
        ServerSettings.messages_per_second),
    seat_messages_per_second: Annotated[float, typer.Option(min=1, help="Messages a second all the sockets of "
                                                                        "one seat may send.")] = (
        ServerSettings.seat_messages_per_second),
    address_messages_per_second: Annotated[float, typer.Option(min=1, help="Messages a second all the sockets "
                                                                           "of one address may send.")] = (
        ServerSettings.address_messages_per_second),
    flood_allowance: Annotated[int, typer.Option(min=1, help="Messages over its rate a socket may send before it "
                                                             "is disconnected.")] = ServerSettings.flood_allowance,
    sockets_per_address: Annotated[int, typer.Option(min=1, help="Websockets one address may hold open.")] = (
        ServerSettings.sockets_per_address),
    sockets_per_table: Annotated[int, typer.Option(min=1, help="Websockets one table may have open (seats and "
                                                               "spectators).")] = ServerSettings.sockets_per_table,
    replays_per_minute: Annotated[float, typer.Option(min=0.01, help="Finished games' replays one address may "
                                                                     "ask for a minute.")] = (
        ServerSettings.replays_per_minute),
    header_timeout: Annotated[float, typer.Option(min=0.1, help="Seconds an HTTP client has to send a request's "
                                                                "headers.")] = ServerSettings.header_timeout,
    keep_alive: Annotated[int, typer.Option(min=1, help="Seconds an idle HTTP connection is kept open.")] = (
        ServerSettings.keep_alive),
    bot_workers: Annotated[int | None, typer.Option(
        min=0, help="Processes the hard bots think in (default: one per core but one; 0: in the server itself, "
                    "which slows every table while a bot thinks).")] = None,
    processes: Annotated[int, typer.Option(
        min=1, help="Server processes on this machine, sharing the port (more than 1 needs a PostgreSQL --db).")] = 1,
    lease_seconds: Annotated[float, typer.Option(
        min=0.5, help="With PostgreSQL: seconds after which a silent process counts as dead and the others take "
                      "its tables over.")] = ServerSettings.lease_seconds,
    bus: Annotated[str | None, typer.Option(
        help="With PostgreSQL: the Redis or Valkey URL (redis://host:6379/0) the server processes pass sockets "
             "through, so that any process takes any client (needed behind a load balancer).")] = None,
    table_prefix: Annotated[str, typer.Option(
        help="Behind HAProxy with deploy/haproxy.cfg: this server's name there (one, two, three...). The tables it "
             "makes get ids that start with it, and the balancer sends their sockets here.")] = "",
) -> None:
    """Run the web server: open the address it prints in a browser to start a table."""
    from sqlalchemy.engine import make_url

    from ..server.serving import serve as run_server
    from ..server.settings import default_database_url

    if processes > 1 and (db is None or make_url(db).get_backend_name() == "sqlite"):
        raise ConfigError("--processes above 1 needs a database server all of them share: "
                          "--db postgresql://user:password@host/dbname (SQLite serves one process)")
    if processes > 1 and bus is None:
        raise ConfigError("--processes above 1 needs --bus redis://host:6379/0 (Redis or Valkey): the processes "
                          "pass each other the sockets of the tables they own")
    if table_prefix and not re.fullmatch(r"[a-z0-9]{1,12}", table_prefix):
        raise ConfigError("--table-prefix is 1 to 12 lowercase letters and digits (the server's name in the balancer)")
    if bus is not None and (db is None or make_url(db).get_backend_name() == "sqlite"):
        raise ConfigError("--bus joins processes that share a PostgreSQL --db; with SQLite there is one process")
    settings = ServerSettings(
        database_url=db or default_database_url(), bot_delay=bot_delay, grace_period=grace,
        move_clock_second_ms=move_clock_second_ms,
        allow_file_options=allow_files, host=host, allowed_hosts=tuple(allowed_host or ()),
        trusted_proxies=tuple(_proxy_address(value) for value in trusted_proxy or ()),
        max_open_tables=max_open_tables, tables_per_minute=tables_per_minute,
        open_tables_per_address=open_tables_per_address, unclaimed_table_expiry=unclaimed_expiry,
        messages_per_second=messages_per_second, seat_messages_per_second=seat_messages_per_second,
        address_messages_per_second=address_messages_per_second, flood_allowance=flood_allowance,
        sockets_per_address=sockets_per_address, sockets_per_table=sockets_per_table,
        replays_per_minute=replays_per_minute,
        header_timeout=header_timeout, keep_alive=keep_alive, bot_workers=bot_workers, lease_seconds=lease_seconds,
        bus_url=bus, table_prefix=table_prefix)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    out.print(f"divedeck is running: open http://{shown}:{port}/ in your browser (Ctrl+C stops it).")
    shown_db = make_url(settings.database_url).render_as_string(hide_password=True)
    out.print(f"Games are saved in {shown_db}", style="dim")
    run_server(settings, port, processes)
