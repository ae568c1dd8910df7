"""Fuzz suite (issue 8 item 10): garbage at every public function and method of both modules.

Every public callable of ``cribpiquet.cribbage`` and ``cribpiquet.piquet`` (module functions,
constructors, methods of every class in ``__all__``) is called with parameters that are each
either a valid value or garbage (tests/fuzz_values.py: out-of-range and huge ints, bools,
floats, NaN, None, card-like / random / huge strings, bytes, nested, infinite and raising
iterables, numpy arrays of every dtype, rank and memory layout, the other game's ``Card``, int
and str subclasses), sometimes with a missing, extra or unknown argument. The asserts:

* only ``ValueError`` / ``TypeError`` come out (the project defines no subclasses of its own);
  never a ``PanicException`` (a ``BaseException``), ``OverflowError``, ``SystemError``,
  ``RuntimeError``, ``MemoryError``, ``KeyError``, ``IndexError``, ``AttributeError``...; a
  raising generator's own exception may propagate;
* an infinite iterable is read at most ``LIMIT`` (10,000) items (each is wrapped in a counter
  that raises after that, so today's unbounded reads fail instead of hanging);
* an error message is at most 1,000 characters;
* a call that raises leaves its object unchanged (``State.serialize()``, the match records of
  ``Partiya`` / ``Partie``);
* a call that succeeds was not given a ``bool`` as an int or card, nor the other game's ``Card``.

``deserialize_state`` gets mutated serialized states of random playouts (a char flipped, a
number changed, fields swapped, truncated, duplicated, deleted), and ``pickle`` mutated pickles
of our own objects, loaded through an unpickler that admits only ``cribpiquet.*``, numpy's
reconstructors and plain builtins (so pickle's own arbitrary-code risk is not what is tested).
Whatever is accepted must play to the end consistently (tests/fuzz_mutate.py:check_playable).

The suite looks functions up by name (a name missing from this build is skipped) and
``test_every_public_callable_is_fuzzed`` asserts the table covers every public callable of both
modules.

Issue 19 adds the newer surface, with the same checks: every bot class of ``cribpiquet.bots``
(constructor, ``step``, ``action_values``, ``restart``, repr — which must rebuild the bot),
``cribpiquet.arena`` and ``ArenaResult`` (``combine`` included), ``VectorGame`` and its batches,
the PettingZoo envs (``env`` / ``raw_env`` of both games and every method of the env class),
the OpenSpiel adapter (the games' parameters through ``pyspiel.load_game`` and the state and
game methods that reach it) and ``cribpiquet.distributed`` (arguments checked before anything
is submitted: no cluster, ``client=None`` with no default client); the analyses are in the
scoring modules' tables. A bot, a VectorGame or an env comes with a twin made alike; after a
refused call both must still behave alike. Bots think for at most 12 iterations, arenas play at
most 6 games, VectorGames hold at most 4 (huge sizes are tested for refusal, never run), and
``test_every_public_callable_of_the_newer_surface_is_fuzzed`` asserts the coverage. Failures whose
fixes are on other branches are listed in ``PENDING`` (counted, not failed) until merged. The
newer surface has fixed example counts (``Spec.examples``, scaled by CRIBPIQUET_FUZZ_EXAMPLES
like the rest): about 3,600 calls, adding under 2 minutes.

Budget: ``derandomize=True`` and a fixed number of examples (over 20,000 in all), in well
under 3 minutes. A longer local run multiplies every test's examples:

    CRIBPIQUET_FUZZ_EXAMPLES=200000 pytest tests/test_fuzz.py

(the value is the total over the module; the default, 22,000, runs in about 2 minutes here).
Failures are reported per callable (one test per callable), each failure kind as its own
exception class (``Fuzz_bool_accepted``, ``Fuzz_panic_PanicException``...). Other switches:

* ``CRIBPIQUET_FUZZ_SHRINK=1`` lets hypothesis shrink a failing case (off by default: shrinking
  a panic or a huge message can take minutes);
* ``CRIBPIQUET_FUZZ_COLLECT=FILE`` appends every failure to FILE (a JSON line each) and keeps
  going, to list every distinct failure rather than the first per callable;
* ``CRIBPIQUET_FUZZ_TRACE=FILE`` writes each call to FILE before making it (after a crash the
  file names the call that crashed);
* ``CRIBPIQUET_FUZZ_COUNTS=FILE`` writes the number of calls made per callable, and of failures
  left to other branches (``PENDING``), to FILE at the end.

The module caps the process's address space (RLIMIT_AS, 4 GiB above its size) while it runs, so
an unbounded allocation fails here instead of exhausting the machine.
"""

from __future__ import annotations

import functools
import inspect
import math
import operator
import os
import pickle
import re
import reprlib
import tempfile
import types
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from cribpiquet import cribbage, piquet

from fuzz_mutate import (
    CRIBBAGE_GAMES,
    PIQUET_GAMES,
    AcceptedStateFailure,
    OurCodeFailure,
    check_playable,
    make_game,
    mutate_bytes,
    mutate_text,
    playout,
    restricted_loads,
    states,
)
from fuzz_values import BIG_INTS, BadLen, HUGE_STRINGS, LIMIT, Bounded, Indexable, IntSub, Raising, ReadTooMuch, UserIterError, arrays, garbage, other_cards

DEFAULT_TOTAL = 22_000
TOTAL = int(os.environ.get("CRIBPIQUET_FUZZ_EXAMPLES", DEFAULT_TOTAL))
# Poisoned values include an `__index__` that returns a bool on purpose (CPython warns about it).
pytestmark = [pytest.mark.filterwarnings("ignore:__index__ returned non-int:DeprecationWarning"),
              # env.render() without a render_mode warns (as PettingZoo asks), which the fuzz calls
              pytest.mark.filterwarnings("ignore:.*render\\(\\) called without a render_mode")]

MAX_MESSAGE = 1000

# Failures of issue 19 found by this fuzz whose fixes are on other branches: item -> (reason, the
# callables "module.qualname", the failure kinds). While an entry is here, a failure of one of its
# kinds in one of its callables is counted (PENDING_SEEN) instead of failing the test; remove the
# entry when the branch is merged, and the fuzz checks those cases again.
PENDING: dict[str, tuple[str, set[str], set[str]]] = {}
PENDING_SEEN: dict[str, int] = {}


def pending_item(modname: str, qualname: str, case: Any, failure: BaseException) -> str | None:
    """The PENDING item a failure belongs to, or None."""
    kind = str(failure)[1:].split("]", 1)[0]
    for item, (_, callables, kinds) in PENDING.items():
        if f"{modname}.{qualname}" in callables and kind in kinds:
            return item
    return None


SHRINK = os.environ.get("CRIBPIQUET_FUZZ_SHRINK", "") not in ("", "0")
PHASES = [Phase.explicit, Phase.reuse, Phase.generate] + ([Phase.shrink] if SHRINK else [])


def budget(share: float) -> settings:
    """Settings for a test that gets ``share`` of the module's examples."""
    return settings(
        max_examples=max(10, int(TOTAL * share)),
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
        phases=PHASES,
    )


# ---------------------------------------------------------------------- the memory guard

MEMORY_HEADROOM = 4 << 30  # bytes of address space the fuzz tests may add to the process


@pytest.fixture(autouse=True, scope="module")
def address_space_limit():
    """Cap the process's address space while this module runs, so a call that allocates without
    bound fails (MemoryError, or at worst an abort of this process) instead of taking the machine
    down; the previous limit is restored afterwards."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as f:
        size = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    limit = size + MEMORY_HEADROOM
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if soft == resource.RLIM_INFINITY or soft > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        if os.environ.get("CRIBPIQUET_FUZZ_COUNTS"):
            import json

            with open(os.environ["CRIBPIQUET_FUZZ_COUNTS"], "w") as out:
                json.dump({"calls": CALLS, "pending": PENDING_SEEN}, out, indent=1)


# ------------------------------------------------------------------------ failure reporting


class FuzzFailure(AssertionError):
    """Base of the failures; one subclass per kind so hypothesis reports each kind separately."""


_KINDS: dict[str, type] = {}


COLLECT = os.environ.get("CRIBPIQUET_FUZZ_COLLECT", "")
TRACE = os.environ.get("CRIBPIQUET_FUZZ_TRACE", "")


def collecting(test_id: str):
    """With CRIBPIQUET_FUZZ_COLLECT=FILE, failures are appended to FILE (one JSON line each) and
    the test goes on generating, to list every distinct failure instead of the first."""

    def wrap(body):
        if not COLLECT:
            return body

        @functools.wraps(body)
        def run(*args, **kwargs):
            try:
                body(*args, **kwargs)
            except FuzzFailure as f:
                import json

                with open(COLLECT, "a") as out:
                    out.write(json.dumps({"test": test_id, "kind": type(f).__name__, "message": str(f)[:700]}) + "\n")

        return run

    return wrap


def fail(kind: str, message: str) -> None:
    cls = _KINDS.setdefault(kind, type("Fuzz_" + "".join(c if c.isalnum() else "_" for c in kind), (FuzzFailure,), {}))
    raise cls(f"[{kind}] {message}") from None  # no chained (possibly huge) exception in the report


_REPR = reprlib.Repr()
_REPR.maxstring, _REPR.maxother, _REPR.maxlist, _REPR.maxtuple, _REPR.maxlevel = 80, 200, 16, 16, 4


def short(x: Any, n: int = 200) -> str:
    """A bounded repr (never builds the repr of a huge string or list)."""
    if isinstance(x, str):
        r = repr(x[:n]) + (f"...({len(x)} chars)" if len(x) > n else "")
        return r
    try:
        r = _REPR.repr(x)
    except Exception:  # noqa: BLE001
        r = object.__repr__(x)
    return r if len(r) <= n else r[:n] + f"...({len(r)} chars)"


class Lazy:
    """A label built only when a failure is reported (building it for every call is slow)."""

    def __init__(self, make: Callable[[], str]):
        self.make, self.text = make, None

    def __str__(self) -> str:
        if self.text is None:
            self.text = self.make()
        return self.text

    __repr__ = __str__


# ---------------------------------------------------------------------- walking argument values


def _walk(x: Any, depth: int = 0):
    yield x
    if depth > 4:
        return
    if isinstance(x, (list, tuple, set, frozenset)):
        for y in x:
            yield from _walk(y, depth + 1)
    elif isinstance(x, dict):
        for y in x:
            yield from _walk(y, depth + 1)


def contains(x: Any, pred: Callable[[Any], bool]) -> bool:
    return any(pred(y) for y in _walk(x))


def is_bool(x: Any) -> bool:
    return isinstance(x, (bool, np.bool_)) or (isinstance(x, np.ndarray) and x.dtype == np.bool_ and x.size > 0)


# --------------------------------------------------------------------------- valid values

C, P = cribbage, piquet
VARIANTS = ["six-card", "five-card", "three-player", "four-player"]


def card_like(game, i: int, how: int):
    card = game.Card(i)
    return [i, card, str(card), card.symbol(), str(card).lower()][how % 5]


def cards_of(game, ids: list[int], how: int):
    if how == 5:
        return " ".join(str(game.Card(i)) for i in ids)
    if how == 6:
        return (card_like(game, i, k) for k, i in enumerate(ids))
    if how == 7:
        return tuple(ids)
    return [card_like(game, i, how) for i in ids]


@dataclass
class Ctx:
    """What one call's valid values are drawn from: a shuffled pack per game and the instance."""

    perm52: list[int]
    perm32: list[int]
    how: int
    inst: Any = None
    readme: bool = False


README_ELDER = "AH KH QH JH TH 7H AC AD AS 7C 8C 7D"
README_DEALER = "9H 8H 9C TC JC QC KD QD JD 8S 9S TS"
README_TRICKS = [("AH", "8H"), ("KH", "9H"), ("QH", "8S"), ("JH", "9S"), ("TH", "TS"), ("7H", "QD"),
                 ("AC", "9C"), ("AD", "KD"), ("AS", "JD"), ("7C", "TC"), ("JC", "8C"), ("QC", "7D")]


def v(fn: Callable[[Ctx], Any]) -> Callable[[Ctx], st.SearchStrategy]:
    """A valid value computed from the context (no further drawing)."""
    return lambda ctx: st.just(None).map(lambda _: fn(ctx))


def ccards(lo: int, hi: int):
    return lambda ctx: st.integers(lo, hi).map(lambda k: cards_of(C, ctx.perm52[:k], ctx.how))


def pcards(lo: int, hi: int, start: int = 0):
    def make(ctx):
        if ctx.readme:
            return st.just([README_ELDER, README_DEALER][start // 12])
        return st.integers(lo, hi).map(lambda k: cards_of(P, ctx.perm32[start : start + k], ctx.how))

    return make


def tricks(ctx):
    if ctx.readme:
        return st.just(README_TRICKS)
    e, d = ctx.perm32[:12], ctx.perm32[12:24]
    return st.just([(P.Card(a), P.Card(b)) for a, b in zip(e, d)])


def players_of(ctx):
    n = ctx.inst.num_players()
    return st.one_of(st.none(), st.integers(-1, n - 1))


def legal_action(ctx):
    s = ctx.inst
    legal = [] if s.is_terminal() else s.legal_actions()
    return st.sampled_from(legal) if legal else st.integers(0, s.get_game().num_distinct_actions())


def action_text(ctx):
    s = ctx.inst
    if s.is_terminal():
        return st.just("GO")
    return legal_action(ctx).map(lambda a: s.action_to_string(a))


def serialized(ctx):
    g = ctx.inst
    return st.integers(0, 300).map(lambda k: playout(g, k, k).serialize())


cgames = st.sampled_from(CRIBBAGE_GAMES).map(lambda k: make_game(("cribbage", k)))
pgames = st.sampled_from(PIQUET_GAMES).map(lambda k: make_game(("piquet", k)))
rules_values = st.sampled_from([None, "russian", "rubicon", P.Rules.russian(), P.Rules.rubicon(), P.Rules.russian().replace(koroliks_per_partiya=3)])
players_names = st.sampled_from(["random", "first", ["random", "first"], ("first", "random", "first", "random"), None])
RULE_FIELDS = P.Rules.russian().as_dict()


def rule_changes(ctx):
    base = P.Rules.rubicon().as_dict() if ctx.how % 2 else RULE_FIELDS
    return st.lists(st.sampled_from(sorted(base)), max_size=3, unique=True).map(lambda ks: {k: base[k] for k in ks})


def k(strategy: st.SearchStrategy) -> Callable[[Ctx], st.SearchStrategy]:
    return lambda ctx: strategy


# kinds: "int" (bool must be refused), "card"/"cards" (bool and the other game's Card refused), "any"
@dataclass
class Param:
    kind: str
    valid: Callable[[Ctx], st.SearchStrategy]
    costly: Callable[[Any], bool] | None = None  # garbage it is too slow to call with (redrawn)


def I(valid) -> Param:  # noqa: E743
    return Param("int", valid if callable(valid) and not isinstance(valid, st.SearchStrategy) else k(valid))


def Cd(valid) -> Param:
    return Param("card", valid)


def Cs(valid) -> Param:
    return Param("cards", valid)


def A(valid) -> Param:
    return Param("any", valid if callable(valid) and not isinstance(valid, st.SearchStrategy) else k(valid))


CCARD = Cd(lambda ctx: st.integers(0, 51).map(lambda i: card_like(C, i, ctx.how)))
PCARD = Cd(lambda ctx: st.integers(0, 31).map(lambda i: card_like(P, i, ctx.how)))
NGAMES = I(st.integers(0, 12))
SEED = I(st.one_of(st.none(), st.integers(0, 2**64 - 1)))
THREADS = I(st.one_of(st.none(), st.integers(1, 2)))
FIRST_GAME = I(st.one_of(st.none(), st.integers(0, 2**62)))
# A record file of simulate / the arena: none, or one file in the temporary folder (the calls run
# in a temporary folder too, where a garbage text names a file).
RECORD = A(st.sampled_from([None, None, os.path.join(tempfile.gettempdir(), "cribpiquet-fuzz-record.jsonl")]))
MAX_RECORDS = I(st.integers(0, 20))
PLAYER = I(players_of)
SCORE = I(st.integers(0, 200))

STATE_PARAMS = {
    "player": PLAYER,
    "action": I(legal_action),
    "player_or_action": I(lambda ctx: st.one_of(players_of(ctx), legal_action(ctx))),
    "player_or_text": A(lambda ctx: st.one_of(players_of(ctx), action_text(ctx))),
    "text": A(action_text),
    "seed": I(st.integers(0, 2**63)),
}


def state_params(**override):
    return {**STATE_PARAMS, **override}


def cribbage_arrays(shapes):
    return lambda ctx: arrays(shapes, 52, int_only=True)


def piquet_arrays(shapes):
    return lambda ctx: arrays(shapes, 32, int_only=True)


@dataclass
class Spec:
    """One public callable: how to get it (``target``) and a valid value for each parameter."""

    params: dict[str, Param]
    target: Any = None  # None: the module attribute of that name; else a strategy of (callable, inst)
    snapshot: Callable[[Any], Any] | None = None
    share: float = 1.0
    readme_deal: bool = False
    post: Callable[..., None] | None = None  # (label, args, result, inst, snapshot before): checks a success
    kw_fields: list[str] | None = None  # the names a ``**kwargs`` parameter may be given garbage under
    examples: int | None = None  # the newer surface (issue 19): this many examples (scaled like the rest)
    garbage: st.SearchStrategy | None = None  # instead of fuzz_values.garbage (pyspiel's own methods get ints)


def method(instances: st.SearchStrategy, name: str):
    return instances.map(lambda inst: (getattr(inst, name), inst))


def cribbage_states():
    return states(st.sampled_from(CRIBBAGE_GAMES).map(lambda k: ("cribbage", k)), 200)


def piquet_states():
    return states(st.sampled_from(PIQUET_GAMES).map(lambda k: ("piquet", k)), 400)


def breakdowns():
    return st.permutations(range(52)).map(lambda p: C.explain_hand(p[:4], p[4]))


def peg_breakdowns():
    return st.sampled_from(["5H", "7C 8D 9H 7S", "3C 2D 5H AS 4C", "5H 5D 5S 5C", "KD QH 5S"]).map(C.explain_peg)


def declarations_objs():
    return st.permutations(range(32)).map(lambda p: P.declarations(p[:12]))


def declaration_scores():
    return st.permutations(range(32)).map(lambda p: P.score_declarations(p[:12], p[12:24]))


def game_scores():
    return st.sampled_from([None, "rubicon"]).map(lambda r: P.score_game(README_ELDER, README_DEALER, README_TRICKS, rules=r))


def partiyas():
    @st.composite
    def make(draw):
        p = P.Partiya(draw(rules_values.filter(lambda r: r not in ("rubicon",) and r != P.Rules.rubicon())))
        for a, b in draw(st.lists(st.tuples(st.integers(0, 150), st.integers(0, 150)), max_size=6)):
            if p.is_over():
                break
            p.add_game(a, b)
        return p

    return make()


def parties():
    @st.composite
    def make(draw):
        p = P.Partie(draw(st.sampled_from([None, "rubicon", P.Rules.rubicon()])))
        for a, b in draw(st.lists(st.tuples(st.integers(0, 150), st.integers(0, 150)), max_size=6)):
            if p.is_over():
                break
            p.add_deal(a, b)
        return p

    return make()


def match_snapshot(p):
    out = []
    for name in ("games", "koroliks", "columns", "doubled_games_left", "carried_doubling", "deals", "totals", "deals_left"):
        if hasattr(p, name):
            out.append(repr(getattr(p, name)))
    out.append(repr(p.is_over()))
    try:
        out.append(repr(p.result()))
    except Exception as e:  # noqa: BLE001
        out.append(type(e).__name__)
    return out


def state_snapshot(s):
    return s.serialize()


def _no_params():
    return {}


def _ids(cards) -> set[int] | None:
    try:
        return {c.id for c in P.parse_cards(cards)}
    except Exception:  # noqa: BLE001
        return None


def post_declarations(label, args, result, inst, before):
    """A hand shares at least 4 cards with the hand it was dealt (no exchange takes more than 8)."""
    pairs = [("hand", "dealt", result)] if "hand" in args else [("elder", "elder_dealt", result.elder), ("dealer", "dealer_dealt", result.dealer)]
    for _, dealt_name, decl in pairs:
        dealt = args.get(dealt_name)
        if dealt is None or isinstance(dealt, Bounded):
            continue
        dealt_ids, hand_ids = _ids(dealt), {c.id for c in decl.hand}
        if dealt_ids is not None and len(hand_ids & dealt_ids) < 4:
            fail("impossible dealt hand accepted", f"{label}: the hand shares {len(hand_ids & dealt_ids)} cards with {dealt_name}, accepted")


def post_round_record(label, args, result, inst, before):
    """Halves up to tens, exactly (115 -> 120, 114 -> 110), or a ValueError: never a wrong answer."""
    x = args.get("x")
    if type(x) is int and result != (x + 5) // 10 * 10:
        fail("round_record wrong near the int limit", f"{label} returned {result}, exact half-up rounding is {(x + 5) // 10 * 10}")


def post_player_range(label, args, result, inst, before):
    """A player that does not exist is refused (ValueError), as by every other method taking one."""
    p = args.get("player")
    if type(p) is int and not -1 <= p < inst.num_players():
        fail("nonexistent player accepted", f"{label}: player {p} (players are 0..{inst.num_players() - 1}) accepted, returned {short(result)}")


def _exact_ints(*xs) -> tuple[int, ...] | None:
    if all(isinstance(x, int) and not isinstance(x, bool) for x in xs):
        return tuple(int(x) for x in xs)
    return None


def post_add_game(label, args, result, inst, before):
    """The recorded game holds the totals as given (no saturation, no wrap)."""
    given = _exact_ints(args.get("total_0"), args.get("total_1"))
    if given is not None and tuple(result.totals) != given:
        fail("match totals saturate", f"{label}: recorded totals {result['totals']}, given {given}")


def post_add_deal(label, args, result, inst, before):
    """The recorded deal and the running totals are exact."""
    given = _exact_ints(args.get("score_0"), args.get("score_1"))
    if given is None:
        return
    if tuple(inst.deals[-1]) != given:
        fail("match totals saturate", f"{label}: recorded deal {inst.deals[-1]}, given {given}")
    prev = before
    if prev is not None and tuple(inst.totals) != (prev[0] + given[0], prev[1] + given[1]):
        fail("match totals saturate", f"{label}: totals {inst.totals} after {prev} + {given}")


# The table: module -> qualified name -> Spec. ``Class`` is the constructor, ``Class.meth`` a method.
CRIBBAGE: dict[str, Spec] = {
    "parse_cards": Spec({"cards": Cs(ccards(0, 8))}),
    "score_hand": Spec({"hand": Cs(ccards(3, 4)), "starter": CCARD, "crib": A(st.booleans())}),
    "explain_hand": Spec({"hand": Cs(ccards(3, 4)), "starter": CCARD, "crib": A(st.booleans())}),
    "heels_points": Spec({"starter": CCARD}),
    "peg_points": Spec({"sequence": Cs(ccards(1, 8))}),
    "explain_peg": Spec({"sequence": Cs(ccards(1, 8))}),
    "go_points": Spec({"count": I(st.integers(0, 31))}),
    "pair_action": Spec({"a": I(st.integers(0, 51)), "b": I(st.integers(0, 51))}),
    "action_pair": Spec({"action": I(st.integers(52, 1377))}),
    "hand_distribution": Spec({"kind": A(st.sampled_from(["five-card-hand"] * 6 + ["hand", "crib"]))}, share=0.5),
    "simulate": Spec({"game": A(cgames), "n_games": NGAMES, "players": A(players_names), "seed": SEED, "threads": THREADS,
                       "first_game": FIRST_GAME, "record": RECORD, "max_records": MAX_RECORDS}),
    "Card": Spec({"value": CCARD}),
    "Card.symbol": Spec({}, target=method(st.integers(0, 51).map(C.Card), "symbol"), share=0.3),
    "Breakdown": Spec({}, share=0.2),
    "Breakdown.as_dict": Spec({}, target=method(breakdowns(), "as_dict"), share=0.3),
    "PegBreakdown": Spec({}, share=0.2),
    "Game": Spec({"variant": A(st.sampled_from(VARIANTS)), "target": I(st.one_of(st.none(), st.sampled_from([31, 61, 121]), st.integers(1, 500))), "lurch": A(st.booleans()),
                  "first_dealer": I(st.one_of(st.none(), st.integers(0, 3)))}),
}
for _name in ("score_hand_batch", "explain_hand_batch"):
    CRIBBAGE[_name] = Spec({"hands": A(cribbage_arrays([(3, 4), (2, 3), (0, 4), (1, 4)])),
                            "starters": A(cribbage_arrays([(3,), (2,), (0,), (1,)])), "crib": A(st.booleans())})
CRIBBAGE["peg_points_batch"] = Spec({"sequences": A(cribbage_arrays([(2, 5), (1, 13), (3, 3), (0, 5)]))})

# Discard analysis and tables (issue 10): the costly calls (a pass, an iteration) get small shares;
# discard_tables caches by its arguments, so its few valid argument sets are computed once.
_TABLES5 = C.DiscardTables.initial("five-card")
_ANALYSIS = C.analyze_discard("5H 5D 5S JC 2C 9H", dealer=True)
_tables5 = st.just(_TABLES5)
_SAFE_PATHS = ["/nonexistent/dir/t.npz", "", "/"]


def _a_real_path(value: Any) -> bool:
    """A file name the fuzz must not hand to save/load (any text or path but the safe ones)."""
    return isinstance(value, (str, bytes, os.PathLike)) and value not in _SAFE_PATHS + ["/dev/null"]


DISCARD_SPECS: dict[str, Spec] = {
    "analyze_discard": Spec({"hand": Cs(ccards(5, 6)), "dealer": A(st.booleans()), "variant": A(st.sampled_from(["six-card", "five-card", None])),
                             "opponent": A(st.sampled_from(["uniform", _TABLES5]))}),
    "analyze_discard_batch": Spec({"hands": A(cribbage_arrays([(2, 6), (1, 5), (0, 6)])), "dealer": A(st.booleans()),
                                   "variant": A(st.sampled_from(["six-card", "five-card"])), "opponent": A(st.just("uniform"))}),
    "combine_pass_sums": Spec({"parts": A(st.just([_TABLES5.pass_sums(0, 10)]))}, share=0.5),
    "discard_classes": Spec({"variant": A(st.sampled_from(["six-card", "five-card"]))}, share=0.3),
    "discard_class_hands": Spec({"variant": A(st.sampled_from(["six-card", "five-card"])), "start": I(st.integers(0, 100)),
                                 "stop": I(st.integers(0, 300))}, share=0.3),
    "discard_tables": Spec({"variant": A(st.just("five-card")), "flushes": A(st.booleans()), "max_iterations": I(st.integers(0, 1)),
                            "model": A(st.sampled_from(["conditioned", "thrown-only"])),
                            "tolerance": A(st.just(1.0)), "progress": A(st.just(False))}, share=0.1),
    "DiscardAnalysis": Spec({"hand": A(st.just(())), "dealer": A(st.booleans()), "variant": A(st.just("six-card")),
                             "opponent": A(st.just("uniform")), "rows": A(st.just([]))}, share=0.1),
    "DiscardAnalysis.plot": Spec({"ax": A(st.none())}, target=method(st.just(_ANALYSIS), "plot"), share=0.05),
    "DiscardRow": Spec({}, share=0.1),
    "DiscardTables": Spec({}, share=0.1),
    "DiscardTables.initial": Spec({"variant": A(st.sampled_from(["five-card", "six-card"])), "flushes": A(st.booleans()),
                                   "model": A(st.sampled_from(["conditioned", "thrown-only"]))},
                                  target=st.just((C.DiscardTables.initial, None)), share=0.1),
    "DiscardTables.pass_sums": Spec({"start": I(st.integers(0, 100)), "stop": I(st.integers(0, 300))}, target=method(_tables5, "pass_sums"),
                                    share=0.3),
    "DiscardTables.advance": Spec({"sums": A(st.just(_TABLES5.pass_sums(0, 10)))}, target=method(_tables5, "advance"), share=0.3),
    "DiscardTables.pair_weights": Spec({"dealer": A(st.booleans())}, target=method(_tables5, "pair_weights"), share=0.2),
    "DiscardTables.step": Spec({}, target=method(_tables5, "step"), share=0.03),
    "DiscardTables.plot": Spec({}, target=method(_tables5, "plot"), share=0.03),
    # a file name that cannot be written or read (the real round trip: tests/test_tables_file.py)
    # (garbage text or paths are redrawn: a junk file name would write a file, or read a device)
    "DiscardTables.save": Spec({"path": Param("any", k(st.sampled_from(_SAFE_PATHS)), costly=_a_real_path)},
                               target=method(_tables5, "save"), share=0.05),
    "DiscardTables.load": Spec({"path": Param("any", k(st.sampled_from(_SAFE_PATHS + ["/dev/null"])), costly=_a_real_path)},
                               target=st.just((C.DiscardTables.load, None)), share=0.05),
}
CRIBBAGE.update(DISCARD_SPECS)

PIQUET: dict[str, Spec] = {
    "parse_cards": Spec({"cards": Cs(pcards(0, 14))}),
    "declarations": Spec({"hand": Cs(pcards(12, 12)), "dealt": Cs(lambda ctx: st.one_of(st.none(), pcards(12, 12)(ctx), pcards(12, 12, 12)(ctx))), "rules": A(rules_values)}, readme_deal=True, post=post_declarations),
    "score_declarations": Spec({"elder": Cs(pcards(12, 12, 0)), "dealer": Cs(pcards(12, 12, 12)), "rules": A(rules_values),
                                "elder_dealt": Cs(lambda ctx: st.one_of(st.none(), pcards(12, 12, 0)(ctx), pcards(12, 12, 12)(ctx))),
                                "dealer_dealt": Cs(lambda ctx: st.one_of(st.none(), pcards(12, 12, 12)(ctx), pcards(12, 12, 0)(ctx)))}, readme_deal=True,
                               post=post_declarations),
    "score_game": Spec({"elder": Cs(pcards(12, 12, 0)), "dealer": Cs(pcards(12, 12, 12)), "tricks": Cs(tricks), "rules": A(rules_values),
                        "elder_dealt": Cs(lambda ctx: st.one_of(st.none(), pcards(12, 12, 0)(ctx))),
                        "dealer_dealt": Cs(lambda ctx: st.one_of(st.none(), pcards(12, 12, 12)(ctx))),
                        "open_capot": A(st.sampled_from([None, "elder", "dealer"])), "silent": A(st.sampled_from([None, "elder", "dealer"])),
                        "false_declaration": A(st.sampled_from([None, "elder", "dealer"]))}, readme_deal=True),
    "round_record": Spec({"x": I(st.one_of(st.integers(0, 2000), st.integers(2**63 - 20, 2**63 - 1)))}, post=post_round_record),
    "difference_record": Spec({"a": I(st.integers(0, 300)), "b": I(st.integers(0, 300)), "rules": A(rules_values)}),
    "score_declarations_batch": Spec({"elder": A(piquet_arrays([(2, 12), (0, 12), (1, 12)])), "dealer": A(piquet_arrays([(2, 12), (0, 12), (1, 12)])), "rules": A(rules_values)}),
    "simulate": Spec({"game": A(pgames), "n_games": NGAMES, "players": A(players_names), "seed": SEED, "threads": THREADS,
                       "first_game": FIRST_GAME, "record": RECORD, "max_records": MAX_RECORDS}),
    "Card": Spec({"value": PCARD}),
    "Card.symbol": Spec({}, target=method(st.integers(0, 31).map(P.Card), "symbol"), share=0.3),
    "Rules": Spec({"name": A(st.sampled_from(["russian", "rubicon"]))}),
    "Rules.russian": Spec({}, target=st.just((P.Rules.russian, None)), share=0.2),
    "Rules.rubicon": Spec({}, target=st.just((P.Rules.rubicon, None)), share=0.2),
    "Rules.replace": Spec({"changes": A(rule_changes)}, target=method(st.sampled_from([P.Rules.russian(), P.Rules.rubicon()]), "replace"), share=2.0),
    "Rules.as_dict": Spec({}, target=method(st.sampled_from([P.Rules.russian(), P.Rules.rubicon()]), "as_dict"), share=0.2),
    "Game": Spec({"rules": A(rules_values), "scope": A(st.sampled_from([None, "deal", "partiya"])),
                  "first_dealer": I(st.one_of(st.none(), st.integers(0, 1)))}),
    "Partiya": Spec({"rules": A(rules_values.filter(lambda r: r not in ("rubicon",) and r != P.Rules.rubicon())), "doubled_games": I(st.integers(0, 4))}),
    "Partiya.add_game": Spec({"total_0": SCORE, "total_1": SCORE}, target=method(partiyas(), "add_game"), snapshot=match_snapshot, share=2.0,
                             post=post_add_game),
    "Partiya.is_over": Spec({}, target=method(partiyas(), "is_over"), snapshot=match_snapshot, share=0.2),
    "Partiya.result": Spec({}, target=method(partiyas(), "result"), snapshot=match_snapshot, share=0.3),
    "Partie": Spec({"rules": A(st.sampled_from([None, "rubicon", P.Rules.rubicon()]))}),
    "Partie.add_deal": Spec({"score_0": SCORE, "score_1": SCORE}, target=method(parties(), "add_deal"), snapshot=match_snapshot, share=2.0,
                            post=post_add_deal),
    "Partie.is_over": Spec({}, target=method(parties(), "is_over"), snapshot=match_snapshot, share=0.2),
    "Partie.result": Spec({}, target=method(parties(), "result"), snapshot=match_snapshot, share=0.3),
    "Partie.from_totals": Spec({"totals": A(st.tuples(st.integers(0, 400), st.integers(0, 400))),
                                "deals": I(st.one_of(st.none(), st.integers(0, 8))),
                                "rules": A(st.sampled_from([None, "rubicon", P.Rules.rubicon()]))},
                               target=st.just((P.Partie.from_totals, None))),
    "Record": Spec({"seat": I(st.integers(0, 1)), "points": I(st.integers(0, 10**6))}),
}
for _name in ("declarations_batch",):
    PIQUET[_name] = Spec({"hands": A(piquet_arrays([(2, 12), (0, 12), (1, 12), (3, 12)])), "rules": A(rules_values)})
for _cls in ("Point", "Sequence", "Set", "Declarations", "CategoryScore", "DeclarationScore", "GameEvent", "GameScore",
             "Korolik", "PartiyaGame", "PartiyaResult", "PartieResult"):
    PIQUET[_cls] = Spec({}, share=0.2)

# The exchange analysis (issue 10): cheap valid calls (3 talon cards, a few samples).
_EXCHANGE = P.analyze_exchange("AH KH QH JH TH AS KS QS 7C 8C 7D 8D", role="dealer", max_discard=3, samples=20)
_ROW_FIELDS = {f: A(st.just(getattr(_EXCHANGE.best, f))) for f in P.ExchangeRow.__dataclass_fields__}
PIQUET.update({
    "analyze_exchange": Spec({"hand": Cs(pcards(12, 12)), "role": A(st.sampled_from(["elder", "dealer"])), "rules": A(rules_values),
                              "samples": I(st.integers(0, 12)), "seed": SEED, "max_discard": I(st.just(3)),
                              "opponent": A(st.sampled_from(["best", "keep"])), "progress": A(st.sampled_from([None, False]))},
                             share=0.15),
    "Estimate": Spec({"value": A(st.floats()), "se": A(st.floats())}, share=0.05),
    "Estimate.count": Spec({"value": A(st.floats())}, target=st.just((P.Estimate(0.5, 0.1).count, None)), share=0.05),
    "Estimate.index": Spec({"value": A(st.just(0.5)), "start": I(st.integers(0, 2)), "stop": I(st.integers(0, 2))},
                           target=st.just((P.Estimate(0.5, 0.1).index, None)), share=0.05),
    "ExchangeRow": Spec(_ROW_FIELDS, share=0.05),
    "ExchangeRow.discard_text": Spec({}, target=st.just((_EXCHANGE.best.discard_text, None)), share=0.05),
    "ExchangeAnalysis": Spec({f: A(st.just(getattr(_EXCHANGE, f))) for f in P.ExchangeAnalysis.__dataclass_fields__}, share=0.05),
    "ExchangeAnalysis.table": Spec({"limit": I(st.one_of(st.none(), st.integers(0, 30)))}, target=st.just((_EXCHANGE.table, None)), share=0.1),
    "ExchangeAnalysis.row": Spec({"discard": Cs(k(st.sampled_from([[], "7C 8C 7D", ["AS", "KS", "QS"]])))},
                                 target=st.just((_EXCHANGE.row, None)), share=0.1),
    "ExchangeAnalysis.sorted_rows": Spec({"key": A(st.sampled_from(["expected_total", "net", "point_win", "total_30"]))},
                                         target=st.just((_EXCHANGE.sorted_rows, None)), share=0.1),
    "ExchangeAnalysis.plot": Spec({"top": I(st.integers(1, 3))}, target=st.just((_EXCHANGE.plot, None)), share=0.03),
})

# The engine classes: the same methods in both games.
ENGINE_GAME_METHODS = ["information_state_tensor_shape", "information_state_tensor_size", "max_chance_outcomes", "max_game_length",
                       "max_utility", "min_utility", "new_initial_state", "num_distinct_actions", "num_players", "num_sides",
                       "observation_tensor_shape", "observation_tensor_size", "point_sources", "utility_sum", "get_type"]
for _table, _games, _states, _extra in [(CRIBBAGE, cgames, cribbage_states, ["crib", "plays", "count_cards", "said_go"]),
                                        (PIQUET, pgames, piquet_states, ["cut_cards", "deal_scores", "declarations", "games", "plays", "trick", "tricks_won"])]:
    for _m in ENGINE_GAME_METHODS:
        _table[f"Game.{_m}"] = Spec({}, target=method(_games, _m), share=0.2)
    _table["Game.deserialize_state"] = Spec({"text": A(serialized)}, target=method(_games, "deserialize_state"))
    _table["State"] = Spec({}, share=0.2)
    for _m in ["chance_outcomes", "clone", "current_player", "get_game", "history", "is_chance_node", "is_player_node", "is_terminal",
               "move_number", "num_players", "points_by_source", "returns", "rewards", "scores", "serialize", "side_scores",
               "history_str", "is_simultaneous_node", *_extra]:
        _table[f"State.{_m}"] = Spec({}, target=method(_states(), _m), snapshot=state_snapshot, share=0.2)
    for _m in ["action_to_string", "apply_action", "child", "undo_action", "player_return", "string_to_action", "legal_actions",
               "legal_actions_mask", "information_state_string", "information_state_tensor", "observation_tensor",
               "observation_string", "resample_from_infostate", "hand", "kept", "discards", "sample_chance", "action_cards"] + (["dealt_hand", "drawn", "exchange_size"] if _table is PIQUET else []):
        _table[f"State.{_m}"] = Spec(state_params(), target=method(_states(), _m), snapshot=state_snapshot,
                                     share=2.0 if _m in ("apply_action", "undo_action", "string_to_action") else 1.0)
    for _m in ("legal_actions", "legal_actions_mask"):
        _table[f"State.{_m}"].post = post_player_range
    _table["State.undo_action"].params = state_params(player=PLAYER, action=I(lambda ctx: st.one_of(st.none(), st.sampled_from(ctx.inst.history() or [0]))))

# Data out and display (issue 23): to_dict / to_pandas / to_polars on results, State.render.
_PARTIYA = P.Partiya(P.Rules.russian().replace(koroliks_per_partiya=3))
for _x, _y in [(54, 21), (20, 68), (90, 25), (12, 49), (40, 18), (30, 36)]:
    _PARTIYA.add_game(_x, _y)
_DSCORE = P.score_declarations(README_ELDER, README_DEALER)
_GSCORE = P.score_game(README_ELDER, README_DEALER, README_TRICKS)
_DECL = P.declarations(README_ELDER)
_RESULTS = [
    (CRIBBAGE, {"Breakdown": C.explain_hand("5H 5D 5S JC", "5C"), "PegBreakdown": C.explain_peg("7C 8D 9H 7S"),
               "DiscardRow": _ANALYSIS.best, "DiscardTables": _TABLES5, "DiscardAnalysis": _ANALYSIS}),
    (PIQUET, {"DeclarationScore": _DSCORE, "CategoryScore": _DSCORE.point, "GameScore": _GSCORE, "GameEvent": _GSCORE.events[3],
             "Declarations": _DECL, "Point": _DECL.point, "Sequence": _DECL.sequences[0], "Set": _DECL.sets[0],
             "PartiyaResult": _PARTIYA.result(), "Record": _PARTIYA.result().korolik_records[0], "PartiyaGame": _PARTIYA.games[0],
             "Korolik": _PARTIYA.koroliks[0], "PartieResult": P.Partie.from_totals((175, 93)).result(), "ExchangeAnalysis": _EXCHANGE}),
]
for _table, _objects in _RESULTS:
    for _cls, _obj in _objects.items():
        for _m in ("to_dict", "to_pandas", "to_polars"):
            if hasattr(_obj, _m):
                _table[f"{_cls}.{_m}"] = Spec({}, target=method(st.just(_obj), _m), share=0.05)
for _table, _states in ((CRIBBAGE, cribbage_states), (PIQUET, piquet_states)):
    _table["State.render"] = Spec({"player": PLAYER}, target=method(_states(), "render"), snapshot=state_snapshot, share=0.3)
    _table["State.view"] = Spec({"player": PLAYER}, target=method(_states(), "view"), snapshot=state_snapshot, share=0.3)

MODULES = {"cribbage": (cribbage, CRIBBAGE, C), "piquet": (piquet, PIQUET, P)}
OTHER = {"cribbage": P.Card, "piquet": C.Card}


# ------------------------------------------------------------------ the newer surface (issue 19)
#
# The bots, the arena and ArenaResult, VectorGame, the PettingZoo envs, the OpenSpiel adapter and the
# Dask functions. Objects that keep state between calls (bots, VectorGame, envs) come as a ``Twin``:
# two made alike and given the same calls before; after a refused call both must still behave
# alike (``Twin.check_unchanged``). Budgets are tiny where a call could run long (ISMCTS at most
# 12 iterations, arenas of at most 6 games, VectorGames of at most 4 games), and garbage that would
# run long (an arena of 2**40 games, a VectorGame of a billion states, 1,000 threads) is redrawn
# (``Param.costly``): the constructors' refusal of huge sizes is tested, not a long run. The Dask
# functions run without a cluster: with ``client=None`` and no default client a valid call stops
# with the "no Dask client" error just before anything is submitted, which the suite counts as
# success (``NOT_SUBMITTED``), so a bad argument must be refused before that.

import random as _random

from cribpiquet import bots, vector
import cribpiquet as _pkg

try:
    from cribpiquet.envs import _aec, cribbage_v0, piquet_v0
except ImportError:  # pragma: no cover - the [rl] extra is missing
    _aec = cribbage_v0 = piquet_v0 = None
try:
    from cribpiquet import distributed as _dist
except ImportError:  # pragma: no cover - the [dask] extra is missing
    _dist = None
try:
    import pyspiel

    from cribpiquet import openspiel as _ospiel
except ImportError:  # pragma: no cover - the [openspiel] extra is missing
    pyspiel = _ospiel = None


class NoCard:
    """No other game's card for the modules without cards."""


def int_value(x: Any) -> int | None:
    """``x`` as an int if it is int-like (int, IntSub, numpy int, ``__index__``), else None."""
    if isinstance(x, (bool, np.bool_)):
        return None
    try:
        return operator.index(x)
    except Exception:  # noqa: BLE001 - an __index__ that raises, or not int-like
        return None


def above(limit: int) -> Callable[[Any], bool]:
    """``Param.costly``: an int-like value above ``limit`` (an arena of 2**40 games runs for ever)."""
    return lambda x: (n := int_value(x)) is not None and n > limit


class Twin:
    """An object under test and its twin, made alike and given the same calls so far."""

    def __init__(self, obj: Any, twin: Any, probe: Callable[[Any], Any], label: str):
        self.obj, self.twin, self.probe, self.label = obj, twin, probe, label

    def check_unchanged(self, label) -> None:
        """After a refused call on ``obj``: it answers the probe as its twin does."""

        def outcome(o):
            try:
                return self.probe(o)
            except BaseException as e:  # noqa: BLE001
                return ("raised", type(e).__name__, str(e)[:300])

        a, b = outcome(self.obj), outcome(self.twin)
        if a != b:
            fail("error changed the object", f"{label} raised, and afterwards the object behaves unlike its twin: {short(a, 300)} != {short(b, 300)}")

    def __repr__(self) -> str:
        return self.label


def twin_method(twins: st.SearchStrategy, name: str):
    return twins.map(lambda t: (getattr(t.obj, name), t))


def to_decision(state, seed: int):
    """``state`` with its chance events sampled up to a decision (or the end)."""
    rng = _random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def decision_states():
    """A state of either game, mostly at a decision (sometimes finished: a ValueError)."""
    return st.tuples(st.one_of(cribbage_states(), piquet_states()), st.integers(0, 2**16)).map(lambda t: to_decision(*t))


PROBE_STATES = [to_decision(playout(make_game(("cribbage", CRIBBAGE_GAMES[0])), 1, 20), 1),
                to_decision(playout(make_game(("piquet", PIQUET_GAMES[2])), 2, 60), 2)]
assert all(s.is_player_node() for s in PROBE_STATES)

# ------------------------------------------------------------------------------------ bots

BOT_NAMES = {name: getattr(bots, name) for name in bots.__all__}
ISMCTS_SMALL = st.builds(
    lambda it, th, ro, rte, ex, sd: functools.partial(bots.ISMCTS, iterations=it, threads=th, rollout=ro, rollout_to_end=rte, exploration=ex, seed=sd),
    st.integers(1, 12), st.integers(1, 2), st.sampled_from(["heuristic", "random"]), st.booleans(), st.sampled_from([0.0, 0.7, 3.0]),
    st.integers(0, 2**64 - 1))
BOT_MAKERS = {
    "Random": st.integers(0, 2**64 - 1).map(lambda s: functools.partial(bots.Random, seed=s)),
    "First": st.just(bots.First),
    "Greedy": st.just(bots.Greedy),
    "ISMCTS": ISMCTS_SMALL,
    "PIMC": st.builds(lambda w, th, ob, inf, sd, bp: functools.partial(bots.PIMC, worlds=w, threads=th, objective=ob, inference=inf, seed=sd,
                                                                       before_play=bp),
                      st.integers(1, 3), st.integers(1, 2), st.sampled_from(["win", "points"]), st.booleans(), st.integers(0, 2**64 - 1),
                      st.sampled_from(["exact", "exact+play", "worlds"])),
}
BOT_MAKERS["Bot"] = st.one_of(*BOT_MAKERS.values())


def bot_probe(bot) -> Any:
    """What a bot answers next (its values show a search's generator and tree, not only its choice)."""
    return [(bot.step(s), sorted(bot.action_values(s).items())) for s in PROBE_STATES] + [repr(bot)]


def bot_twins(cls: str):
    @st.composite
    def make(draw):
        maker = draw(BOT_MAKERS[cls])
        a, b = maker(), maker()
        # Greedy thinks tens of ms at a piquet exchange: its earlier moves are cribbage ones
        for s in draw(st.lists(decision_states(), max_size=1)) if cls != "Greedy" else draw(st.lists(cribbage_states(), max_size=1)):
            for bot in (a, b):
                try:
                    bot.step(s)
                except ValueError:
                    pass
        return Twin(a, b, bot_probe, repr(a))

    return make()


def rebuilt_bot(bot):
    return eval(repr(bot), {"__builtins__": {}}, dict(BOT_NAMES))  # noqa: S307 - our own repr


def post_bot_repr(label, args, result, inst, before):
    """A bot's repr rebuilds an equal bot (the repr contract; bots travel by pickle)."""
    bot = inst.obj if isinstance(inst, Twin) else result
    text = repr(bot)
    try:
        again = rebuilt_bot(bot)
    except Exception as e:  # noqa: BLE001
        fail("repr does not rebuild the bot", f"{label}: {text!r} raised {type(e).__name__}: {short(str(e))}")
    if type(again) is not type(bot) or repr(again) != text:
        fail("repr does not rebuild the bot", f"{label}: {text!r} rebuilds {short(repr(again))}")


def post_bot_step(label, args, result, inst, before):
    s = args["state"]
    if result not in s.legal_actions():
        fail("bot played an illegal action", f"{label} returned {result}, legal {s.legal_actions()}")


def post_bot_values(label, args, result, inst, before):
    s = args["state"]
    if set(result) != set(s.legal_actions()) or not all(math.isfinite(v) for v in result.values()):
        fail("action_values wrong keys", f"{label} returned {short(result)}, legal {s.legal_actions()}")


def post_bot_restart(label, args, result, inst, before):
    """After restart a bot answers as a new bot of its settings."""
    bot = inst.obj
    if bot_probe(bot) != bot_probe(rebuilt_bot(bot)):
        fail("restart does not forget", f"{label}: the bot answers unlike a new {repr(bot)}")


BOT_STATE = A(lambda ctx: decision_states())
BOTS: dict[str, Spec] = {
    "Bot": Spec({}, examples=20),
    "Random": Spec({"seed": I(st.one_of(st.none(), st.integers(-(2**63), 2**64 - 1)))}, post=post_bot_repr, examples=150),
    "First": Spec({}, post=post_bot_repr, examples=20),
    "Greedy": Spec({}, post=post_bot_repr, examples=20),
    "ISMCTS": Spec({"iterations": I(st.integers(1, 2**32 - 1)), "time_limit": A(st.one_of(st.none(), st.floats(1e-6, 1e8), st.sampled_from([1e-10, 5e-324, 1.5e-9]))),
                    "exploration": A(st.floats(0, 100)), "rollout": A(st.sampled_from(["heuristic", "random", "HEURISTIC"])),
                    "threads": I(st.integers(1, 256)), "seed": I(st.one_of(st.none(), st.integers(-(2**63), 2**64 - 1))),
                    "rollout_to_end": A(st.booleans())}, post=post_bot_repr, examples=150),
    "PIMC": Spec({"worlds": I(st.integers(1, 2**32 - 1)), "objective": A(st.sampled_from(["win", "points", "WIN", "score"])),
                  "threads": I(st.integers(1, 256)), "seed": I(st.one_of(st.none(), st.integers(-(2**63), 2**64 - 1))),
                  "time_limit": A(st.one_of(st.none(), st.floats(1e-6, 1e8), st.sampled_from([1e-10, 5e-324]))),
                  "inference": A(st.booleans()), "before_play": A(st.sampled_from(["exact", "exact+play", "worlds", "ismcts", "WORLDS", "all"]))},
                 post=post_bot_repr, examples=100),
}
for _cls in BOT_MAKERS:
    # Greedy thinks tens of ms at a piquet exchange; PIMC solves every world of every action
    _n = 20 if _cls == "Greedy" else 10 if _cls == "PIMC" else 40
    BOTS[f"{_cls}.step"] = Spec({"state": BOT_STATE}, target=twin_method(bot_twins(_cls), "step"), post=post_bot_step, examples=_n)
    BOTS[f"{_cls}.action_values"] = Spec({"state": BOT_STATE}, target=twin_method(bot_twins(_cls), "action_values"), post=post_bot_values,
                                         examples=_n)
    BOTS[f"{_cls}.restart"] = Spec({}, target=twin_method(bot_twins(_cls), "restart"), post=post_bot_restart, examples=15)
    BOTS[f"{_cls}.__repr__"] = Spec({}, target=twin_method(bot_twins(_cls), "__repr__"), post=post_bot_repr, examples=15)

# ----------------------------------------------------------------------------------- the arena

ARENA_GAMES = [("cribbage", ("five-card", 31, False)), ("cribbage", ("six-card", 61, True)), ("cribbage", ("three-player", 31, False)),
               ("cribbage", ("four-player", 31, False)), ("piquet", ("russian", "deal")), ("piquet", ("rubicon", "partiya"))]
arena_games = st.sampled_from(ARENA_GAMES).map(make_game)
ARENA_PLAYER = st.one_of(st.sampled_from(["random", "first", "ismcts:2", " First ", "RANDOM"]),
                         st.integers(0, 9).map(lambda s: bots.Random(seed=s)), st.just(bots.First()),
                         st.integers(1, 3).map(lambda n: bots.ISMCTS(iterations=n)))
# Greedy plays piquet slowly (tens of ms a decision): only in cribbage-sized arenas, by name.
arena_players = st.one_of(st.lists(ARENA_PLAYER, min_size=2, max_size=2), st.lists(ARENA_PLAYER, min_size=1, max_size=4),
                          st.lists(st.sampled_from(["greedy", "random"]), min_size=2, max_size=2).map(tuple))


def post_arena(label, args, result, inst, before):
    n = int_value(args.get("n_games"))
    if not isinstance(result, _pkg.ArenaResult) or result.games != n or len(result.wins) != len(result.players):
        fail("arena result inconsistent", f"{label} returned {short(result)}")
    if sum(result.wins) + result.draws != result.games and args["game"].num_players() == 2:
        fail("arena result inconsistent", f"{label}: wins {result.wins} and draws {result.draws} do not add up to {result.games}")


def _arena_results():
    """Small results to combine: two ranges of each arena game (and other players)."""
    out = {}
    for key in ARENA_GAMES[:2] + ARENA_GAMES[4:5]:
        g = make_game(key)
        for r in [_pkg.arena(g, ["random", "first"], 3, first_game=first, progress=False) for first in (0, 3)] + [
                _pkg.arena(g, ["first", "first"], 2, progress=False)]:
            out[id(r)] = (key, r)
    return out


ARENA_RESULTS = _arena_results()
ARENA_RESULT_LIST = [r for _, r in ARENA_RESULTS.values()]


def post_combine(label, args, result, inst, before):
    parts = [r for r in args["results"]]  # (a BadLen: its __len__ lies)
    keys = {ARENA_RESULTS[id(r)][0] if id(r) in ARENA_RESULTS else None for r in parts}
    if len(keys) > 1:
        fail("combine merged different games", f"{label}: combined results of {sorted(map(str, keys))}")
    if result.games != sum(r.games for r in parts):
        fail("combine miscounted", f"{label}: {result.games} games")


_ONE = ARENA_RESULT_LIST[0]
ARENA: dict[str, Spec] = {
    "arena": Spec({"game": A(arena_games), "players": A(arena_players), "n_games": Param("int", k(st.integers(0, 6)), above(60)),
                   "seed": SEED, "threads": Param("int", k(st.one_of(st.none(), st.integers(1, 2))), above(8)),
                   "progress": A(st.booleans()), "first_game": FIRST_GAME, "record": RECORD, "max_records": MAX_RECORDS},
                  post=post_arena, examples=100),
    "ArenaResult": Spec({f: A(st.just(getattr(_ONE, f))) for f in _pkg.ArenaResult.__dataclass_fields__}, examples=30),
    "ArenaResult.combine": Spec({"results": A(st.lists(st.sampled_from(ARENA_RESULT_LIST), min_size=1, max_size=3))},
                                target=st.just((_pkg.ArenaResult.combine, None)), post=post_combine, examples=120),
}
for _m in ("to_dict", "to_pandas", "to_polars", "plot"):  # data out and the picture (issue 23)
    if hasattr(_pkg.ArenaResult, _m):
        ARENA[f"ArenaResult.{_m}"] = Spec({}, target=st.sampled_from(ARENA_RESULT_LIST).map(lambda r, m=_m: (getattr(r, m), None)),
                                          examples=4 if _m == "plot" else 10)

# The exact play solvers (issue 20): any state (play or not), both objectives, and the Solution.
def _a_play_state() -> Any:
    s = C.Game("five-card").new_initial_state()
    while s.phase != "play" or s.is_chance_node():
        s.apply_action(s.legal_actions()[0])
    return s


_SOLVED = _pkg.solve(_a_play_state())
ARENA["solve"] = Spec({"state": A(lambda ctx: st.one_of(decision_states(), cribbage_states(), piquet_states())),
                       "objective": A(st.sampled_from(["points", "win", "Points", "draw"]))}, examples=80)
ARENA["Solution"] = Spec({}, examples=5)

# OpenSpiel's names (issue 32): load_game from text and/or a dict, and the GameType record.
ARENA["load_game"] = Spec({"name": A(st.sampled_from(["cribbage", "piquet", "cribbage(variant=five-card,target=31)",
                                                       "piquet(rules=rubicon,scope=deal)", "python_cribpiquet_piquet"])),
                           "params": A(st.sampled_from([None, {}]))}, examples=60)
# The batch kernel choice (issue 33): no arguments; garbage arguments are a TypeError.
ARENA["kernel"] = Spec({}, examples=5)
ARENA["available_kernels"] = Spec({}, examples=5)
_GAME_TYPE = C.Game().get_type()
ARENA["GameType"] = Spec({f: A(st.just(getattr(_GAME_TYPE, f))) for f in _pkg.GameType.__dataclass_fields__}, examples=10)
ARENA["GameType.to_dict"] = Spec({}, target=st.just((_GAME_TYPE.to_dict, None)), examples=5)
for _m in ("to_dict",):
    ARENA[f"Solution.{_m}"] = Spec({}, target=st.just((getattr(_SOLVED, _m), None)), examples=5)

# ------------------------------------------------------------------------------------ VectorGame

VECTOR_GAMES = [("cribbage", ("five-card", 31, False)), ("cribbage", ("six-card", None, False)), ("cribbage", ("four-player", 31, False)),
                ("piquet", ("russian", "deal")), ("piquet", ("rubicon", "partiya"))]
vector_games = st.sampled_from(VECTOR_GAMES).map(make_game)
OBSERVATION = A(st.sampled_from(["information_state", "observation", None]))


def vector_probe(v) -> Any:
    out = [v.state(i).serialize() for i in range(len(v))]
    a = v.sample_legal()
    try:
        b = v.step(a)
    except ValueError as e:  # not reset yet: say so, then go on from a reset
        out.append(str(e))
        v.reset()
        b = v.step(v.sample_legal())
    out += [a.tobytes()] + [getattr(b, name).tobytes() for name in ("current_player", "legal_mask", "rewards", "terminated", "returns")]
    out.append(None if b.observation is None else b.observation.tobytes())
    return out


@st.composite
def vector_twins(draw):
    game = draw(vector_games)
    kw = {"seed": draw(st.integers(0, 2**64 - 1)), "threads": draw(st.sampled_from([None, 1, 2])), "observation": draw(OBSERVATION.valid(None)),
          "auto_reset": draw(st.booleans()), "record_history": draw(st.booleans())}
    n = draw(st.integers(1, 4))
    a, b = vector.VectorGame(game, n, **kw), vector.VectorGame(game, n, **kw)
    steps = draw(st.integers(0, 30))
    for v in (a, b):
        if steps:
            v.reset()
        for _ in range(steps):
            v.step(v.sample_legal())
    return Twin(a, b, vector_probe, f"VectorGame({game!r}, {n}, **{kw}) after {steps} steps")


def vector_actions(ctx):
    v = ctx.inst.obj

    @st.composite
    def make(draw):
        rng = _random.Random(draw(st.integers(0, 2**16)))
        acts = []
        for i in range(len(v)):
            s = v.state(i)
            acts.append(-1 if s.is_terminal() or s.is_chance_node() else rng.choice(s.legal_actions()))
        how = draw(st.sampled_from(["list", "tuple", "int64", "int32", "int16", "uint16", "fortran"]))
        if how in ("list", "tuple"):
            return acts if how == "list" else tuple(acts)
        if how == "uint16" and min(acts) < 0:
            how = "int64"
        a = np.array(acts, dtype=how if how != "fortran" else "int64")
        return a if how != "fortran" else np.asfortranarray(np.repeat(a, 2)[::2])

    return make()


BATCH_ARRAYS = ("current_player", "legal_mask", "rewards", "terminated", "returns", "observation")


def post_batch(label, args, result, inst, before):
    v = inst.obj
    n = len(v)
    for name in BATCH_ARRAYS:
        a = getattr(result, name)
        if a is None:
            continue
        if a.shape[0] != n:
            fail("batch shape wrong", f"{label}: {name} has shape {a.shape}, n = {n}")
        try:
            a.setflags(write=True)
        except ValueError:
            continue
        fail("batch view can be made writable", f"{label}: {name}.setflags(write=True) succeeded")


VECTOR_TWINS = vector_twins()
VECTOR: dict[str, Spec] = {
    "VectorGame": Spec({"game": A(vector_games), "n": Param("int", k(st.integers(1, 4)), above(5000)), "seed": SEED,
                        "threads": Param("int", k(st.one_of(st.none(), st.integers(1, 2))), above(8)), "observation": OBSERVATION,
                        "auto_reset": A(st.booleans()), "record_history": A(st.booleans())}, examples=100),
    "VectorGame.reset": Spec({"seed": SEED}, target=twin_method(VECTOR_TWINS, "reset"), post=post_batch, examples=120),
    "VectorGame.step": Spec({"actions": I(vector_actions)}, target=twin_method(VECTOR_TWINS, "step"), post=post_batch, examples=150),
    "VectorGame.sample_legal": Spec({"seed": SEED}, target=twin_method(VECTOR_TWINS, "sample_legal"), examples=100),
    "VectorGame.state": Spec({"i": I(lambda ctx: st.integers(0, len(ctx.inst.obj) - 1))}, target=twin_method(VECTOR_TWINS, "state"), examples=100),
    "Batch": Spec({}, examples=10),
    "Batch.copy": Spec({}, target=VECTOR_TWINS.map(lambda t: (t.obj.reset().copy, None)), examples=20),
}

# ------------------------------------------------------------------------------- PettingZoo envs

ENV_FIELDS = {"render_mode": A(st.sampled_from([None, "ansi"])), "reward": A(st.sampled_from(["returns", "points"])),
              "observation": A(st.sampled_from(["information_state", "observation"]))}
CRIB_ENV = {"variant": A(st.sampled_from(VARIANTS)), "target": I(st.one_of(st.none(), st.sampled_from([31, 61, 121]))), "lurch": A(st.booleans()),
            **ENV_FIELDS}
PIQUET_ENV = {"rules": A(rules_values), "scope": A(st.sampled_from(["deal", "partiya"])), **ENV_FIELDS}


def kwargs_of(fields: dict[str, Param]):
    return lambda ctx: st.fixed_dictionaries({}, optional={name: p.valid(ctx) for name, p in fields.items()})


def env_probe(env) -> Any:
    out = [env.game_state.serialize()] + [repr(getattr(env, name, None)) for name in
                                          ("agent_selection", "agents", "rewards", "_cumulative_rewards", "terminations", "truncations")]
    agent = env.agent_selection
    if agent in env.agents and not env.terminations[agent]:
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
        out += [env.game_state.serialize(), repr(env.rewards)]
    out += [env.observe(a)["observation"].tobytes() for a in env.possible_agents]
    return out


ENV_MAKERS = st.one_of(
    st.fixed_dictionaries({"variant": st.sampled_from(VARIANTS), "target": st.sampled_from([31, None]), "reward": st.sampled_from(["returns", "points"]),
                           "observation": st.sampled_from(["information_state", "observation"])}).map(lambda kw: functools.partial(cribbage_v0.raw_env, **kw)),
    st.fixed_dictionaries({"rules": st.sampled_from(["russian", "rubicon"]), "scope": st.sampled_from(["deal", "partiya"]),
                           "reward": st.sampled_from(["returns", "points"])}).map(lambda kw: functools.partial(piquet_v0.raw_env, **kw)),
) if _aec else st.nothing()


@st.composite
def env_twins(draw):
    maker = draw(ENV_MAKERS)
    seed, steps, play = draw(st.integers(0, 2**32)), draw(st.integers(0, 60)), draw(st.integers(0, 2**16))
    reset = draw(st.integers(0, 9)) > 0
    a, b = maker(), maker()
    for env in (a, b):
        if not reset:
            continue
        env.reset(seed=seed)
        rng = _random.Random(play)
        for _ in range(steps):
            if not env.agents:
                break
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    return Twin(a, b, env_probe, f"{maker.func.__module__}.raw_env(**{maker.keywords})" + (f" after reset({seed}) and {steps} steps" if reset else ""))


def env_action(ctx):
    env = ctx.inst.obj
    agent = getattr(env, "agent_selection", None)
    if agent is None:
        return st.integers(0, 5)
    if agent not in env.agents or env.terminations[agent] or env.truncations[agent]:
        return st.none()
    return st.sampled_from([int(a) for a in np.flatnonzero(env.observe(agent)["action_mask"])])


def env_agent(ctx):
    return st.sampled_from(ctx.inst.obj.possible_agents)


def post_env_step(label, args, result, inst, before):
    a = args.get("action")
    if not (a is None or isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_))):
        fail("non-integer action accepted", f"{label}: action {short(a)} ({type(a).__name__}) accepted")


ENV_TWINS = env_twins()
ENVS: dict[str, Spec] = {}
if _aec is not None:
    ENVS = {
        "cribbage_v0.raw_env": Spec(CRIB_ENV, examples=60),
        "cribbage_v0.env": Spec({"kwargs": A(kwargs_of(CRIB_ENV))}, kw_fields=list(CRIB_ENV), examples=60),
        "piquet_v0.raw_env": Spec(PIQUET_ENV, examples=60),
        "piquet_v0.env": Spec({"kwargs": A(kwargs_of(PIQUET_ENV))}, kw_fields=list(PIQUET_ENV), examples=60),
        "CribpiquetAEC": Spec({"game": A(st.one_of(cgames, pgames)), "name": A(st.sampled_from(["x", "cribbage_v0"])), **ENV_FIELDS}, examples=40),
        "wrap": Spec({"env": A(ENV_TWINS.map(lambda t: t.obj))}, examples=20),
        "CribpiquetAEC.reset": Spec({"seed": SEED, "options": A(st.sampled_from([None, {}]))}, target=twin_method(ENV_TWINS, "reset"), examples=80),
        "CribpiquetAEC.step": Spec({"action": I(env_action)}, target=twin_method(ENV_TWINS, "step"), post=post_env_step, examples=250),
        "CribpiquetAEC.observe": Spec({"agent": A(env_agent)}, target=twin_method(ENV_TWINS, "observe"), examples=80),
        "CribpiquetAEC.observation_space": Spec({"agent": A(env_agent)}, target=twin_method(ENV_TWINS, "observation_space"), examples=40),
        "CribpiquetAEC.action_space": Spec({"agent": A(env_agent)}, target=twin_method(ENV_TWINS, "action_space"), examples=40),
        "CribpiquetAEC.last": Spec({"observe": A(st.booleans())}, target=twin_method(ENV_TWINS, "last"), examples=40),
        "CribpiquetAEC.render": Spec({}, target=twin_method(ENV_TWINS, "render"), examples=20),
        "CribpiquetAEC.close": Spec({}, target=twin_method(ENV_TWINS, "close"), examples=10),
    }
ENV_NAMESPACE = types.SimpleNamespace(cribbage_v0=cribbage_v0, piquet_v0=piquet_v0, CribpiquetAEC=getattr(_aec, "CribpiquetAEC", None),
                                      wrap=getattr(_aec, "wrap", None))

# --------------------------------------------------------------------------------------- OpenSpiel


def _spiel_game(name: str, fields: tuple[str, ...]):
    """``pyspiel.load_game(name, {...})`` as a function of the game's parameters (only those given)."""
    missing = object()

    def load(**params):
        _ospiel.register()
        return pyspiel.load_game(name, {k: v for k, v in params.items() if v is not missing})

    load.__signature__ = inspect.Signature([inspect.Parameter(f, inspect.Parameter.KEYWORD_ONLY, default=missing) for f in fields])
    return load


# pyspiel converts and checks the game parameters itself (its SpielError, or pybind11's RuntimeError
# for an int it cannot hold); what reaches the adapter is typed.
SPIEL_PARAMS = {"variant": A(st.sampled_from(VARIANTS)), "target": A(st.sampled_from([0, 31, 61, 121])), "lurch": A(st.booleans()),
                "rules": A(st.sampled_from(["russian", "rubicon"])), "scope": A(st.sampled_from(["deal", "partiya"]))}


@st.composite
def spiel_states(draw):
    _ospiel.register()
    if draw(st.booleans()):
        game = pyspiel.load_game(_ospiel.CRIBBAGE, {"variant": draw(st.sampled_from(VARIANTS)), "target": 31})
    else:
        game = pyspiel.load_game(_ospiel.PIQUET, {"scope": "deal", "rules": draw(st.sampled_from(["russian", "rubicon"]))})
    s = game.new_initial_state()
    rng = _random.Random(draw(st.integers(0, 2**16)))
    for _ in range(draw(st.integers(0, 60))):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def spiel_player(ctx):
    return st.integers(0, ctx.inst.num_players() - 1)


def spiel_action(ctx):
    s = ctx.inst
    return st.sampled_from(s.legal_actions()) if not s.is_terminal() else st.integers(0, 40)


def spiel_snapshot(s):
    return str(s.cribpiquet_state.serialize())


SPIEL_STATES = spiel_states()
SMALL_GARBAGE = garbage.filter(lambda x: not (isinstance(x, (str, bytes)) and len(x) > 1000))
# pyspiel's own methods (legal_actions, apply_action...) convert their arguments with pybind11 (its
# messages, its bool handling); what the adapter behind them must stand is every int.
SPIEL_INTS = st.one_of(st.sampled_from([x for x in BIG_INTS if abs(x) < 2**300]), st.integers(-5, 2000), st.booleans())


def spiel_method(name: str, *params: str):
    """A pyspiel method (pybind11: no signature to read) as a function of ``params`` (each may be
    left out, as pyspiel allows: the player to move), with its state."""
    missing = object()

    def make(s):
        bound = getattr(s, name)

        def call(*args, **kwargs):
            values = list(args) + [kwargs.pop(p) for p in params[len(args):] if p in kwargs]
            if kwargs:
                raise TypeError(f"{name}() got unexpected arguments {sorted(kwargs)}")
            return bound(*values)

        call.__signature__ = inspect.Signature([inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=missing) for p in params])
        return call, s

    return SPIEL_STATES.map(make)

SAMPLERS = A(st.floats(0, 1, exclude_max=True).map(lambda x: (lambda: x)))
OPENSPIEL: dict[str, Spec] = {}
if _ospiel is not None:
    OPENSPIEL = {
        "register": Spec({}, examples=5),
        # (pyspiel echoes a parameter of the wrong type whole in its own SpielError: no huge strings)
        "load_cribbage": Spec({k: SPIEL_PARAMS[k] for k in ("variant", "target", "lurch")}, target=st.just((_spiel_game(_ospiel.CRIBBAGE, ("variant", "target", "lurch")), None)),
                              garbage=SMALL_GARBAGE, examples=80),
        "load_piquet": Spec({k: SPIEL_PARAMS[k] for k in ("rules", "scope")}, target=st.just((_spiel_game(_ospiel.PIQUET, ("rules", "scope")), None)),
                            garbage=SMALL_GARBAGE, examples=60),
        "State.current_player": Spec({}, target=method(SPIEL_STATES, "current_player"), snapshot=spiel_snapshot, examples=10),
        "State.chance_outcomes": Spec({}, target=method(SPIEL_STATES, "chance_outcomes"), snapshot=spiel_snapshot, examples=15),
        "State.is_terminal": Spec({}, target=method(SPIEL_STATES, "is_terminal"), snapshot=spiel_snapshot, examples=10),
        "State.returns": Spec({}, target=method(SPIEL_STATES, "returns"), snapshot=spiel_snapshot, examples=10),
        "State.legal_actions": Spec({"player": A(spiel_player)}, target=spiel_method("legal_actions", "player"), snapshot=spiel_snapshot, garbage=SPIEL_INTS, examples=40),
        "State.apply_action": Spec({"action": A(spiel_action)}, target=spiel_method("apply_action", "action"), snapshot=spiel_snapshot, garbage=SPIEL_INTS, examples=80),
        "State.action_to_string": Spec({"player": A(spiel_player), "action": A(spiel_action)}, target=spiel_method("action_to_string", "player", "action"),
                                       snapshot=spiel_snapshot, garbage=SPIEL_INTS, examples=40),
        "State.information_state_string": Spec({"player": A(spiel_player)}, target=spiel_method("information_state_string", "player"),
                                               snapshot=spiel_snapshot, garbage=SPIEL_INTS, examples=40),
        "State.information_state_tensor": Spec({"player": A(spiel_player)}, target=spiel_method("information_state_tensor", "player"),
                                               snapshot=spiel_snapshot, garbage=SPIEL_INTS, examples=40),
        "State.observation_tensor": Spec({"player": A(spiel_player)}, target=spiel_method("observation_tensor", "player"),
                                         snapshot=spiel_snapshot, garbage=SPIEL_INTS, examples=40),
        "State.resample_from_infostate": Spec({"player_id": A(spiel_player), "probability_sampler": SAMPLERS},
                                              target=method(SPIEL_STATES, "resample_from_infostate"), snapshot=spiel_snapshot, examples=60),
        "Game.new_initial_state": Spec({}, target=SPIEL_STATES.map(lambda s: (s.get_game().new_initial_state, None)), examples=10),
        "Game.make_py_observer": Spec({"iig_obs_type": A(st.sampled_from([None, pyspiel.IIGObservationType(perfect_recall=True),
                                                                            pyspiel.IIGObservationType(perfect_recall=False)])),
                                       "params": A(st.sampled_from([None, {}]))},
                                      target=SPIEL_STATES.map(lambda s: (s.get_game().make_py_observer, None)), examples=40),
    }
# pyspiel's own checks (a parameter of the wrong type, a player out of range) raise its SpielError.
SPIEL_ALLOWED = (ValueError, TypeError, RuntimeError)  # pyspiel.SpielError is a RuntimeError

# ------------------------------------------------------------------------------------------ Dask

NOT_SUBMITTED = "NOT_SUBMITTED"


def not_submitted(fn):
    """``fn`` with the "no Dask client" error (a valid call, stopped before submitting) as a result."""

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ValueError as e:
            if str(e) == _dist._NO_CLIENT:
                return NOT_SUBMITTED
            raise

    return call


def post_lazy(local):
    """A lazy batch result computes (synchronously, no cluster) to the local function's, or a clean error."""

    def post(label, args, result, inst, before):
        try:
            got = result.compute(scheduler="synchronous")
        except (ValueError, TypeError) as e:
            if len(str(e)) > MAX_MESSAGE:
                fail("huge error message", f"{label}.compute(): {len(str(e))} characters")
            return
        except BaseException as e:  # noqa: BLE001
            fail(f"compute raised {type(e).__name__}", f"{label}.compute(): {short(str(e), 300)}")
        values = [np.asarray(x) for x in args.values() if isinstance(x, np.ndarray)]
        rules = {"rules": args["rules"]} if "rules" in args else {}
        crib = {"crib": args["crib"]} if "crib" in args else {}
        try:
            expected = local(*values, **crib, **rules) if local is not C.score_hand_batch else local(values[0], values[1], **crib)
        except (ValueError, TypeError):
            return
        if not np.array_equal(got, expected):
            fail("distributed batch differs from the local one", f"{label}: {short(got)} != {short(expected)}")

    return post


CLIENT = A(st.none())
DIST: dict[str, Spec] = {}
if _dist is not None:
    DIST = {
        "simulate": Spec({"game": A(st.one_of(cgames, pgames)), "n_games": I(st.integers(0, 10**9)), "players": A(players_names), "seed": SEED,
                          "client": CLIENT, "chunk_games": I(st.integers(1, 10**6))}, examples=80),
        "arena": Spec({"game": A(arena_games), "players": A(arena_players), "n_games": I(st.integers(0, 10**9)), "seed": SEED, "client": CLIENT,
                       "chunk_games": I(st.one_of(st.none(), st.integers(1, 100)))}, examples=80),
        "discard_tables": Spec({"variant": A(st.just("five-card")), "flushes": A(st.booleans()),
                                "model": A(st.sampled_from(["conditioned", "thrown-only", "THROWN_ONLY", "exact", 5])),
                                "max_iterations": I(st.integers(0, 50)), "tolerance": A(st.floats(0, 1)), "client": CLIENT,
                                "ranges": I(st.one_of(st.none(), st.integers(1, 100)))}, examples=60),
        "score_hand_batch": Spec({"hands": A(cribbage_arrays([(3, 4), (2, 4), (0, 4)])), "starters": A(cribbage_arrays([(3,), (2,), (0,)])),
                                  "crib": A(st.booleans())}, post=post_lazy(C.score_hand_batch), examples=60),
        "peg_points_batch": Spec({"sequences": A(cribbage_arrays([(2, 5), (1, 13), (0, 5)]))}, post=post_lazy(C.peg_points_batch), examples=80),
        "score_declarations_batch": Spec({"elder": A(piquet_arrays([(2, 12), (0, 12)])), "dealer": A(piquet_arrays([(2, 12), (0, 12)])),
                                          "rules": A(rules_values)}, post=post_lazy(P.score_declarations_batch), examples=80),
    }
    for _name, _spec in DIST.items():
        _spec.target = st.just((not_submitted(getattr(_dist, _name)), None))

SURFACE = {
    "bots": (bots, BOTS, None),
    "arena": (_pkg, ARENA, None),
    "vector": (vector, VECTOR, None),
    "envs": (ENV_NAMESPACE, ENVS, None),
    "openspiel": (_ospiel, OPENSPIEL, None),
    "distributed": (_dist, DIST, None),
}
for _modname, (_mod, _table, _) in SURFACE.items():
    if _mod is not None:
        MODULES[_modname] = (_mod, _table, None)
# An env called out of order (step or last before reset) raises RuntimeError, as its docs say.
ALLOWED_BY_MODULE = {"openspiel": SPIEL_ALLOWED, "envs": (ValueError, TypeError, RuntimeError)}


def resolve(mod, qualname: str):
    obj = mod
    for part in qualname.split("."):
        if not hasattr(obj, part):
            return None
        obj = getattr(obj, part)
    return obj


def public_callables(mod) -> list[str]:
    """Every public callable of ``mod``: functions and classes of ``__all__`` and their methods."""
    names = []
    for name in mod.__all__:
        obj = getattr(mod, name)
        if not callable(obj):
            continue
        names.append(name)
        if isinstance(obj, type):
            for attr in dir(obj):
                if attr.startswith("_"):
                    continue
                if callable(getattr(obj, attr)):
                    names.append(f"{name}.{attr}")
    return names


SIGNATURE_SLACK = {"Rules.replace"}  # **changes


def test_every_public_callable_is_fuzzed():
    missing = []
    for modname in ("cribbage", "piquet"):
        mod, table, _ = MODULES[modname]
        for name in public_callables(mod):
            spec = table.get(name)
            if spec is None:
                missing.append(f"{modname}.{name}")
                continue
            target = resolve(mod, name)
            try:
                sig = inspect.signature(target)
            except (TypeError, ValueError):
                continue
            for p in sig.parameters.values():
                if p.name == "self" or p.kind == p.VAR_KEYWORD and name in SIGNATURE_SLACK:
                    continue
                if p.name not in spec.params:
                    missing.append(f"{modname}.{name}({p.name})")
    assert not missing, f"not covered by the fuzz table: {missing}"


def _own_functions(mod) -> list[str]:
    return [n for n, f in vars(mod).items() if not n.startswith("_") and inspect.isfunction(f) and f.__module__ == mod.__name__]


def _own_methods(cls) -> list[str]:
    return [n for k in cls.__mro__ if k.__module__.startswith("cribpiquet") for n, f in vars(k).items() if not n.startswith("_") and callable(f)]


def surface_callables() -> dict[str, list[tuple[str, Any]]]:
    """Every public callable of the newer surface (issue 19), with the function whose parameters
    the fuzz must cover: {module: [(qualified name, function)]}."""
    out: dict[str, list[tuple[str, Any]]] = {}
    names = []
    for name in bots.__all__:  # every bot class: constructor, methods, repr
        cls = getattr(bots, name)
        names += [(name, cls)] + [(f"{name}.{m}", getattr(cls, m)) for m in dir(cls) if not m.startswith("_") and callable(getattr(cls, m))]
        names.append((f"{name}.__repr__", cls.__repr__))
    out["bots"] = names
    out["arena"] = [(n, resolve(_pkg, n)) for n in public_callables(_pkg)]
    out["vector"] = [(n, resolve(vector, n)) for n in public_callables(vector)]
    if _aec is not None:
        out["envs"] = ([(f"{m.__name__.rsplit('.', 1)[1]}.{n}", getattr(m, n)) for m in (cribbage_v0, piquet_v0) for n in _own_functions(m)]
                       + [(n, getattr(_aec, n)) for n in _own_functions(_aec)]
                       + [("CribpiquetAEC", _aec.CribpiquetAEC)]
                       + [(f"CribpiquetAEC.{n}", getattr(_aec.CribpiquetAEC, n)) for n in _own_methods(_aec.CribpiquetAEC)])
    if _ospiel is not None:
        _ospiel.register()
        state = pyspiel.load_game(_ospiel.CRIBBAGE).new_initial_state()
        names = [(n, resolve(_ospiel, n)) for n in public_callables(_ospiel)]
        for short_name, fn in (("load_cribbage", _ospiel.CRIBBAGE), ("load_piquet", _ospiel.PIQUET)):
            spec_params = pyspiel.load_game(fn).get_type().parameter_specification
            names.append((short_name, inspect.Signature([inspect.Parameter(p, inspect.Parameter.KEYWORD_ONLY) for p in spec_params])))
        names += [(f"State.{n}", getattr(type(state), n)) for n in _own_methods(type(state))]
        names += [(f"Game.{n}", getattr(type(state.get_game()), n)) for n in _own_methods(type(state.get_game()))]
        # the pyspiel methods that call into the adapter (legal_actions -> _legal_actions, ...)
        names += [(f"State.{n}", None) for n in ("legal_actions", "apply_action", "action_to_string", "information_state_string",
                                                   "information_state_tensor", "observation_tensor")]
        out["openspiel"] = names
    if _dist is not None:
        out["distributed"] = [(n, resolve(_dist, n)) for n in public_callables(_dist)]
    return out


def test_every_public_callable_of_the_newer_surface_is_fuzzed():
    """Issue 19: bots, arena, vector, envs, openspiel, distributed and the analyses (the analyses
    are in the cribbage / piquet tables, checked above), with every parameter."""
    missing = []
    found = surface_callables()
    assert set(found) == {m for m in SURFACE if SURFACE[m][0] is not None}
    for modname, names in found.items():
        table = MODULES[modname][1]
        for name, fn in names:
            spec = table.get(name)
            if spec is None:
                missing.append(f"{modname}.{name}")
                continue
            try:
                sig = fn if isinstance(fn, inspect.Signature) else inspect.signature(fn)
            except (TypeError, ValueError):
                continue
            for p in sig.parameters.values():
                if p.name not in ("self", "args") and p.name not in spec.params:
                    missing.append(f"{modname}.{name}({p.name})")
    assert not missing, f"not covered by the fuzz table: {missing}"
    for name in ("analyze_discard", "analyze_discard_batch", "discard_tables", "DiscardTables.pass_sums", "DiscardTables.advance"):
        assert name in CRIBBAGE
    for name in ("analyze_exchange", "ExchangeAnalysis.table", "ExchangeAnalysis.row", "ExchangeAnalysis.sorted_rows", "ExchangeAnalysis.plot"):
        assert name in PIQUET


def test_twin_probes_see_a_change():
    """The after-error check can fail: a bot, a VectorGame or an env given one more successful call
    than its twin answers the probe differently."""
    pairs = [Twin(bots.Random(seed=4), bots.Random(seed=4), bot_probe, "Random"),
             Twin(bots.ISMCTS(iterations=8, seed=2), bots.ISMCTS(iterations=8, seed=2), bot_probe, "ISMCTS")]
    v, w = vector.VectorGame(make_game(VECTOR_GAMES[0]), 2, seed=3), vector.VectorGame(make_game(VECTOR_GAMES[0]), 2, seed=3)
    v.reset()
    w.reset()
    pairs.append(Twin(v, w, vector_probe, "VectorGame"))
    changes = [lambda t: t.obj.step(PROBE_STATES[0]), lambda t: t.obj.step(PROBE_STATES[1]), lambda t: t.obj.step(t.obj.sample_legal())]
    pairs.append(Twin(vector.VectorGame(make_game(VECTOR_GAMES[3]), 3), vector.VectorGame(make_game(VECTOR_GAMES[3]), 3), vector_probe, "new"))
    changes.append(lambda t: t.obj.reset())
    if _aec is not None:
        a, b = cribbage_v0.raw_env(), cribbage_v0.raw_env()
        a.reset(seed=5)
        b.reset(seed=5)
        pairs.append(Twin(a, b, env_probe, "env"))
        changes.append(lambda t: t.obj.step(int(np.flatnonzero(t.obj.observe(t.obj.agent_selection)["action_mask"])[0])))
    for pair, change in zip(pairs, changes):
        pair.check_unchanged("alike")
        change(pair)
        with pytest.raises(FuzzFailure, match="error changed the object"):
            pair.check_unchanged(f"{pair.label} after one more call")


def test_pending_items_are_named():
    """Every PENDING entry names its item and branch (the lead removes them at merge)."""
    for item, (reason, callables, kinds) in PENDING.items():
        assert reason.startswith((f"issue 19 {item}, fixed on branch ", "found by the fuzz, in ")), reason
        assert callables and kinds


# --------------------------------------------------------------------------------- the check

ALLOWED = (ValueError, TypeError)


def check_outcome(label, call: Callable[[], Any], args: dict, kinds: dict, other_card: type, snapshot, inst, extra_args: bool,
                  bad: list[str] = (), allowed: tuple[type, ...] = ALLOWED) -> Any:
    before = snapshot(inst) if snapshot else None
    values = list(args.values())
    error = None
    if TRACE:  # the last line names the call that crashed the process
        with open(TRACE, "w") as out:
            out.write(label + "\n")
    try:
        result = call()
    except BaseException as e:  # noqa: BLE001 - PanicException is a BaseException
        error, result = e, None
    bounded = [b for x in values for b in _walk(x) if isinstance(b, Bounded)]
    if any(b.exceeded for b in bounded) or isinstance(error, ReadTooMuch):
        fail("infinite iterable read forever", f"{label}: read more than {LIMIT} items of {[b.label for b in bounded]}; "
             + (f"raised {type(error).__name__}" if error is not None else f"returned {short(result)}"))
    if error is not None:
        e = error
        if isinstance(e, UserIterError) and any(contains(x, lambda y: isinstance(y, Raising)) for x in values):
            pass  # the caller's own generator failed: propagating that is right
        elif not isinstance(e, Exception):
            fail(f"panic {type(e).__name__}", f"{label} raised {type(e).__name__}: {short(str(e), 300)}")
        elif not isinstance(e, allowed):
            fail(f"raised {type(e).__name__}", f"{label} raised {type(e).__name__}: {short(str(e), 300)}")
        msg = str(e)
        check_message_numbers(label, args, msg)
        if type(e) is TypeError and not extra_args and len(bad) == 1 and kinds.get(bad[0]) == "int":
            name = bad[0]
            v = args.get(name)
            about_it = short(v, 20)[:20] in msg or type(v).__name__ in msg  # the message is about this argument
            others = [a for o in args if o != name for a in (o, *o.split("_or_"))]
            if any(msg.startswith(o + " ") for o in others) and not msg.startswith(name + " "):
                about_it = False  # e.g. action_to_string(None, 3): "player must be an int", about the first
            names = [name, name.replace("_", " "), *name.split("_or_")]  # player_or_action: "player" or "action"
            if about_it and not any(n in msg for n in names):
                fail("TypeError does not name the argument", f"{label}: {name}={short(args.get(name))} refused with {msg[:200]!r}")
        if len(msg) > MAX_MESSAGE:
            fail("huge error message", f"{label} raised {type(e).__name__} with a {len(msg)}-character message: {msg[:150]}...")
        if snapshot:
            after = snapshot(inst)
            if after != before:
                fail("error changed the object", f"{label} raised {type(e).__name__} ({short(msg)}) but changed the object:\n{short(before, 600)}\n{short(after, 600)}")
        return False, None
    if extra_args:
        fail("extra argument accepted", f"{label} accepted an extra / unknown / missing argument and returned {short(result)}")
    for name, x in args.items():
        kind = kinds.get(name, "any")
        if kind in ("int", "card", "cards") and contains(x, is_bool):
            fail("bool accepted", f"{label}: {name}={short(x)} (a bool) accepted, returned {short(result)}")
        if kind in ("card", "cards") and contains(x, lambda y: isinstance(y, other_card)):
            fail("other game's Card accepted", f"{label}: {name}={short(x)} (the other game's Card) accepted, returned {short(result)}")
    return True, result


_CLAMPED = re.compile(r"(?<![.=\d-])(-?9223372036854775807|-9223372036854775808|18446744073709551615)(?![.\d])")


_RANGES = re.compile(r"range\([^)]*\)|-?\d+\.\.=?-?(?:2\*\*\d+(?:-1)?|\d+)")


def check_message_numbers(label: str, args: dict, msg: str) -> None:
    """An error about a huge int names the int given, not a clamped or rounded stand-in."""
    huge = [x for x in args.values() if type(x) is int and abs(x) >= 2**31]
    if len(huge) != 1:
        return
    v = huge[0]
    others = " ".join(short(x, 400) for x in args.values() if x is not v)
    ranges_removed = _RANGES.sub("", msg)  # "range(0, 9223372036854775807)", "0..=2**64-1" state a limit
    if "2**64" in ranges_removed and abs(v) < 2**64 and "2**" not in others:
        fail("message misreports a huge int", f"{label}: given {v}, the message says {msg[:300]!r}")
    m = _CLAMPED.search(ranges_removed)
    if m and int(m.group(1)) != v and str(v) not in msg:
        fail("message misreports a huge int", f"{label}: given {v}, the message says {msg[:300]!r}")


class Case:
    """One drawn call; its repr is the (truncated) call, so hypothesis never prints huge values."""

    def __init__(self, label, thunk, args, kinds, inst, extra):
        self.label, self.thunk, self.args, self.kinds, self.inst, self.extra = label, thunk, args, kinds, inst, extra

    def __repr__(self) -> str:
        return str(self.label)


POISON_INT = st.one_of(st.booleans(), st.sampled_from(BIG_INTS), st.integers(-(2**70), 2**70).map(IntSub),
                       st.sampled_from([1.0, math.nan, "3", None, Indexable(2**64), Indexable(True)]))
POISON_CARD = st.one_of(st.booleans(), other_cards, st.sampled_from(BIG_INTS), st.sampled_from(["1H", "5X", "", "5H 5D", "10♥♥"]),
                        st.sampled_from(HUGE_STRINGS), st.none(), st.floats(), st.integers(0, 51).map(IntSub))


@st.composite
def poisoned(draw, param: Param, ctx: Ctx):
    """A valid value with one bad part: for an int or a card a bad scalar (bool, huge, the other
    game's Card...), for a group of cards the valid group with one card replaced."""
    if param.kind == "int":
        return draw(POISON_INT)
    if param.kind == "card":
        return draw(POISON_CARD)
    if param.kind == "cards":
        value = draw(param.valid(ctx))
        if value is None or isinstance(value, str):
            value = [] if value is None else value.split(" ")
        items = list(value)
        bad = draw(POISON_CARD)
        if items and draw(st.integers(0, 3)):
            items[draw(st.integers(0, len(items) - 1))] = bad
        else:
            items.append(bad)
        return items
    if draw(st.booleans()):
        value = draw(param.valid(ctx))
        if isinstance(value, (tuple, list)):
            return BadLen(value)  # the right items, a lying __len__
    return draw(garbage)


@st.composite
def calls(draw, modname: str, qualname: str):
    """(label, thunk, args, kinds, inst, extra) for one call of ``qualname`` with mixed values."""
    mod, table, game = MODULES[modname]
    spec = table[qualname]
    if spec.target is None:
        fn, inst = resolve(mod, qualname), None
    else:
        fn, inst = draw(spec.target)
    ctx = Ctx(draw(st.permutations(range(52))), draw(st.permutations(range(32))), draw(st.integers(0, 7)), inst,
              readme=spec.readme_deal and draw(st.integers(0, 3)) == 0)
    sig = inspect.signature(fn)
    pos, kw, args, kinds = [], {}, {}, {}
    extra = False
    by_name = False  # once a positional parameter is skipped, the rest go by name
    bad: list[str] = []  # the parameters given garbage
    for p in sig.parameters.values():
        if p.name == "self":
            continue
        param = spec.params.get(p.name, A(garbage))
        if p.kind == p.VAR_KEYWORD:
            changes = dict(draw(param.valid(ctx)))
            for key, val in list(changes.items()):
                if isinstance(val, tuple) and draw(st.integers(0, 3)) == 0:
                    changes[key] = BadLen(val)  # the right items, a lying __len__
            for key in draw(st.lists(st.sampled_from(sorted(spec.kw_fields or RULE_FIELDS) + ["nonsense", ""]), max_size=3)):
                changes[key] = draw(garbage)
            if draw(st.integers(0, 9)) == 0:
                changes["nonsense"] = 1
                extra = True
            kw.update(changes)
            args.update(changes)
            continue
        mode = draw(st.sampled_from(["valid", "valid", "garbage", "garbage", "poison", "omit"]))
        has_default = p.default is not p.empty
        if mode == "omit":
            if has_default:
                by_name = True
                continue
            if draw(st.booleans()):
                mode = "valid"
            else:
                extra = True  # a missing required argument must be refused; "extra" = must not succeed
                by_name = True
                continue
        if mode != "valid":
            bad.append(p.name)
        if mode == "poison" and spec.garbage is None:
            value = draw(poisoned(param, ctx).filter(lambda x: not (param.costly and param.costly(x))))
        elif mode == "valid":
            value = draw(param.valid(ctx))
        else:
            value = draw((garbage if spec.garbage is None else spec.garbage).filter(lambda x: not (param.costly and param.costly(x))))
        args[p.name] = value
        kinds[p.name] = param.kind
        if p.kind == p.KEYWORD_ONLY or (has_default and draw(st.booleans())):
            kw[p.name] = value
            by_name = True
        elif by_name:  # after a keyword or a skipped parameter: pass by name
            kw[p.name] = value
        else:
            pos.append(value)
    if draw(st.integers(0, 19)) == 0:
        extra = True
        positional = [p for p in sig.parameters.values() if p.name != "self" and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if len(pos) == len(positional) and draw(st.booleans()):
            pos.append(draw(garbage))  # one more positional argument than the signature has
        else:
            kw["no_such_argument"] = draw(garbage)
    where = inst.serialize() if isinstance(inst, (C.State, P.State)) else (repr(inst) if isinstance(inst, Twin) else None)

    def make_label() -> str:
        text = f"{modname}.{qualname}(" + ", ".join([short(x, 80) for x in pos] + [f"{a}={short(x, 80)}" for a, x in kw.items()]) + ")"
        return text + (f" on {short(where, 400)}" if where is not None else "")

    label = Lazy(make_label)
    case = Case(label, (lambda: fn(*pos, **kw)), args, kinds, inst, extra)
    case.bad = bad
    return case


def _fuzz_ids():
    out = []
    for modname, (mod, table, _) in MODULES.items():
        for name, spec in table.items():
            out.append(pytest.param(modname, name, id=f"{modname}.{name}"))
    return out


TOTAL_SHARE = sum(spec.share for m in ("cribbage", "piquet") for spec in MODULES[m][1].values())
# The discard entries (issue 10) come on top: the budgets of the callables before them stay as they were.
TOTAL_SHARE -= sum(spec.share for spec in DISCARD_SPECS.values())
CALL_SHARE = 0.78  # the rest goes to deserialize_state and pickle


def examples_share(spec: Spec) -> float:
    """The share of the module's examples one callable gets: the scoring modules' callables split
    CALL_SHARE by their ``share``; the newer surface (issue 19) has fixed counts on top."""
    if spec.examples is not None:
        return spec.examples / DEFAULT_TOTAL
    return CALL_SHARE * spec.share / TOTAL_SHARE


@pytest.mark.parametrize(("modname", "qualname"), _fuzz_ids())
def test_fuzz_call(modname, qualname, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a garbage text given as a file name (simulate's record) lands here
    mod, table, _ = MODULES[modname]
    if table[qualname].target is None and resolve(mod, qualname) is None:
        pytest.skip(f"{modname}.{qualname} does not exist in this build")
    spec = table[qualname]

    @budget(examples_share(spec))
    @given(case=calls(modname, qualname))
    @collecting(f"{modname}.{qualname}")
    def run(case):
        try:
            check_case(modname, qualname, spec, case)
        except FuzzFailure as f:
            item = pending_item(modname, qualname, case, f)
            if item is None:
                raise
            PENDING_SEEN.setdefault(item, 0)
            PENDING_SEEN[item] += 1

    run()


CALLS: dict[str, int] = {}  # calls made, by callable (written to CRIBPIQUET_FUZZ_COUNTS=FILE at the end)


def check_case(modname: str, qualname: str, spec: Spec, case: Case) -> None:
    CALLS[f"{modname}.{qualname}"] = CALLS.get(f"{modname}.{qualname}", 0) + 1
    label, thunk, args, kinds, inst, extra = case.label, case.thunk, case.args, case.kinds, case.inst, case.extra
    before = tuple(inst.totals) if isinstance(inst, P.Partie) else None
    ok, result = check_outcome(label, thunk, args, kinds, OTHER.get(modname, NoCard), spec.snapshot, inst, extra, case.bad,
                               allowed=ALLOWED_BY_MODULE.get(modname, ALLOWED))
    if ok and spec.post:
        spec.post(label, args, result, inst, before)
    if not ok and isinstance(inst, Twin):
        inst.check_unchanged(label)
    if isinstance(inst, (C.State, P.State)):
        text = inst.serialize()
        try:
            again = inst.get_game().deserialize_state(text).serialize()
        except BaseException as e:  # noqa: BLE001
            fail("state no longer deserializes", f"after {label}: {type(e).__name__}: {short(str(e))}")
        if again != text:
            fail("serialize round trip", f"after {label}: {text} != {again}")
    if isinstance(result, (C.State, P.State)):
        text = result.serialize()
        if result.get_game().deserialize_state(text).serialize() != text:
            fail("serialize round trip", f"result of {label}: {text}")


@pytest.mark.parametrize("modname", ["cribbage", "piquet"])
def test_properties_never_raise(modname):
    """Every property of every result / engine object reads without raising."""
    instances = {
        "cribbage": st.one_of(breakdowns(), peg_breakdowns(), cribbage_states(), cgames, st.integers(0, 51).map(C.Card)),
        "piquet": st.one_of(declarations_objs(), declaration_scores(), game_scores(), piquet_states(), pgames, partiyas(), parties(),
                            st.integers(0, 31).map(P.Card), st.sampled_from([P.Rules.russian(), P.Rules.rubicon()])),
    }[modname]

    @budget(0.01)
    @given(obj=instances)
    @collecting(f"{modname} properties")
    def run(obj):
        todo = [obj]
        seen = 0
        while todo and seen < 200:
            o = todo.pop()
            seen += 1
            for name in dir(type(o)):
                if name.startswith("_") or not isinstance(inspect.getattr_static(type(o), name), (property, types.GetSetDescriptorType)):
                    continue
                try:
                    value = getattr(o, name)
                except BaseException as e:  # noqa: BLE001
                    fail(f"property raised {type(e).__name__}", f"{type(o).__qualname__}.{name} on {short(o)}: {short(str(e))}")
                for y in _walk(value):
                    if type(y).__module__.startswith("cribpiquet") and not isinstance(y, (C.Card, P.Card)):
                        todo.append(y)

    run()


def surface_objects():
    """One of each object of the newer surface, in a few states: bots, arena results (also
    combined), VectorGames and their batches (fresh, stepped, finished), envs (new, reset,
    finished)."""
    out = [maker() for maker in (bots.First, bots.Greedy, bots.Random, functools.partial(bots.ISMCTS, iterations=3))]
    out += ARENA_RESULT_LIST + [_pkg.ArenaResult.combine(ARENA_RESULT_LIST[:2])]
    for key in VECTOR_GAMES:
        for obs in ("information_state", None):
            v = vector.VectorGame(make_game(key), 2, seed=1, observation=obs, auto_reset=False)
            out += [v, v.reset()]
            for _ in range(400):
                b = v.step(v.sample_legal())
            out += [b, b.copy()]
    if _aec is not None:
        for make in (cribbage_v0.raw_env, piquet_v0.raw_env):
            env = make()
            out.append(env)
            env = make(reward="points")
            env.reset(seed=3)
            out.append(env)
    return out


def test_surface_properties_never_raise():
    """Every property of the newer surface's objects reads without raising, and str / repr work."""
    problems = []
    for obj in surface_objects():
        names = [n for n in dir(type(obj)) if not n.startswith("_")
                 and isinstance(inspect.getattr_static(type(obj), n, None), (property, types.GetSetDescriptorType, functools.cached_property))]
        for name in names:
            try:
                getattr(obj, name)
            except BaseException as e:  # noqa: BLE001
                problems.append(f"{type(obj).__name__}.{name}: {type(e).__name__}: {short(str(e))}")
        for f in (str, repr):
            try:
                f(obj)
            except BaseException as e:  # noqa: BLE001
                problems.append(f"{f.__name__}({type(obj).__name__}): {type(e).__name__}: {short(str(e))}")
    assert not problems, problems


# ------------------------------------------------------------------------ deserialize_state


def all_games():
    return [make_game(("cribbage", k)) for k in CRIBBAGE_GAMES] + [make_game(("piquet", k)) for k in PIQUET_GAMES]


@st.composite
def mutated_states(draw):
    source = draw(states(max_steps=draw(st.sampled_from([0, 5, 30, 120, 400]))))
    text = draw(mutate_text(source.serialize()))
    same = source.get_game()
    if draw(st.integers(0, 9)) == 0:
        target = draw(st.sampled_from(all_games()))  # another variant / the other game
    else:
        target = same
    return target, text


@budget(0.14)
@given(case=mutated_states(), seed=st.integers(0, 2**16))
@collecting("deserialize_state")
def test_fuzz_deserialize_state(case, seed):
    game, text = case
    label = f"{game!r}.deserialize_state({text!r})"
    try:
        state = game.deserialize_state(text)
    except BaseException as e:  # noqa: BLE001
        if not isinstance(e, Exception):
            fail(f"panic {type(e).__name__}", f"{label}: {short(str(e), 300)}")
        if not isinstance(e, ALLOWED):
            fail(f"deserialize raised {type(e).__name__}", f"{label}: {short(str(e), 300)}")
        if len(str(e)) > MAX_MESSAGE:
            fail("huge error message", f"{label}: {len(str(e))} characters")
        return
    if isinstance(state, C.State) and state.phase == "cut" and (state.deals != 0 or any(state.scores())):
        # the cut for the first deal happens once, before anything else (docs/rules/cribbage.md)
        fail("inconsistent state accepted", f"{label}: phase cut with deals={state.deals}, scores={state.scores()}")
    try:
        check_playable(state, seed, label)
    except AcceptedStateFailure as e:
        fail("accepted state misbehaves", str(e))


# ------------------------------------------------------------------------------------ pickle


class Reduced:
    """Pickles as ``fn(*args)``: lets the suite mutate the arguments of our ``__reduce__``."""

    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return self.fn, self.args


@st.composite
def pickle_objects(draw):
    kind = draw(st.sampled_from(["state", "state", "game", "rules", "card", "cards", "mixed", "restore-args"]))
    if kind == "state":
        return draw(states(max_steps=300))
    if kind == "game":
        return make_game(draw(st.sampled_from([("cribbage", k) for k in CRIBBAGE_GAMES] + [("piquet", k) for k in PIQUET_GAMES])))
    if kind == "rules":
        return draw(rules_values.filter(lambda r: r is not None).map(lambda r: P.Rules(r) if isinstance(r, str) else r))
    if kind == "card":
        return draw(st.one_of(st.integers(0, 51).map(C.Card), st.integers(0, 31).map(P.Card)))
    if kind == "cards":
        return C.parse_cards("5H 5D 5S JC") + P.parse_cards("AH KH")
    if kind == "mixed":
        s = draw(states(max_steps=100))
        return {"state": s, "game": s.get_game(), "legal": [] if s.is_terminal() else s.legal_actions(), "returns": s.returns()}
    # the arguments of State._restore, mutated structurally (text mutated, history changed)
    s = draw(states(max_steps=200))
    fn, args = s.__reduce__()
    game, text, history = args
    text = draw(st.one_of(st.just(text), mutate_text(text)))
    history = list(history)
    how = draw(st.sampled_from(["keep", "drop", "append", "change", "reverse", "bool", "huge"]))
    if history and how == "drop":
        history.pop(draw(st.integers(0, len(history) - 1)))
    elif how == "append":
        history.append(draw(st.integers(-2, 1400)))
    elif history and how == "change":
        history[draw(st.integers(0, len(history) - 1))] = draw(st.integers(-2, 1400))
    elif how == "reverse":
        history.reverse()
    elif history and how == "bool":
        history[0] = True
    elif how == "huge":
        history.append(2**64)
    if draw(st.integers(0, 5)) == 0:
        game = draw(st.sampled_from(all_games()))
    return Reduced(fn, (game, text, history))


def check_unpickled(obj, seed: int, label: str) -> None:
    for y in _walk(obj if not isinstance(obj, dict) else list(obj.values())):
        if isinstance(y, (C.State, P.State)):
            check_playable(y, seed, label)
        elif isinstance(y, (C.Game, P.Game)):
            check_playable(y.new_initial_state(), seed, label)
        elif isinstance(y, P.Rules):
            check_playable(P.Game(y, scope="deal").new_initial_state(), seed, label)
        elif isinstance(y, (C.Card, P.Card)):
            limit = 52 if isinstance(y, C.Card) else 32
            if not (0 <= y.id < limit and type(y)(y.id) == y and type(y)(str(y)) == y):
                fail("unpickled card inconsistent", f"{label}: {y!r} id {y.id}")


@budget(0.08)
@given(obj=pickle_objects(), protocol=st.integers(0, pickle.HIGHEST_PROTOCOL), data=st.data(), seed=st.integers(0, 2**16))
@collecting("pickle")
def test_fuzz_pickle(obj, protocol, data, seed):
    blob = pickle.dumps(obj, protocol=protocol)
    if not isinstance(obj, Reduced) or data.draw(st.booleans()):
        blob = data.draw(mutate_bytes(blob))
    label = f"restricted pickle.loads({short(blob, 400)})"
    try:
        loaded = restricted_loads(blob)
    except OurCodeFailure as e:
        fail(f"unpickle: {str(e).split(' raised ')[-1].split(':')[0]}", f"{label}: {e}")
    except BaseException as e:  # noqa: BLE001
        if not isinstance(e, Exception):
            fail(f"panic {type(e).__name__}", f"{label}: {short(str(e), 300)}")
        return  # pickle's own complaint about a broken stream, or our clean ValueError / TypeError
    try:
        check_unpickled(loaded, seed, label)
    except AcceptedStateFailure as e:
        fail("accepted unpickled state misbehaves", str(e))
