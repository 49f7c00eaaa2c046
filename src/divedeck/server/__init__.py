"""The divedeck web server: lobby, tables and seats, websockets, bots, durable action logs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .settings import ServerSettings

__all__ = ["ServerSettings", "create_app"]


def __getattr__(name: str) -> Any:
    # Loaded when asked for: the terminal commands read the settings' defaults and must not pay for the web stack
    # (FastAPI, SQLAlchemy, uvicorn) at every start and exit.
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "ServerSettings":
        from .settings import ServerSettings

        return ServerSettings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
