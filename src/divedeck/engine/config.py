"""Turning loose option values (from a command line, a web form or a saved file) into a game's typed config.

A game's config is a frozen dataclass whose fields are its options, declared with ``option``: the default its rules
specify, a help line written for players, the rule IDs it comes from (kept apart, for docs and tooltips), the bounds
of a number, and whether it names a file. This module coerces and checks each value against the field's type and
bounds, so every game gets the same clear errors for free.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypeVar, get_args, get_origin

from .errors import ConfigError

C = TypeVar("C")

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def option(default: Any, help: str, *, rules: Sequence[str] = (), low: int | None = None, high: int | None = None,
           file: bool = False, advanced: bool = False) -> Any:
    """A config field: ``default``, a ``help`` line for players, the ``rules`` it comes from, the bounds ``low`` and
    ``high`` of a whole number, ``file`` for an option that names a file on the machine that runs the game, and
    ``advanced`` for options a lobby folds away."""
    metadata = {"help": help, "rules": tuple(rules), "low": low, "high": high, "file": file, "advanced": advanced}
    return dataclasses.field(default=default, metadata=metadata)


def option_bounds(config_type: type, name: str) -> tuple[int | None, int | None]:
    """The declared bounds of option ``name`` (``None`` where it has none, or no such option)."""
    for f in dataclasses.fields(config_type):  # type: ignore[arg-type]
        if f.name == name:
            return f.metadata.get("low"), f.metadata.get("high")
    return None, None


def _check_bounds(f: dataclasses.Field[Any], value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        return
    low, high = f.metadata.get("low"), f.metadata.get("high")
    if (low is not None and value < low) or (high is not None and value > high):
        span = (f"from {low} to {high}" if low is not None and high is not None
                else f"at least {low}" if low is not None else f"at most {high}")
        raise ConfigError(f"option {f.name} must be {span}; got {value}")


def _coerce(name: str, kind: Any, value: Any) -> Any:
    origin = get_origin(kind)
    if origin is Literal:
        choices = get_args(kind)
        if value in choices:
            return value
        raise ConfigError(f"option {name} must be one of {', '.join(map(str, choices))}; got {value!r}")
    if origin in (typing.Union, types.UnionType):
        members = [m for m in get_args(kind) if m is not type(None)]
        if value is None or (isinstance(value, str) and value.lower() in {"", "none"}):
            return None
        return _coerce(name, members[0], value)
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
        raise ConfigError(f"option {name} must be true or false; got {value!r}")
    if kind is int:
        if isinstance(value, bool):
            raise ConfigError(f"option {name} must be a whole number; got {value!r}")
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                pass
        raise ConfigError(f"option {name} must be a whole number; got {value!r}")
    if kind is str:
        if isinstance(value, str):
            return value
        raise ConfigError(f"option {name} must be text; got {value!r}")
    raise ConfigError(f"option {name} has a type divedeck cannot read: {kind!r}")


def type_hints(config_type: type) -> dict[str, Any]:
    """A config class's resolved field types: worked out once per class (``typing.get_type_hints`` evaluates every
    annotation each time it is asked, and a server asks at every table it makes)."""
    return _resolved_hints(config_type)


@functools.cache
def _resolved_hints(config_type: type) -> dict[str, Any]:
    return typing.get_type_hints(config_type)


def build_config(config_type: type[C], options: Mapping[str, Any]) -> C:
    """Build ``config_type`` from ``options``, rejecting unknown names and ill-typed values with a clear error.

    Option names may use ``-`` or ``_``. A config may define ``validate()`` for checks across fields.
    """
    hints = type_hints(config_type)
    fields = {f.name: f for f in dataclasses.fields(config_type)}  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for raw_name, value in options.items():
        name = raw_name.replace("-", "_")
        if name not in fields:
            known = ", ".join(sorted(fields))
            raise ConfigError(f"unknown option {raw_name!r}; the options are: {known}")
        values[name] = _coerce(name, hints[name], value)
        _check_bounds(fields[name], values[name])
    config = config_type(**values)
    validate = getattr(config, "validate", None)
    if validate is not None:
        validate()
    return config


def config_to_options(config: Any) -> dict[str, Any]:
    """The options that differ from the defaults, as plain JSON-safe values (what a save file records)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if f.default is dataclasses.MISSING or value != f.default:
            out[f.name] = value
    return out


def describe_options(config_type: type) -> list[dict[str, Any]]:
    """Name, type, default and allowed values of every option, for help texts and the web lobby (the caller's own
    copy: the rows are worked out once per class)."""
    return [{**row, "rules": list(row["rules"]), **({"choices": list(row["choices"])} if "choices" in row else {})}
            for row in _option_rows(config_type)]


@functools.cache
def _option_rows(config_type: type) -> list[dict[str, Any]]:
    hints = type_hints(config_type)
    rows = []
    for f in dataclasses.fields(config_type):
        kind = hints[f.name]
        row: dict[str, Any] = {"name": f.name, "default": f.default, "help": f.metadata.get("help", ""),
                               "rules": list(f.metadata.get("rules", ())), "file": f.metadata.get("file", False),
                               "advanced": f.metadata.get("advanced", False)}
        for bound in ("low", "high"):
            if f.metadata.get(bound) is not None:
                row[bound] = f.metadata[bound]
        if get_origin(kind) is Literal:
            row["type"], row["choices"] = "choice", list(get_args(kind))
        else:
            members = [m for m in get_args(kind) if m is not type(None)] or [kind]
            row["type"] = getattr(members[0], "__name__", str(members[0]))
        rows.append(row)
    return rows
