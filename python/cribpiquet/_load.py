"""``cribpiquet.load_game``: a game from its name and parameters, as OpenSpiel's ``load_game``
writes them (``"cribbage(variant=five-card)"``, ``"piquet(rules=rubicon,scope=deal)"``)."""

from __future__ import annotations

import re
from typing import Any, Mapping, Optional, Union

from . import cribbage, piquet
from ._util import clip, describe

# The adapter's registered names (cribpiquet.openspiel) load the same games.
_ALIASES = {"python_cribpiquet_cribbage": "cribbage", "python_cribpiquet_piquet": "piquet"}
_CALL = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.DOTALL)
_INT = re.compile(r"^[+-]?[0-9]+$")
_FLOAT = re.compile(r"^[+-]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")


def _value(text: str) -> Any:
    """A parameter's value as OpenSpiel reads it from text: ``true``/``false`` (any case) a bool,
    digits an int, a decimal a float, anything else the text."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


def _parse(text: str) -> tuple[str, dict[str, Any]]:
    """``"name(key=value,...)"`` (or ``"name"``) as the name and the parameters."""
    m = _CALL.match(text)
    if m is None:
        raise ValueError(f"load_game: {clip(text)!r} is not a game name, nor name(key=value,...)")
    name, inside = m.group(1), m.group(2)
    params: dict[str, Any] = {}
    if inside is None or not inside.strip():  # "cribbage", "cribbage()"
        return name, params
    for item in inside.split(","):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"load_game: parameter {clip(item.strip())!r} of {clip(text)!r} is not key=value")
        if key.strip() in params:
            raise ValueError(f"load_game: parameter {key.strip()!r} given twice in {clip(text)!r}")
        params[key.strip()] = _value(value.strip())
    return name, params


def load_game(name: str, params: Optional[Mapping[str, Any]] = None) -> Union[cribbage.Game, piquet.Game]:
    """A game from its name and parameters, as OpenSpiel's ``pyspiel.load_game`` takes them:
    ``"cribbage"`` or ``"piquet"`` (or the OpenSpiel adapter's names), with parameters in the
    text (``"name(key=value,...)"``; ``true``/``false`` are bools, digits ints) and/or as a
    dict. The parameters and their defaults are ``Game.get_type().parameter_specification``:
    cribbage ``variant`` (``"six-card"``), ``target`` (0: the variant's 121 or 61) and ``lurch``
    (False); piquet ``rules`` (``"russian"``) and ``scope`` (``"partiya"``). An unknown name or
    parameter is a ``ValueError`` naming it and what there is.

    >>> load_game("cribbage(variant=five-card)")
    Game('five-card', target=61)
    >>> load_game("piquet(rules=rubicon,scope=deal)") == piquet.Game("rubicon", scope="deal")
    True
    >>> load_game("cribbage", {"variant": "four-player", "lurch": True}).num_players()
    4
    """
    if not isinstance(name, str):
        raise TypeError(f"load_game: name must be a str, got {describe(name)}")
    if params is not None and not isinstance(params, Mapping):
        raise TypeError(f"load_game: params must be a dict or None, got {describe(params)}")
    game, given = _parse(name)
    for key, value in (params or {}).items():
        if not isinstance(key, str):
            raise TypeError(f"load_game: parameter names must be str, got {describe(key)}")
        given[key] = value
    game = _ALIASES.get(game, game)
    if game == "cribbage":
        spec = cribbage.Game().get_type().parameter_specification
    elif game == "piquet":
        spec = piquet.Game().get_type().parameter_specification
    else:
        raise ValueError(f"load_game: unknown game {clip(game)!r}: the games are 'cribbage' and 'piquet'")
    unknown = sorted(set(given) - set(spec))
    if unknown:
        raise ValueError(f"load_game: {game} has no parameter {clip(unknown[0])!r}; "
                         f"its parameters are {', '.join(spec)}")  # fmt: skip
    p = {**spec, **given}
    if game == "cribbage":
        target = p["target"]
        return cribbage.Game(p["variant"], target=None if target == 0 and type(target) is int else target,
                             lurch=p["lurch"])  # fmt: skip
    return piquet.Game(p["rules"], scope=p["scope"])
