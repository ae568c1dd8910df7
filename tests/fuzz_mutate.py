"""Mutators for tests/test_fuzz.py: serialized states (text) and pickles (bytes), plus the
restricted unpickler and the "an accepted state plays to the end" check."""

from __future__ import annotations

import io
import math
import pickle
import random
import re

from hypothesis import strategies as st

from cribpiquet import cribbage, piquet

CRIBBAGE_GAMES = [
    ("six-card", None, False),
    ("five-card", None, False),
    ("three-player", None, False),
    ("four-player", None, False),
    ("six-card", 61, True),
    ("five-card", 31, False),
]
PIQUET_GAMES = [("russian", "deal"), ("russian", "partiya"), ("rubicon", "deal"), ("rubicon", "partiya")]


def make_game(key):
    if key[0] == "cribbage":
        variant, target, lurch = key[1]
        return cribbage.Game(variant, target=target, lurch=lurch)
    rules, scope = key[1]
    return piquet.Game(rules, scope=scope)


game_keys = st.one_of(
    st.sampled_from(CRIBBAGE_GAMES).map(lambda k: ("cribbage", k)),
    st.sampled_from(PIQUET_GAMES).map(lambda k: ("piquet", k)),
)


def playout(game, seed: int, steps: int):
    """The state after ``steps`` random legal actions (or the terminal state)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


_POOL: dict = {}


def _pool(key, max_steps: int):
    """Playout states of one game (built once): depths spread over 0..max_steps, and the end."""
    if (key, max_steps) not in _POOL:
        game = make_game(key)
        depths = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 10**6]
        _POOL[key, max_steps] = [playout(game, seed, d) for seed in range(4) for d in depths if d <= max_steps or d == 10**6]
    return _POOL[key, max_steps]


@st.composite
def states(draw, keys=game_keys, max_steps: int = 400):
    """A clone of a pooled playout state (random depth, sometimes terminal), a few random
    actions further on."""
    key = draw(keys)
    pool = _pool(key, max_steps)
    return playout_from(pool[draw(st.integers(0, len(pool) - 1))].clone(), draw(st.integers(0, 2**32)), draw(st.integers(0, 3)))


def playout_from(state, seed: int, steps: int):
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


# ---------------------------------------------------------------------------- text mutation

PHASES = ["cut", "deal", "discard", "starter", "play", "game-over", "draw", "exchange", "announce",  # the real ones
          "show", "done", "lead", "game_over", ""]
_CHARS = "0123456789abcdef-,=/.;: xXZ\n\t_-+ééн\x00"
_NUMBER = re.compile(r"-?\d+")
_INTS = st.one_of(
    st.integers(-3, 70),
    st.sampled_from([2**31, 2**32, 2**63 - 1, 2**63, 2**64, 2**64 - 1, 2**200, -(2**63), 255, 256, 65535, 65536]),
)


@st.composite
def mutate_text(draw, text: str) -> str:
    """``text`` with 1..3 mutations: a char flipped, a number changed, fields swapped, the text
    truncated, a field duplicated or deleted, a hex mask changed."""
    head = text.find(" ") + 1  # most mutations keep the "game/version" token
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3]))):
        how = draw(st.sampled_from(["flip", "number", "number", "number", "delta", "delta", "delta", "swap", "swapvalues", "swapvalues",
                                    "truncate", "duplicate", "delete", "hex", "empty-field", "phase", "phase"]))
        fields = text.split(" ")
        lo = 0 if draw(st.integers(0, 9)) == 0 else min(head, max(len(text) - 1, 0))
        if how == "flip" and len(text) > lo:
            i = draw(st.integers(lo, len(text) - 1))
            text = text[:i] + draw(st.sampled_from(_CHARS)) + text[i + 1 :]
        elif how in ("number", "delta"):
            found = [m for m in _NUMBER.finditer(text) if m.start() >= lo]
            if found:
                m = found[draw(st.integers(0, len(found) - 1))]
                new = int(m.group()) + draw(st.sampled_from([-3, -2, -1, 1, 2, 3])) if how == "delta" else draw(_INTS)
                text = text[: m.start()] + str(new) + text[m.end() :]
        elif how == "phase":
            m = re.search(r"phase=([\w-]+)", text)
            if m:
                text = text[: m.start(1)] + draw(st.sampled_from(PHASES)) + text[m.end(1) :]
        elif how == "swap" and len(fields) > 2:
            i, j = draw(st.integers(1, len(fields) - 1)), draw(st.integers(1, len(fields) - 1))
            fields[i], fields[j] = fields[j], fields[i]
            text = " ".join(fields)
        elif how == "swapvalues" and len(fields) > 2:
            i, j = draw(st.integers(1, len(fields) - 1)), draw(st.integers(1, len(fields) - 1))
            ki, _, vi = fields[i].partition("=")
            kj, _, vj = fields[j].partition("=")
            fields[i], fields[j] = f"{ki}={vj}", f"{kj}={vi}"
            text = " ".join(fields)
        elif how == "truncate":
            text = text[: draw(st.integers(0, len(text)))]
        elif how == "duplicate" and fields:
            i, j = draw(st.integers(0, len(fields) - 1)), draw(st.integers(0, len(fields)))
            fields.insert(j, fields[i])
            text = " ".join(fields)
        elif how == "delete" and fields:
            del fields[draw(st.integers(0, len(fields) - 1))]
            text = " ".join(fields)
        elif how == "hex":
            hexes = [m for m in re.finditer(r"[0-9a-f]{3,}", text)]
            if hexes:
                m = hexes[draw(st.integers(0, len(hexes) - 1))]
                new = format(draw(st.integers(0, 2**64)), "x")
                text = text[: m.start()] + new + text[m.end() :]
        elif how == "empty-field" and len(fields) > 1:
            i = draw(st.integers(1, len(fields) - 1))
            fields[i] = fields[i].partition("=")[0] + "="
            text = " ".join(fields)
    return text


@st.composite
def mutate_bytes(draw, data: bytes) -> bytes:
    """``data`` with 1..3 byte-level mutations."""
    b = bytearray(data)
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["flip", "set", "truncate", "dup", "delete", "digit"]))
        if not b:
            break
        i = draw(st.integers(0, len(b) - 1))
        if how == "flip":
            b[i] ^= 1 << draw(st.integers(0, 7))
        elif how == "set":
            b[i] = draw(st.integers(0, 255))
        elif how == "truncate":
            del b[i:]
        elif how == "dup":
            j = draw(st.integers(i, min(len(b), i + 16)))
            b[i:i] = b[i:j]
        elif how == "delete":
            del b[i : i + draw(st.integers(1, 8))]
        elif how == "digit":
            digits = [k for k, c in enumerate(b) if 48 <= c <= 57]
            if digits:
                b[digits[draw(st.integers(0, len(digits) - 1))]] = draw(st.integers(48, 57))
    return bytes(b)


# -------------------------------------------------------------------------- accepted states

MAX_STEPS = 100_000


class AcceptedStateFailure(AssertionError):
    """An accepted (deserialized / unpickled) state misbehaved while being played to the end."""


def check_playable(state, seed: int = 0, label: str = "state") -> None:
    """Play ``state`` to the end with random legal actions; every state's ``serialize()`` must be
    accepted again and round-trip; chance outcomes sum to 1; returns sum to 0 and lie within
    ``[min_utility, max_utility]``. Any exception here is a failure (the state was accepted)."""
    rng = random.Random(seed)
    try:
        game = state.get_game()
        for _ in range(MAX_STEPS):
            text = state.serialize()
            again = game.deserialize_state(text)
            if again.serialize() != text:
                raise AcceptedStateFailure(f"{label}: serialize() does not round-trip:\n{text}\n{again.serialize()}")
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if not legal or legal != sorted(set(legal)):
                raise AcceptedStateFailure(f"{label}: bad legal_actions {legal} at {text}")
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                total = sum(p for _, p in outcomes)
                if [a for a, _ in outcomes] != legal or not math.isclose(total, 1.0, rel_tol=1e-9):
                    raise AcceptedStateFailure(f"{label}: chance outcomes {outcomes} vs legal {legal} at {text}")
            state.apply_action(rng.choice(legal))
        else:
            raise AcceptedStateFailure(f"{label}: not terminal after {MAX_STEPS} actions: {state.serialize()}")
        returns = state.returns()
        if not math.isclose(sum(returns), 0.0, abs_tol=1e-9):
            raise AcceptedStateFailure(f"{label}: returns {returns} do not sum to 0 at {state.serialize()}")
        lo, hi = game.min_utility(), game.max_utility()
        if not all(lo - 1e-9 <= r <= hi + 1e-9 for r in returns):
            raise AcceptedStateFailure(f"{label}: returns {returns} outside [{lo}, {hi}] at {state.serialize()}")
    except AcceptedStateFailure:
        raise
    except BaseException as e:  # noqa: BLE001 - a panic is a BaseException
        raise AcceptedStateFailure(f"{label}: accepted, then {type(e).__name__}: {str(e)[:300]}") from None


# ------------------------------------------------------------------------- restricted unpickler


class OurCodeFailure(BaseException):
    """Raised (through pickle) when one of our callables raised something other than
    ValueError/TypeError while unpickling; a BaseException so pickle cannot swallow it."""


class _Checked:
    """A cribpiquet callable as seen by the unpickler: same call, but a non-ValueError/TypeError
    exception (or a panic) becomes OurCodeFailure."""

    def __init__(self, fn, name):
        self.fn, self.name = fn, name

    def __call__(self, *args, **kwargs):
        try:
            return self.fn(*args, **kwargs)
        except (ValueError, TypeError):
            raise
        except BaseException as e:  # noqa: BLE001
            raise OurCodeFailure(f"{self.name}{_short(args)} raised {type(e).__name__}: {str(e)[:300]}") from None


def _short(args) -> str:
    r = repr(args)
    return r if len(r) < 300 else r[:300] + "..."


_SAFE_BUILTINS = {"set", "frozenset", "list", "dict", "tuple", "int", "float", "str", "bytes", "bytearray", "complex", "bool", "slice", "range"}
_NUMPY = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"), ("numpy", "ndarray"), ("numpy", "dtype"),
          ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar")}
_OURS = {cribbage.Game, cribbage.State, piquet.Game, piquet.State, piquet.Rules, cribbage.Card, piquet.Card}


def _safe_getattr(obj, name, *default):
    if obj in _OURS and name == "_restore":
        return _Checked(getattr(obj, name), f"{obj.__qualname__}.{name}")
    raise pickle.UnpicklingError(f"getattr({obj!r}, {name!r}) is not allowed")


class RestrictedUnpickler(pickle.Unpickler):
    """Loads only cribpiquet.*, a few numpy reconstructors and plain builtins."""

    def find_class(self, module, name):
        if module == "builtins" and name == "getattr":
            return _safe_getattr
        if module == "builtins" and name in _SAFE_BUILTINS:
            return super().find_class(module, name)
        if (module, name) in _NUMPY:
            return super().find_class(module, name)
        if module.startswith("cribpiquet.") and not name.startswith("__"):
            obj = super().find_class(module, name)
            if callable(obj) and (getattr(obj, "__module__", "") or "").startswith("cribpiquet"):
                return _Checked(obj, f"{module}.{name}")
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed")


def restricted_loads(data: bytes):
    return RestrictedUnpickler(io.BytesIO(data)).load()
