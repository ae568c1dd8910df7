"""A griffe extension for the API reference (mkdocs.yml), which reads the package by inspection
(the native classes have no Python source):

* **types**: the native functions' and methods' parameter and return types come from the
  hand-written stub ``python/cribpiquet/_core.pyi`` (inspection sees only names and defaults);
  the stub's private aliases are written out, its generic bases' type variables and ``Self``
  replaced, and its class names written as the public modules name them (``CribbageState`` is
  ``State`` on the cribbage page, ``cribbage.State`` elsewhere);
* **constants**: a module or class attribute documented by a ``#:`` comment above its
  assignment gets that comment as its docstring (inspection would show ``int``'s or
  ``tuple``'s own docstring);
* **cross-references**: the docstrings' Sphinx roles (``:func:`score_hand```, ``:meth:`State.returns```,
  ``:class:`~cribpiquet.cribbage.Card```, ``:mod:`cribpiquet.piquet```) become autorefs links
  (``[`score_hand`][cribpiquet.cribbage.score_hand]``), the name looked up from the docstring's
  object outwards (its class, its module, the package). A name found nowhere is still written as
  a link, so ``mkdocs build --strict`` fails on it (autorefs warns of an unresolved reference).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
from pathlib import Path
from typing import Any, Optional

import griffe

PACKAGE = "cribpiquet"
PUBLIC_MODULES = ["cribpiquet", "cribpiquet.cribbage", "cribpiquet.piquet", "cribpiquet.bots", "cribpiquet.vector"]
ROLE = re.compile(r":(func|meth|attr|class|mod|data|exc|obj):`(~?)([A-Za-z_][\w.]*)(\(\))?`")
IDENT = re.compile(r"\b[A-Za-z_]\w*\b")


# ------------------------------------------------------------------------------- the stub

class _StubClass:
    def __init__(self, node: ast.ClassDef) -> None:
        self.name = node.name
        self.methods: dict[str, ast.FunctionDef] = {}
        self.properties: dict[str, str] = {}
        self.bases: list[tuple[str, list[str]]] = []  # (base name, its type arguments)
        self.type_params: list[str] = []  # Generic[_S] -> ["_S"]
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef):
                if any(isinstance(d, ast.Name) and d.id == "property" for d in stmt.decorator_list):
                    if stmt.returns is not None:
                        self.properties[stmt.name] = ast.unparse(stmt.returns)
                else:
                    self.methods[stmt.name] = stmt
        for base in node.bases:
            if isinstance(base, ast.Subscript) and isinstance(base.value, ast.Name):
                args = base.slice.elts if isinstance(base.slice, ast.Tuple) else [base.slice]
                texts = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else ast.unparse(a)
                         for a in args]
                if base.value.id == "Generic":
                    self.type_params = texts
                else:
                    self.bases.append((base.value.id, texts))
            elif isinstance(base, ast.Name):
                self.bases.append((base.id, []))


class Stub:
    """The stub ``_core.pyi``: its functions, classes and private type aliases."""

    def __init__(self, path: Path) -> None:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        self.functions: dict[str, ast.FunctionDef] = {}
        self.classes: dict[str, _StubClass] = {}
        self.aliases: dict[str, str] = {}
        for stmt in tree.body:
            if isinstance(stmt, ast.FunctionDef):
                self.functions[stmt.name] = stmt
            elif isinstance(stmt, ast.ClassDef):
                self.classes[stmt.name] = _StubClass(stmt)
            elif (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                  and stmt.targets[0].id.startswith("_") and not _is_typevar(stmt.value)):
                self.aliases[stmt.targets[0].id] = _readable(stmt.value)

    def lookup(self, cls: str, name: str, kind: str) -> Optional[tuple[Any, dict[str, str]]]:
        """The method (``kind="method"``) or property return text ``name`` of stub class ``cls``
        or of its bases, with the type variables bound on the way."""
        todo: list[tuple[str, dict[str, str]]] = [(cls, {})]
        while todo:
            current, bound = todo.pop(0)
            c = self.classes.get(current)
            if c is None:
                continue
            found = c.methods.get(name) if kind == "method" else c.properties.get(name)
            if found is not None:
                return found, bound
            for base, args in c.bases:
                b = self.classes.get(base)
                if b is not None:
                    todo.append((base, {**bound, **dict(zip(b.type_params, args))}))
        return None


def _is_typevar(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "TypeVar"


def _readable(node: ast.expr) -> str:
    """An annotation as text, ``Union[a, b]`` and ``Optional[a]`` written ``a | b``, ``a | None``."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in ("Union", "Optional"):
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        parts = [_readable(a) for a in args] + (["None"] if node.value.id == "Optional" else [])
        return " | ".join(parts)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value  # a forward reference
    if isinstance(node, ast.Subscript):
        return f"{_readable(node.value)}[{_readable(node.slice)}]"
    if isinstance(node, ast.Tuple):
        return ", ".join(_readable(e) for e in node.elts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return f"{_readable(node.left)} | {_readable(node.right)}"
    return ast.unparse(node)


# ------------------------------------------------------------------------ the extension

class ApiReference(griffe.Extension):
    """Stub types, ``#:`` docstrings and cross-references for the API pages."""

    def __init__(self) -> None:
        super().__init__()
        root = Path(__file__).resolve().parents[2]
        self.stub = Stub(root / "python" / PACKAGE / "_core.pyi")
        core = importlib.import_module(f"{PACKAGE}._core")
        # the native objects by identity -> their name in _core (and so in the stub)
        self.core_names = {id(v): k for k, v in vars(core).items() if not k.startswith("__")}
        # stub class name -> (public module, public name)
        self.public: dict[str, tuple[str, str]] = {}
        for mod_name in PUBLIC_MODULES:
            mod = importlib.import_module(mod_name)
            for name in getattr(mod, "__all__", []):
                stub_name = self.core_names.get(id(getattr(mod, name, None)))
                if stub_name is not None and stub_name not in self.public:
                    self.public[stub_name] = (mod_name, name)
        # the runtime objects the public modules export -> the first such module (its page)
        self.page_of: dict[int, str] = {}
        for mod_name in PUBLIC_MODULES:
            mod = importlib.import_module(mod_name)
            for name in getattr(mod, "__all__", []):
                self.page_of.setdefault(id(getattr(mod, name, None)), mod_name)
        self._comments: dict[str, dict[str, str]] = {}

    # ---------------------------------------------------------------- types from the stub

    def _type_text(self, text: str, module: str, bound: dict[str, str], owner: Optional[str]) -> str:
        for _ in range(5):  # aliases within aliases
            new = IDENT.sub(lambda m: self.stub.aliases.get(m.group(0), m.group(0)), text)
            if new == text:
                break
            text = new

        def bind(m: re.Match) -> str:
            word = m.group(0)
            if word == "Self" and owner is not None:
                return owner
            return bound.get(word, word)

        def public(m: re.Match) -> str:
            word = m.group(0)
            if m.start() > 0 and m.string[m.start() - 1] == ".":
                return word  # an attribute (np.bool_), not a name
            if word in self.public:
                pub_mod, pub_name = self.public[word]
                return pub_name if pub_mod == module else f"{pub_mod.removeprefix(PACKAGE + '.')}.{pub_name}"
            return word

        text = IDENT.sub(bind, text)  # Self and the type variables name stub classes
        text = IDENT.sub(public, text)  # one pass: the stub's class names as the pages name them
        return text.replace("npt.NDArray", "NDArray").replace("np.", "numpy.")

    def _apply(self, func: griffe.Function, stub: ast.FunctionDef, bound: dict[str, str], owner: Optional[str],
               page: Optional[str] = None) -> None:
        module = page or func.module.path
        args = stub.args
        annotated = {a.arg: a.annotation for a in [*args.posonlyargs, *args.args, *args.kwonlyargs] if a.annotation}
        if args.vararg is not None and args.vararg.annotation is not None:
            annotated[args.vararg.arg] = args.vararg.annotation
        if args.kwarg is not None and args.kwarg.annotation is not None:
            annotated[args.kwarg.arg] = args.kwarg.annotation
        for param in func.parameters:
            node = annotated.get(param.name)
            if node is not None and param.annotation is None:
                param.annotation = self._type_text(_readable(node), module, bound, owner)
        if stub.returns is not None and func.returns is None and func.name not in ("__init__", "__new__"):
            func.returns = self._type_text(_readable(stub.returns), module, bound, owner)

    def on_function_instance(self, *, node: Any, func: griffe.Function, agent: Any, **kwargs: Any) -> None:
        if not isinstance(node, griffe.ObjectNode):
            return
        runtime = node.obj
        page = self.page_of.get(id(runtime))
        wrapper_return = None
        if hasattr(runtime, "__wrapped__"):  # a Python wrapper of a native function (simulate)
            wrapper_return = inspect.get_annotations(runtime).get("return")
            runtime = runtime.__wrapped__
        parent = node.parent.obj if node.parent is not None else None
        if inspect.isclass(parent):
            cls = self.core_names.get(id(parent))
            found = self.stub.lookup(cls, func.name, "method") if cls else None
            if found is not None:
                self._apply(func, found[0], found[1], cls)
        else:
            stub = self.stub.functions.get(self.core_names.get(id(runtime), ""))
            if stub is not None:
                self._apply(func, stub, {}, None, page or self.page_of.get(id(runtime)))
        if isinstance(wrapper_return, str):
            func.returns = wrapper_return

    # ------------------------------------------------------ attributes: types and comments

    def _comments_of(self, source: Any) -> dict[str, str]:
        """``{qualified attribute name: its #: comment}`` of a module's source file, following
        ``from .x import NAME`` to the module that assigns it."""
        try:
            path = inspect.getsourcefile(source)
        except TypeError:
            return {}
        if path is None or not path.endswith(".py"):
            return {}
        if path in self._comments:
            return self._comments[path]
        self._comments[path] = found = {}
        text = Path(path).read_text(encoding="utf-8")
        lines = text.splitlines()
        tree = ast.parse(text)

        def scan(body: list[ast.stmt], prefix: str) -> None:
            for stmt in body:
                if isinstance(stmt, ast.ClassDef):
                    scan(stmt.body, f"{prefix}{stmt.name}.")
                target = None
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    target = stmt.target.id
                elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                    target = stmt.targets[0].id
                if target is None:
                    continue
                comment: list[str] = []
                i = stmt.lineno - 2
                while i >= 0 and lines[i].strip().startswith("#:"):
                    comment.insert(0, lines[i].strip()[2:].strip())
                    i -= 1
                if comment:
                    found[prefix + target] = " ".join(comment)

        scan(tree.body, "")
        if inspect.ismodule(source):
            for stmt in tree.body:
                if isinstance(stmt, ast.ImportFrom) and stmt.level == 1 and stmt.module:
                    other = sys.modules.get(f"{source.__package__}.{stmt.module}")
                    if other is None:
                        continue
                    theirs = self._comments_of(other)
                    for alias in stmt.names:
                        if alias.name in theirs:
                            found.setdefault(alias.asname or alias.name, theirs[alias.name])
        return found

    def on_attribute_instance(self, *, node: Any, attr: griffe.Attribute, agent: Any, **kwargs: Any) -> None:
        if not isinstance(node, griffe.ObjectNode) or node.parent is None:
            return
        parent = node.parent.obj
        if inspect.ismodule(parent):
            comment = self._comments_of(parent).get(attr.name)
        elif inspect.isclass(parent):
            module = sys.modules.get(getattr(parent, "__module__", ""), None)
            comment = self._comments_of(module).get(f"{parent.__qualname__}.{attr.name}") if module else None
            cls = self.core_names.get(id(parent))
            if cls is not None and attr.annotation is None:
                found = self.stub.lookup(cls, attr.name, "property")
                if found is not None:
                    attr.annotation = self._type_text(found[0], attr.module.path, found[1], cls)
        else:
            return
        # a plain value (an int, a str, a tuple) inspected shows its type's help
        builtin_doc = type(node.obj).__doc__ if type(node.obj).__module__ == "builtins" else None
        if not isinstance(builtin_doc, str):
            builtin_doc = None
        if comment:
            attr.docstring = griffe.Docstring(comment, parent=attr)
        elif attr.docstring is not None and builtin_doc and attr.docstring.value.strip() == inspect.cleandoc(builtin_doc):
            attr.docstring = None  # int's or tuple's own help is no description of this value

    # -------------------------------------------------------------- cross-references

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        collection = loader.modules_collection
        seen: set[str] = set()

        def exists(path: str) -> bool:
            try:
                collection[path]
            except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError, ValueError):
                return False
            return True

        def resolve(target: str, obj: griffe.Object, public: str) -> str:
            # the scopes from the docstring's object outwards, first as the page shows it
            # (``public``: where it is documented, e.g. cribpiquet.cribbage.State for the native
            # class), then where it is defined
            scopes = []
            for path, is_class in ((public, obj.is_class), (obj.path, obj.is_class)):
                parent = path.rsplit(".", 1)[0]
                if is_class:
                    scopes.append(path)
                if obj.parent is not None and obj.parent.is_class:
                    scopes.append(parent)
                scopes.append(parent if not obj.is_module else path)
            scopes += [obj.module.path, pkg.path]
            for scope in scopes:
                if exists(f"{scope}.{target}"):
                    return f"{scope}.{target}"
            if exists(target):
                return target
            # unresolved: written as a link anyway, so that the strict build names it
            return f"{obj.module.path}.{target}"

        def visit(obj: griffe.Object | griffe.Alias, public: str) -> None:
            if obj.is_alias:  # a re-export: the object, as documented at the alias's place
                try:
                    target = obj.final_target
                except (griffe.AliasResolutionError, griffe.CyclicAliasError):
                    return  # an outside name (numpy, typing)
                if not target.path.startswith(pkg.path + "."):
                    return
                visit(target, public)
                return
            if obj.path in seen:
                return
            seen.add(obj.path)
            if obj.docstring is not None and ":" in obj.docstring.value:
                def link(m: re.Match) -> str:
                    _, tilde, target, call = m.groups()
                    shown = (target.rsplit(".", 1)[-1] if tilde else target) + (call or "")
                    return f"[`{shown}`][{resolve(target, obj, public)}]"

                obj.docstring.value = ROLE.sub(link, obj.docstring.value)
            # public names first, so that a re-exported object is read where its page shows it
            for name, member in sorted(obj.members.items(), key=lambda kv: kv[0].startswith("_")):
                visit(member, f"{public}.{name}")

        visit(pkg, pkg.path)
