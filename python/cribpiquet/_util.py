"""What the Python front ends (analyses, arena, envs, CLI, play, distributed) share, written once:
the argument checks (an integer or a number argument, a command-line number, a short description
of a bad value for a message), the progress bar of a long run, and the Dask task runner.

Integers are Python ``int`` or numpy integer scalars, never ``bool``, ``float`` or ``str``;
numbers are those or finite-or-not floats (numpy floating scalars included). Messages never echo
more than a few dozen characters of the value.
"""

from __future__ import annotations

import importlib
import math
import numbers
import operator
import os
import sys
import time
from typing import Any, Callable, Optional

__all__ = ["int_arg", "float_arg", "str_arg", "bool_arg", "seat_arg", "printable", "short_repr", "clip", "describe",
           "int_in", "int_text", "float_text", "Progress", "run_tasks"]


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


def clip(text: str, limit: int = 30) -> str:
    """``text`` whole when short, else its first ``limit`` characters and an ellipsis."""
    return text if len(text) <= limit else text[:limit] + "…"


def describe(value: Any, limit: int = 40) -> str:
    """A bad value for a message: its type and its :func:`short_repr` (``bool True``)."""
    return f"{type(value).__name__} {short_repr(value, limit)}"


def _check_bounds(v: float, low: Optional[float], high: Optional[float], name: str, got: str, spec: str,
                  error: type[Exception] = ValueError) -> None:
    """``{name}must be at least {low:spec}, got {got}`` (or ``at most high``) when ``v`` is out of
    ``low..high``: the one wording of the range checks here (``name`` ends with a space, or is
    empty where argparse names the option)."""
    if low is not None and v < low:
        raise error(f"{name}must be at least {low:{spec}}, got {got}")
    if high is not None and v > high:
        raise error(f"{name}must be at most {high:{spec}}, got {got}")


def is_int(value: Any) -> bool:
    """True for ``int`` and numpy integer scalars (any ``numbers.Integral``), false for ``bool``."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and not _is_np_bool(value)


def _is_np_bool(value: Any) -> bool:
    return type(value).__module__ == "numpy" and type(value).__name__ in ("bool_", "bool")


def is_bool(value: Any) -> bool:
    """True for ``bool`` and numpy's bool scalars (the bindings' ``convert::is_bool``): a flag
    accepts both; an int or a number argument refuses both."""
    return isinstance(value, bool) or _is_np_bool(value)


def bool_arg(value: Any, name: str, *, none: bool = False) -> Any:
    """``value`` as a ``bool`` (a numpy bool too; ``None`` kept when ``none``), else a
    ``TypeError`` naming ``name``: the flags' rule, the same as the bindings'.

    >>> bool_arg(1, "progress")
    Traceback (most recent call last):
    ...
    TypeError: progress must be a bool, got int 1
    """
    if none and value is None:
        return None
    if not is_bool(value):
        raise TypeError(f"{name} must be a bool{' or None' if none else ''}, got {describe(value)}")
    return bool(value)


def seat_arg(value: Any, name: str, players: int, *, none: bool = False) -> Any:
    """``value`` as a seat ``0..players-1`` (``None`` kept when ``none``): an int (numpy ints and
    anything with ``__index__`` too), never a bool (numpy's neither), a str or a float, as the
    bindings' seats (``state.legal_actions(player)``, ``state.hand(player)``):
    ``TypeError`` for another type, ``ValueError`` for another number, each naming ``name`` in
    plain text.

    >>> seat_arg("0", "player", 2, none=True)
    Traceback (most recent call last):
    ...
    TypeError: player must be a seat 0..1 or None, got str '0'
    """
    if none and value is None:
        return None
    what = f"{name} must be a seat 0..{players - 1}{' or None' if none else ''}"
    try:
        v = None if is_bool(value) else operator.index(value)
    except Exception:  # noqa: BLE001 - no __index__, or one that fails
        v = None
    if v is None:
        raise TypeError(f"{what}, got {describe(value)}")
    if not 0 <= v < players:
        raise ValueError(f"{what}, got {short_repr(v)}")
    return v


def printable(text: str) -> str:
    """``text`` with every character a terminal could act on shown as an escape, as ``repr``
    shows it (ESC as ``\\x1b``, BEL ``\\x07``, CR ``\\r``, a newline ``\\n``, a lone surrogate
    ``\\udcff``; the other non-printable characters, such as the bidirectional overrides, too):
    the one rule of every command-line message that echoes input (a file's contents, a path, an
    argument), so a hostile record cannot clear the screen or set the window title.

    >>> printable("seed \\x1b]0;pwned\\x07 ok")
    'seed \\\\x1b]0;pwned\\\\x07 ok'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


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
        raise TypeError(f"{name} must be an int, got {describe(value)}")
    v = int(value)
    _check_bounds(v, low, high, f"{name} ", short_repr(v), ",")
    return v


def int_in(value: Any, name: str, low: int, stop: int = 2**63 - 1) -> int:
    """``value`` (anything with ``__index__``, not ``bool``) as an ``int`` in ``range(low, stop)``,
    with the bindings' wording (``n_games must be in range(0, 10)``), for a Python function that
    checks its arguments as the Rust function it stands in for would.

    >>> int_in(10, "chunk_games", 1, 10)
    Traceback (most recent call last):
    ...
    ValueError: chunk_games must be in range(1, 10), got 10
    """
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int, got {describe(value, 81)}")
    try:
        v = operator.index(value)
    except Exception:  # noqa: BLE001 - not int-like, or an __index__ that fails (OverflowError, KeyError...)
        raise TypeError(f"{name} must be an int, got {describe(value, 81)}") from None
    if not low <= v < stop:
        raise ValueError(f"{name} must be in range({low}, {stop}), got {short_repr(v)}")
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
        raise TypeError(f"{name} must be a number, got {describe(value)}")
    try:
        v = float(value)
    except OverflowError:
        raise ValueError(f"{name} must be a finite number, got {short_repr(value)}") from None
    if math.isnan(v) or (finite and math.isinf(v)):
        raise ValueError(f"{name} must be a finite number, got {short_repr(value)}")
    _check_bounds(v, low, high, f"{name} ", f"{v:.6g}", "g")
    return v


def str_arg(value: Any, name: str, choices: Optional[tuple[str, ...]] = None) -> str:
    """``value`` as a ``str`` (one of ``choices`` when given), else ``TypeError``/``ValueError``
    naming ``name`` and the choices."""
    if not isinstance(value, str):
        expected = " or ".join(repr(c) for c in choices) if choices else "a str"
        raise TypeError(f"{name} must be {expected}, got {describe(value)}")
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


def path_arg(path: Any, name: str = "path") -> str:
    """A file name argument (a ``str`` or an ``os.PathLike`` of one) as a ``str``: ``TypeError``
    for another type (bytes too), ``ValueError`` naming ``name`` and the path for an empty one,
    one holding a null character (which no file name can) or one the file system's encoding
    cannot carry (``'\\ud800'``), never a bare ``UnicodeEncodeError`` or "embedded null byte"."""
    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
        raise TypeError(f"{name} must be a str or a path, got {type(path).__name__}")
    text = os.fspath(path)
    if not isinstance(text, str) or not text:
        raise ValueError(f"{name} must be a non-empty file name")
    if "\x00" in text:
        raise ValueError(f"{name} must not hold a null character, got {short_repr(text, 60)}")
    try:
        os.fsencode(text)
    except UnicodeEncodeError:  # a lone surrogate the file system's encoding cannot carry
        raise ValueError(f"{name} is not a file name this system can encode, got {short_repr(text, 60)}") from None
    return text


def short_path(path: str, limit: int = 60) -> str:
    """A path for a message: whole when short, else its last ``limit`` characters after an
    ellipsis (the file name is the part that tells)."""
    return path if len(path) <= limit else "…" + path[-(limit - 1):]


def read_text(path: str) -> str:
    """The whole UTF-8 text file ``path`` (checked by :func:`path_arg`); one ``ValueError``
    naming the file when it cannot be read or is not UTF-8 text."""
    path = path_arg(path)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise ValueError(f"cannot read {short_path(path)}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{short_path(path)} is not a UTF-8 text file") from None


# ------------------------------------------------------------------ command-line numbers


def int_text(low: Optional[int] = None, high: Optional[int] = None) -> Callable[[str], int]:
    """An argparse type: a decimal integer (ASCII digits, at most 30 of them) in ``low..high``
    (argparse names the option in the message)."""
    import argparse

    def parse(text: str) -> int:
        t = text.strip()
        body = t[1:] if t[:1] in "+-" else t
        if not (body.isascii() and body.isdigit()) or len(body) > 30:
            raise argparse.ArgumentTypeError(f"must be a whole number, got {clip(text)!r}")
        v = int(t)
        _check_bounds(v, low, high, "", str(v), "", argparse.ArgumentTypeError)
        return v

    parse.__name__ = "int"
    return parse


def float_text(low: float) -> Callable[[str], float]:
    """An argparse type: a finite number ``>= low`` (ASCII, at most 40 characters)."""
    import argparse

    def parse(text: str) -> float:
        if not text.isascii() or len(text) > 40:
            raise argparse.ArgumentTypeError(f"must be a number, got {clip(text)!r}")
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
        if not math.isfinite(v) or v < low:
            raise argparse.ArgumentTypeError(f"must be a finite number >= {low:g}, got {text!r}")
        return v

    parse.__name__ = "float"
    return parse


# ---------------------------------------------------------------------------- progress


def on_a_terminal() -> bool:
    """Whether stderr is a terminal (where a progress bar is drawn)."""
    return sys.stderr is not None and bool(getattr(sys.stderr, "isatty", lambda: False)())


class Progress:
    """A tqdm bar on stderr for a long run, or nothing: drawn when ``show`` (``None``: when
    stderr is a terminal) once ``delay`` seconds have passed, so a short run draws none; without
    tqdm (a nicety, never an error) no bar. Call it with the units done so far, or
    :meth:`update` by a step; :meth:`close` (or ``with``) clears it."""

    def __init__(self, total: int, desc: str, unit: str, *, show: Optional[bool] = None, delay: float = 0.0) -> None:
        self.total, self.desc, self.unit, self.delay = total, desc, unit, delay
        self.start = time.perf_counter()
        self.done = 0
        self.bar: Any = None
        self.enabled = on_a_terminal() if show is None else show
        self._draw()

    def _draw(self, note: Optional[str] = None) -> None:
        if self.bar is None:
            if not self.enabled or time.perf_counter() - self.start < self.delay:
                return
            try:  # looked up by name: tqdm ships no type information
                tqdm = importlib.import_module("tqdm").tqdm
            except ImportError:
                self.enabled = False
                return
            self.bar = tqdm(total=self.total, desc=self.desc, unit=self.unit, file=sys.stderr, leave=False)
        self.bar.update(self.done - self.bar.n)
        if note is not None:
            self.bar.set_postfix_str(note)

    def __call__(self, done: int) -> None:
        """``done`` units of ``total`` are done (the arena's progress callback)."""
        self.done = done
        self._draw()

    def update(self, n: int = 1, note: Optional[str] = None) -> None:
        """``n`` more units done; ``note`` is shown after the bar."""
        self.done += n
        self._draw(note)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# ------------------------------------------------------------------------------- Dask


def run_tasks(client: Any, name: str, fn: Callable[..., Any], tasks: list[tuple[Any, ...]],
              each: Optional[Callable[[int, Any], None]] = None) -> list[Any]:
    """``fn(*args)`` for each ``args`` of ``tasks`` as tasks on the Dask ``client`` (impure, keyed
    ``cribpiquet-{name}-{token}-{i}``): their results in order, or, with ``each``, each result
    handed to ``each(i, result)`` as it finishes and released from the cluster (then ``[]``). A
    failed task or Ctrl-C cancels the rest."""
    import uuid

    from distributed import as_completed

    key = f"cribpiquet-{name}-{uuid.uuid4().hex}"
    futures = [client.submit(fn, *args, key=f"{key}-{i}", pure=False) for i, args in enumerate(tasks)]
    try:
        if each is None:
            return list(client.gather(futures))
        index = {f.key: i for i, f in enumerate(futures)}
        for future, result in as_completed(futures, loop=client.loop, with_results=True):
            each(index[future.key], result)
            future.release()
        return []
    except BaseException:
        client.cancel(futures)
        raise
