"""``docs/api.md``: every supported public name, generated from the declared surface (``harness._SURFACE``).

    uv run python -m tools.api_docs docs/api.md

One section per module of the surface, one row per name: its kind, its signature (functions and
classes), and the first line of what it documents (its docstring, or the ``#:`` comment above a
constant or type alias). ``tests/test_api_docs.py`` fails when the committed page differs from
what this prints, when a declared name says nothing, and when a module of the surface defines or
re-exports a public name it does not declare.
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

from harness.outputs import write_text

__all__ = ["declared", "describe", "public_names", "render", "undeclared"]

_SUPPORT = (
    "These names are the harness's supported interface: they keep their meaning between releases, "
    "and a change to one is in CHANGELOG.md. Anything else in the package is internal and may "
    "change in any release, whatever its name (a module or a name without a leading underscore "
    "is not public for that). `tests/test_public_api.py` holds `examples/` and "
    "docs/writing-a-target.md to this surface."
)


def _surface() -> dict[str, tuple[str, ...] | None]:
    import harness

    return dict(harness._SURFACE)  # pyright: ignore[reportPrivateUsage]


def declared(module: str) -> tuple[str, ...]:
    """The names ``module`` offers adopters: its entry in the surface, else its ``__all__``."""
    names = _surface()[module]
    if names is not None:
        return names
    loaded = import_module(module)
    return tuple(sorted(loaded.__all__))


def _source(module: ModuleType) -> ast.Module | None:
    path = getattr(module, "__file__", None)
    return ast.parse(Path(path).read_text(encoding="utf-8")) if path else None


def _comment_above(module: ModuleType, name: str) -> str:
    """The ``#:`` comment above ``name``'s assignment in ``module``'s source, or above the import
    that brings it in (a facade may say what a re-exported name is); else the imported module's."""
    path = getattr(module, "__file__", None)
    tree = _source(module)
    if path is None or tree is None:
        return ""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            found = any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
        elif isinstance(node, ast.AnnAssign):
            found = isinstance(node.target, ast.Name) and node.target.id == name
        elif isinstance(node, ast.ImportFrom):
            found = any((a.asname or a.name) == name for a in node.names)
        else:
            found = False
        if not found:
            continue
        above: list[str] = []
        n = node.lineno - 2
        while n >= 0 and lines[n].lstrip().startswith("#:"):
            above.insert(0, lines[n].lstrip()[2:].strip())
            n -= 1
        if above:
            return " ".join(above).replace("``", "`")
        if isinstance(node, ast.ImportFrom) and node.module:
            return _comment_above(import_module(node.module), name)
        return ""
    return ""


def _first_paragraph(doc: str | None) -> str:
    """A docstring's first paragraph on one line, its reST literals as Markdown code."""
    if not doc:
        return ""
    paragraph: list[str] = []
    for line in inspect.cleandoc(doc).splitlines():
        if not line.strip():
            break
        paragraph.append(line.strip())
    return " ".join(paragraph).replace("``", "`")


def _defining_module(module: str, name: str) -> ModuleType:
    """Where a name the facade loads on first use (its ``_EXPORTS``) comes from; else the facade."""
    exports: dict[str, str] = getattr(import_module(module), "_EXPORTS", {})
    return import_module(exports.get(name, module))


def describe(module: str, name: str) -> tuple[str, str, str]:
    """``(kind, signature, summary)`` of one declared name."""
    value = getattr(import_module(module), name)
    if isinstance(value, ModuleType):
        return "module", "", _first_paragraph(value.__doc__)
    if inspect.isclass(value):
        doc = value.__dict__.get("__doc__")
        if isinstance(doc, str) and doc.startswith(f"{value.__name__}("):  # a dataclass's generated one
            doc = None
        kind = "exception" if issubclass(value, BaseException) else "class"
        return kind, "", _first_paragraph(doc if isinstance(doc, str) else None)
    if _is_alias(value):
        return "type", "", _comment_above(_defining_module(module, name), name)
    function = inspect.unwrap(value) if callable(value) else None
    if inspect.isfunction(function):
        return "function", _signature(name, value), _first_paragraph(function.__doc__)
    kind = "strategy" if type(value).__name__.endswith("Strategy") else "constant"
    return kind, "", _comment_above(_defining_module(module, name), name)


class _Shown:
    """A signature element shown as written: an annotation without quotes, a default by its name."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _signature(name: str, function: Any) -> str:
    """``name(params) -> return`` as the source spells it: never a default's ``<function ... at 0x...>``."""
    signature = inspect.signature(function)
    params: list[inspect.Parameter] = []
    for param in signature.parameters.values():
        if isinstance(param.annotation, str):
            param = param.replace(annotation=_Shown(param.annotation))
        default = param.default
        if default is not param.empty and not isinstance(default, str | int | float | bool | None):
            param = param.replace(default=_Shown(getattr(default, "__name__", type(default).__name__)))
        params.append(param)
    returns = signature.return_annotation
    if returns is not signature.empty:  # a composite strategy's is an object: shown as written
        shown = returns if isinstance(returns, str) else inspect.formatannotation(returns)
        shown = re.sub(r"ForwardRef\('([^']*)'\)", r"\1", shown.replace("hypothesis.strategies.", ""))
        returns = _Shown(shown)
    return f"{name}{signature.replace(parameters=params, return_annotation=returns)}"


def _is_alias(value: Any) -> bool:
    """A type alias (``Literal[...]``, a union, ``X | None``, a generic alias), not a class or a value."""
    return not inspect.isclass(value) and (
        getattr(value, "__origin__", None) is not None
        or type(value).__name__ in {"UnionType", "TypeAliasType"}
    )


def public_names(source: str) -> set[str]:
    """The public names a module's source defines or re-exports (PEP 484: ``from m import x as x``)."""
    found: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
        elif isinstance(node, ast.Assign):
            found |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
        elif isinstance(node, ast.ImportFrom | ast.Import):
            found |= {a.name for a in node.names if a.asname is not None and a.asname == a.name}
    return {n for n in found if not n.startswith("_")}


def undeclared(module: str) -> list[str]:
    """Public names ``module`` defines or re-exports that the surface does not declare."""
    path = getattr(import_module(module), "__file__", None)
    source = Path(path).read_text(encoding="utf-8") if path else ""
    return sorted(public_names(source) - set(declared(module)))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render() -> str:
    lines = [
        "# The public API",
        "",
        "Generated from `harness._SURFACE` by `python -m tools.api_docs docs/api.md`;",
        "`tests/test_api_docs.py` fails when this page is stale.",
        "",
        _SUPPORT,
    ]
    for module in _surface():
        loaded = import_module(module)
        lines += ["", f"## `{module}`", "", _first_paragraph(loaded.__doc__), ""]
        lines += ["| name | kind | what |", "| --- | --- | --- |"]
        for name in sorted(declared(module), key=lambda n: (n.lower(), n)):
            kind, signature, summary = describe(module, name)
            shown = f"`{_cell(signature)}`" if signature else f"`{name}`"
            lines.append(f"| {shown} | {kind} | {_cell(summary)} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # with a path: written atomically (an interrupted run never truncates it)
    if len(sys.argv) > 1:
        write_text(sys.argv[1], render())
    else:
        sys.stdout.write(render())
