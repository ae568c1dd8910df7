"""A bot's settings are one table in the core (`rust/bots/registry.rs`): it drives each class's
constructor (by position and by name), its repr and its pickle. These tests hold the table, the
class's text signature and the hand-written stub (`_core.pyi`) to the same settings."""

from __future__ import annotations

import ast
import inspect
import pickle
from pathlib import Path

import pytest

import cribpiquet
from cribpiquet import _core, bots

STUB = Path(cribpiquet.__file__).with_name("_core.pyi")
CLASSES = [getattr(bots, name) for name in ("Random", "First", "Greedy", "ISMCTS", "PIMC")]
TYPES = {"int": (int,), "float": (float,), "str": (str,), "bool": (bool,), "float | None": (float, type(None))}


def stub_new(name: str) -> list[tuple[str, str, str]]:
    """(name, annotation, default) of each argument of the stub's ``__new__`` of class ``name``."""
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    new = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__new__")
    args = new.args.args[1:]
    defaults = new.args.defaults
    assert len(defaults) == len(args), f"{name}: every setting has a default"
    return [(a.arg, ast.unparse(a.annotation), ast.unparse(d)) for a, d in zip(args, defaults)]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_the_stub_the_signature_and_the_table_agree(cls: type) -> None:
    stub = stub_new(cls.__name__)
    # The table's defaults (the default bot's repr) are the stub's, in its order and names.
    assert repr(cls()) == cls.__name__ + "(" + ", ".join(f"{n}={d}" for n, _, d in stub) + ")"
    assert repr(cls()) == cls.__name__ + cls.__text_signature__
    assert list(inspect.signature(cls).parameters) == [n for n, _, _ in stub]
    # Each default value (as the pickle gives it back) has the stub's type.
    for (name, annotation, _), value in zip(stub, cls().__reduce__()[1], strict=True):
        assert isinstance(value, TYPES[annotation]), (cls.__name__, name, annotation, value)
        assert not (isinstance(value, bool) and annotation == "int"), name
    # The bot's name in the registry makes the same bot.
    assert repr(_core.bot_from_name(cls().name.split(":")[0])) == repr(cls())


def test_settings_by_position_and_by_name() -> None:
    by_position = bots.ISMCTS(50, None, 0.5, "random", 2, 7, True)
    by_name = bots.ISMCTS(iterations=50, exploration=0.5, rollout="random", threads=2, seed=7, rollout_to_end=True)
    mixed = bots.ISMCTS(50, exploration=0.5, rollout="random", threads=2, seed=7, rollout_to_end=True)
    assert repr(by_position) == repr(by_name) == repr(mixed)
    assert repr(by_name) == (
        "ISMCTS(iterations=50, time_limit=None, exploration=0.5, rollout='random', threads=2, seed=7, rollout_to_end=True)"
    )
    assert repr(pickle.loads(pickle.dumps(by_position))) == repr(by_position)
    assert repr(bots.PIMC(20, "points")) == (
        "PIMC(worlds=20, objective='points', threads=1, seed=0, time_limit=None, inference=True, before_play='exact')"
    )
    assert repr(bots.Random(5)) == "Random(seed=5)"


def test_a_call_the_table_does_not_fit_is_a_type_error_as_python_words_it() -> None:
    with pytest.raises(TypeError, match=r"^ISMCTS.__new__\(\) takes from 0 to 7 positional arguments but 8 were given$"):
        bots.ISMCTS(1, None, 0.7, "random", 1, 0, False, 9)
    with pytest.raises(TypeError, match=r"^First.__new__\(\) takes 0 positional arguments but 1 was given$"):
        bots.First(1)
    with pytest.raises(TypeError, match=r"^PIMC.__new__\(\) got multiple values for argument 'worlds'$"):
        bots.PIMC(10, worlds=20)
    with pytest.raises(TypeError, match=r"^Random.__new__\(\) got an unexpected keyword argument 'iterations'$"):
        bots.Random(iterations=3)
    with pytest.raises(ValueError, match=r"worlds must be in range\(1, 4294967296\), got 0"):
        bots.PIMC(0)
