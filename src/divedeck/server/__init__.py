"""The divedeck web server: lobby, tables and seats, websockets, bots, durable action logs."""

from .app import create_app
from .settings import ServerSettings

__all__ = ["ServerSettings", "create_app"]
