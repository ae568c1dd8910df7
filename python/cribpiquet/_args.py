"""Argument checks shared by the Python front ends (analyses, arena, envs, CLI, play): one place
that says what an integer or a number argument may be, with a short message naming it.

Integers are Python ``int`` or numpy integer scalars, never ``bool``, ``float`` or ``str``;
numbers are those or finite-or-not floats (numpy floating scalars included). Messages never echo
more than a few dozen characters of the value.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Optional

__all__ = ["int_arg", "float_arg", "str_arg", "short_repr"]


def short_repr(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters (an ellipsis marks the cut). A huge int is
    described by its digit count rather than converted (its decimal text may be refused)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"an int of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails: its type is enough
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def is_int(value: Any) -> bool:
    """True for ``int`` and numpy integer scalars (any ``numbers.Integral``), false for ``bool``."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and not _is_np_bool(value)


def _is_np_bool(value: Any) -> bool:
    return type(value).__module__ == "numpy" and type(value).__name__ in ("bool_", "bool")


def int_arg(value: Any, name: str, low: Optional[int] = None, high: Optional[int] = None) -> int:
    """``value`` as an ``int`` in ``low..high`` (either bound optional), else ``TypeError`` (not an
    integer) or ``ValueError`` (out of range), each naming ``name``.

    >>> int_arg(3, "games", 0)
    3
    >>> int_arg(True, "games")
    Traceback (most recent call last):
    ...
    TypeError: games must be an int, got bool True
    """
    if not is_int(value):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {short_repr(value)}")
    v = int(value)
    if low is not None and v < low:
        raise ValueError(f"{name} must be at least {low:,}, got {short_repr(v)}")
    if high is not None and v > high:
        raise ValueError(f"{name} must be at most {high:,}, got {short_repr(v)}")
    return v


def float_arg(value: Any, name: str, low: Optional[float] = None, high: Optional[float] = None, *,
              finite: bool = True) -> float:
    """``value`` (an int or a float, numpy scalars included, not bool) as a ``float`` in
    ``low..high``; an int too large for a float, ``nan`` and (with ``finite``) infinities are a
    ``ValueError`` naming ``name``.

    >>> float_arg(10**400, "tolerance", 0)
    Traceback (most recent call last):
    ...
    ValueError: tolerance must be a finite number, got an int of about 401 digits
    """
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or _is_np_bool(value):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {short_repr(value)}")
    try:
        v = float(value)
    except OverflowError:
        raise ValueError(f"{name} must be a finite number, got {short_repr(value)}") from None
    if math.isnan(v) or (finite and math.isinf(v)):
        raise ValueError(f"{name} must be a finite number, got {short_repr(value)}")
    if low is not None and v < low:
        raise ValueError(f"{name} must be at least {low:g}, got {v:.6g}")
    if high is not None and v > high:
        raise ValueError(f"{name} must be at most {high:g}, got {v:.6g}")
    return v


def str_arg(value: Any, name: str, choices: Optional[tuple[str, ...]] = None) -> str:
    """``value`` as a ``str`` (one of ``choices`` when given), else ``TypeError``/``ValueError``
    naming ``name`` and the choices."""
    if not isinstance(value, str):
        expected = " or ".join(repr(c) for c in choices) if choices else "a str"
        raise TypeError(f"{name} must be {expected}, got {type(value).__name__} {short_repr(value)}")
    if choices is not None and value not in choices:
        raise ValueError(f"unknown {name} {short_repr(value)}: choose {', '.join(choices)}")
    return value


def json_value(text: str, where: str) -> Any:
    """``json.loads(text)``, with every way it can fail (bad syntax, nesting too deep for the
    parser, an integer over Python's digit limit) a ``ValueError`` starting with ``where`` (a file
    and line)."""
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{where}: not JSON ({e.msg})") from None
    except RecursionError:
        raise ValueError(f"{where}: not JSON this tool reads (nested too deeply)") from None
    except ValueError:  # e.g. an integer of more than 4,300 digits
        raise ValueError(f"{where}: not JSON this tool reads (a number too long)") from None


def short_path(path: str, limit: int = 60) -> str:
    """A path for a message: whole when short, else its last ``limit`` characters after an
    ellipsis (the file name is the part that tells)."""
    return path if len(path) <= limit else "…" + path[-(limit - 1):]
