"""The import rules: an allowlist per package over the import graph, and the judges' fence.

- ``MAY_IMPORT``: each top-level module or package of ``harness/`` names what it may import
  (besides itself); every import of every module (function-level and ``TYPE_CHECKING``
  imports too, read from the source by AST) must be on its package's list. The lists form
  layers (the graph of the table itself has no cycle), and a package missing from the table
  fails the test, so a new package states its place. docs/architecture.md shows the same
  table (``tests/test_architecture.py`` holds it to this one).
- The fence, transitively: a judge (invariants, oracles, emitters, body rules, the traffic
  reader, the importer, and the kit, which states the output rules the judges enforce) may
  *reach* only the base, the registry of accepted differences, the target lookup
  (``harness.targets``: entry points, never a static import of a target) and the judges.
  One that reached the reference adapters or stream parsers, or anything that wraps them
  (audit, replay, the CLI, recording), could agree with a reference bug. The contract
  reaches only the model and params; ``harness.accepted`` only what a judge may.
- A provider's folder never imports a sibling provider; the neutral machinery no provider.
- No import cycle anywhere in ``harness/``.

"Reaches" is transitive: a judge that imports an allowed module which imports the reference
side fails as well. Every rule has mutation cases: a planted import that breaks it must fail.
"""

from __future__ import annotations

import ast
import re
import shutil
from collections.abc import Container, Iterator, Mapping
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "harness"

#: What each top-level module or package of ``harness/`` may import besides itself: package
#: names (the package and everything under it), or ``=name`` for that one module alone.
MAY_IMPORT: dict[str, tuple[str, ...]] = {
    # the base: the model and what every side reads
    "model": (),
    "params": ("model",),
    "inputs": (),
    "progress": (),
    "workers": (),
    "data_paths": (),
    "secret_rules": (),
    "codec": ("inputs", "model", "params"),
    "contract": ("model", "params"),
    "outputs": ("contract",),
    "accepted": ("contract", "model", "params"),
    # the reference side
    "mapping": ("contract", "model", "params"),
    "stream": ("contract", "model"),
    "providers": ("contract", "inputs", "mapping", "model", "params", "stream"),
    # the generators of inputs
    "scenarios": ("codec", "contract", "model", "outputs", "params"),
    "strategies": ("contract", "model", "params"),
    # the judges (fenced, below)
    "emit": ("contract", "model"),
    "oracles": ("accepted", "contract", "model", "outputs"),
    "rules": ("contract", "oracles"),
    "importer": ("contract", "model", "oracles", "params"),
    "traffic": ("contract", "inputs", "oracles", "outputs", "progress", "rules", "workers"),
    "invariants": ("codec", "contract", "emit", "model", "oracles", "params", "rules", "workers", "=targets"),
    "kit": ("codec", "contract", "model", "params", "traffic"),
    # what wraps the reference side and the judges
    "targets": ("contract", "kit", "model", "params", "providers", "stream"),
    "loop": ("accepted", "contract", "importer", "model", "providers"),
    "importcheck": ("accepted", "contract", "importer", "loop", "rules", "targets", "traffic"),
    "crosscheck": ("contract", "model", "providers", "stream"),
    "record": (
        *("codec", "contract", "inputs", "model", "outputs", "params", "progress"),
        *("providers", "secret_rules", "stream", "targets"),
    ),
    "audit": (
        *("codec", "contract", "data_paths", "inputs", "model", "outputs", "params", "progress"),
        *("invariants", "kit", "providers", "scenarios", "strategies", "targets"),
    ),
    "testing": (
        *("contract", "data_paths", "model", "outputs", "params"),
        *("audit", "kit", "record", "scenarios", "strategies", "targets"),
    ),
    "cli": (
        *("codec", "contract", "inputs", "model", "outputs", "params", "progress"),
        *("audit", "importcheck", "importer", "invariants", "kit", "oracles", "providers"),
        *("record", "rules", "scenarios", "stream", "targets", "traffic", "workers"),
    ),
    # ``harness/__init__.py``: the public names, each loaded on first use
    "__init__": (
        *("codec", "contract", "model", "params"),
        *("invariants", "kit", "oracles", "providers", "rules", "scenarios", "strategies", "targets"),
    ),
}
#: Packages that judge targets, and the kit, held to their fence.
JUDGES = ("invariants", "oracles", "emit", "rules", "traffic", "importer")
FENCED = (*JUDGES, "kit")
#: What a judge may reach, at any depth, beside the judges themselves.
JUDGE_MAY_REACH = (
    *(
        f"harness.{p}"
        for p in ("contract", "model", "params", "codec", "inputs", "outputs", "progress", "workers")
    ),
    "harness.accepted",  # the registry of accepted differences: data and pure predicates
    *(f"harness.{j}" for j in FENCED),
)
#: Exact modules (not packages) a judge may reach.
JUDGE_MAY_REACH_EXACTLY = ("harness.targets",)
#: What the contract may reach: the canonical model, call params and itself.
CONTRACT_MAY_REACH = ("harness.model", "harness.params", "harness.contract")
#: The registry of accepted differences and what it may reach: what a judge may (no adapter,
#: parser or replay), since the oracles read it.
ALLOWLIST_MODULES = ("harness.accepted",)
ALLOWLIST_MAY_REACH = JUDGE_MAY_REACH

Graph = Mapping[str, frozenset[str]]


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(p for p in parts if p != "__init__")


def imports(
    source: str, module: str, is_package: bool = False, modules: Container[str] = ()
) -> Iterator[str]:
    """Every absolute module name a source file imports, at any depth (function-level imports too).

    With ``modules`` (the names that are modules), ``from a.b import c`` lands in ``a.b.c``
    when that is a module, and in ``a.b`` otherwise (a name defined there).
    """
    package = module if is_package else module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                name = f"{base}.{node.module}" if node.module else base
            elif node.module:
                name = node.module
            else:
                continue
            submodules = [f"{name}.{a.name}" for a in node.names if f"{name}.{a.name}" in modules]
            yield from submodules
            if len(submodules) < len(node.names):
                yield name


def _resolve(name: str, modules: Container[str]) -> str | None:
    """The module a dotted import name lands in (``a.b.func`` -> ``a.b``), or None outside ``harness``."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def module_graph(root: Path = ROOT, extra: Mapping[str, str] | None = None) -> dict[str, frozenset[str]]:
    """module -> the harness modules it imports; ``extra`` adds (or replaces) modules by source."""
    graph = dict(_graph_of(root))
    if extra:
        names = {*graph, *extra}
        for name, source in extra.items():
            found = {_resolve(i, names) for i in imports(source, name, False, names)}
            graph[name] = frozenset(m for m in found if m is not None and m != name)
    return graph


@cache
def _graph_of(root: Path) -> Mapping[str, frozenset[str]]:
    sources = {
        module_name(p, root): (p.read_text(encoding="utf-8"), p.name == "__init__.py")
        for p in root.rglob("*.py")
    }
    graph: dict[str, frozenset[str]] = {}
    for name, (source, is_package) in sources.items():
        found = {_resolve(i, sources) for i in imports(source, name, is_package, sources)}
        graph[name] = frozenset(m for m in found if m is not None and m != name)
    return graph


def _allowed(module: str, prefixes: tuple[str, ...], exact: tuple[str, ...] = ()) -> bool:
    return module in exact or any(module == p or module.startswith(p + ".") for p in prefixes)


def reach_violations(
    graph: Graph, start: tuple[str, ...], may_reach: tuple[str, ...], exactly: tuple[str, ...] = ()
) -> list[str]:
    """Modules reached from ``start`` (transitively) outside the allowlist, each as ``importer -> module``."""
    todo = [m for m in graph if _allowed(m, start)]
    seen: set[str] = set()
    found: list[str] = []
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        for target in sorted(graph.get(module, frozenset())):
            if _allowed(target, may_reach, exactly):
                todo.append(target)
            else:
                found.append(f"{module} -> {target}")
    return sorted(set(found))


def judge_violations(graph: Graph, judge: str) -> list[str]:
    return reach_violations(graph, (f"harness.{judge}",), JUDGE_MAY_REACH, JUDGE_MAY_REACH_EXACTLY)


def cycles(graph: Graph) -> list[list[str]]:
    """The import cycles (strongly connected components of two or more modules), Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, frozenset())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def package_of(module: str) -> str:
    """``harness.audit.run`` -> ``audit``; ``harness`` (the package's own ``__init__``) -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _may_import(package: str, target: str) -> bool:
    if package_of(target) == package:
        return True
    for allowed in MAY_IMPORT[package]:
        if allowed.startswith("="):
            if target == f"harness.{allowed[1:]}":
                return True
        elif package_of(target) == allowed:
            return True
    return False


def allowlist_violations(graph: Graph, package: str) -> list[str]:
    """Imports of ``package``'s modules that its ``MAY_IMPORT`` list does not hold, as ``importer -> module``."""
    return sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if package_of(module) == package
        for target in targets
        if not _may_import(package, target)
    )


def _table_cycles() -> list[list[str]]:
    graph = {p: frozenset(a.lstrip("=") for a in allowed) for p, allowed in MAY_IMPORT.items()}
    return cycles(graph)


def test_every_package_is_in_the_allowlist_table() -> None:
    assert {package_of(m) for m in module_graph()} == set(MAY_IMPORT)


def test_a_package_missing_from_the_table_is_refused() -> None:
    graph = module_graph(extra={"harness.newcomer.thing": "from harness.model import TextPart"})
    assert {package_of(m) for m in graph} - set(MAY_IMPORT) == {"newcomer"}


def test_docs_architecture_shows_this_table() -> None:
    """The "Layers" table of docs/architecture.md is ``MAY_IMPORT``, row for row."""
    page = (ROOT.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    layers = page.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    shown = {
        found.group(1): sorted(a.strip() for a in found.group(2).split(",") if a.strip())
        for line in layers.splitlines()
        if (found := re.match(r"\| `([a-z_]+)` \|\s*(.*?)\s*\|$", line))
    }
    assert shown == {package: sorted(allowed) for package, allowed in MAY_IMPORT.items()}


def test_the_allowlist_table_is_layered() -> None:
    """No package may import one that may import it back: the table is a stack of layers."""
    assert _table_cycles() == []
    for package, allowed in MAY_IMPORT.items():
        assert {a.lstrip("=") for a in allowed} <= set(MAY_IMPORT), package


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_a_package_imports_only_what_its_allowlist_holds(package: str) -> None:
    assert allowlist_violations(module_graph(), package) == []


def _outside(package: str) -> str:
    """A package ``package`` may not import (the first, in table order)."""
    return next(
        p for p in MAY_IMPORT if p != package and p not in {a.lstrip("=") for a in MAY_IMPORT[package]}
    )


@pytest.mark.parametrize("package", [p for p in sorted(MAY_IMPORT) if p != "__init__"])
def test_the_allowlist_catches_an_import_planted_in_each_package(package: str) -> None:
    planted = _outside(package)
    target = "harness" if planted == "__init__" else f"harness.{planted}"
    graph = module_graph(extra={f"harness.{package}.mutant": f"def f():\n    import {target}\n"})
    assert allowlist_violations(graph, package) == [f"harness.{package}.mutant -> {target}"]


@pytest.mark.parametrize(
    ("module", "source"),
    [
        # the three imports the layers once had: the reference parsers reading the fenced kit, the
        # public strategies reading a judge, and recording reading the CLI (a cycle)
        ("harness.stream.base", "from harness.kit.rules import stop_reason"),
        ("harness.stream.chat_completions", "from harness.kit.chat import map_usage"),
        ("harness.strategies.representable", "from harness.emit import representable"),
        ("harness.record.commands", "from harness.cli.main import app"),
        ("harness.contract.mutant", "from harness.providers import REGISTRY"),
        ("harness.model", "import harness.contract"),
        ("harness.targets.mutant", "from harness.audit.run import run_audit"),
        ("harness", "from harness.cli.main import app"),
    ],
)
def test_the_allowlist_catches_the_imports_it_exists_for(module: str, source: str) -> None:
    graph = module_graph(extra={module: source})
    assert allowlist_violations(graph, package_of(module)) != [], source


def test_a_table_with_a_cycle_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(MAY_IMPORT, "contract", (*MAY_IMPORT["contract"], "providers"))
    assert any({"contract", "providers"} <= set(c) for c in _table_cycles())


@pytest.mark.parametrize("judge", FENCED)
def test_a_judge_reaches_only_its_allowlist(judge: str) -> None:
    assert judge_violations(module_graph(), judge) == []


def test_the_contract_reaches_only_the_model_and_params() -> None:
    assert reach_violations(module_graph(), ("harness.contract",), CONTRACT_MAY_REACH) == []


def test_the_accepted_difference_data_reaches_no_reference_code() -> None:
    assert (
        reach_violations(module_graph(), ALLOWLIST_MODULES, ALLOWLIST_MAY_REACH, JUDGE_MAY_REACH_EXACTLY)
        == []
    )


def test_no_import_cycle_anywhere() -> None:
    assert cycles(module_graph()) == []


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("harness.invariants.mutant", "from harness.audit.run import reference_replay"),
        ("harness.invariants.mutant", "from harness.mapping.prepare import prepare"),
        ("harness.oracles.mutant", "def f():\n    import harness.providers.anthropic.stream"),
        ("harness.rules.mutant", "from harness.providers.replay import replay_exchange"),
        ("harness.emit.mutant", "from harness.targets.reference import TARGET"),
        ("harness.invariants.mutant", "from ..providers import get_adapter"),
        ("harness.oracles.mutant", "from harness.providers import get_profile"),
        ("harness.traffic.mutant", "from harness.importcheck.check import check_traffic"),
        ("harness.importer.mutant", "from harness.cli.conformance import run_conformance"),
        ("harness.importer.mutant", "from harness.testing.suite import judge"),
        ("harness.emit.mutant", "from harness.record.scrub import scrub_interaction"),
        ("harness.kit.mutant", "from harness.loop.closed_loop import close_loop"),
        (
            "harness.invariants.mutant",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from harness.stream.base import CallResult",
        ),
        ("harness.rules.mutant", "import harness"),
    ],
)
def test_the_fence_catches_a_judge_importing_outside_its_allowlist(module: str, source: str) -> None:
    graph = module_graph(extra={module: source})
    assert judge_violations(graph, module.split(".")[1]) != [], source


def test_the_fence_is_transitive_an_allowed_module_reaching_the_reference_fails_the_judge() -> None:
    """codec is allowed; a codec that imported the parsers would put them inside every judge."""
    codec = (ROOT / "codec.py").read_text(encoding="utf-8") + "\nfrom harness.stream.base import CallResult\n"
    graph = module_graph(extra={"harness.codec": codec})
    assert "harness.codec -> harness.stream.base" in judge_violations(graph, "invariants")


def test_the_fence_reads_the_files_a_judge_module_written_to_disk_fails(tmp_path: Path) -> None:
    """The check runs on files: a copy of the package with one more judge module fails it."""
    copy = tmp_path / "harness"
    shutil.copytree(
        ROOT, copy, ignore=shutil.ignore_patterns("__pycache__", "*.json", "*.jsonl", "*.md", "specs")
    )
    (copy / "invariants" / "mutant.py").write_text("from harness.audit.run import reference_replay\n")
    assert judge_violations(module_graph(copy), "invariants") == [
        "harness.invariants.mutant -> harness.audit.run"
    ]
    assert judge_violations(module_graph(copy), "oracles") == []


def test_the_contract_fence_catches_a_reference_import() -> None:
    graph = module_graph(extra={"harness.contract.mutant": "from harness.mapping.adapter import Rendered"})
    assert reach_violations(graph, ("harness.contract",), CONTRACT_MAY_REACH) != []


def test_the_registry_fence_catches_a_reference_import() -> None:
    graph = module_graph(extra={"harness.accepted.mutant": "from harness.providers import get_adapter"})
    assert reach_violations(graph, ALLOWLIST_MODULES, ALLOWLIST_MAY_REACH, JUDGE_MAY_REACH_EXACTLY) != []


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = module_graph(
        extra={
            "harness.accepted.predicates": (ROOT / "accepted" / "predicates.py").read_text(encoding="utf-8")
            + "\nfrom harness.accepted.registry import REGISTRY as _R\n"
        }
    )
    assert any({"harness.accepted.predicates", "harness.accepted.registry"} <= set(c) for c in cycles(graph))


#: The neutral machinery providers build on: it must not depend on any provider.
NEUTRAL = ("mapping", "stream")


def provider_violations(source: str, module: str) -> list[str]:
    """Imports that reach another provider's folder (or the registry, which reaches them all).

    A provider module (``harness.providers.<folder>.*``) may import its own folder and the
    neutral machinery; a neutral module (``harness.mapping``, ``harness.stream``) no provider.
    """
    found = list(imports(source, module))
    parts = module.split(".")
    if parts[:2] == ["harness", "providers"] and len(parts) > 3:
        own = ".".join(parts[:3])
        return [
            n
            for n in found
            if (n == "harness.providers" or n.startswith("harness.providers."))
            and not (n == own or n.startswith(own + "."))
        ]
    if len(parts) > 1 and parts[1] in NEUTRAL:
        return [n for n in found if n == "harness.providers" or n.startswith("harness.providers.")]
    return []


def _provider_and_neutral_modules() -> list[tuple[str, Path]]:
    found: list[tuple[str, Path]] = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        if parts[1] in ("providers", *NEUTRAL):
            found.append((".".join(p for p in parts if p != "__init__"), path))
    return found


@pytest.mark.parametrize(
    ("module", "path"), _provider_and_neutral_modules(), ids=[m for m, _ in _provider_and_neutral_modules()]
)
def test_no_provider_imports_a_sibling_and_the_neutral_machinery_no_provider(module: str, path: Path) -> None:
    assert provider_violations(path.read_text(encoding="utf-8"), module) == []


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("harness.providers.openrouter.request", "from harness.providers.openai_chat import request as chat"),
        ("harness.providers.openai_responses.request", "from harness.providers.openai_chat.request import X"),
        ("harness.providers.openrouter.stream", "from ..openai_chat.stream import OpenAIChatParser"),
        ("harness.providers.gemini.request", "def f():\n    import harness.providers.anthropic.profile"),
        ("harness.providers.anthropic.request", "from harness.providers import get_profile"),
        ("harness.mapping.chat_completions", "from harness.providers.openai_chat.profile import ID_POLICY"),
        ("harness.stream.responses", "from harness.providers import REGISTRY"),
    ],
)
def test_the_rule_catches_a_provider_importing_a_sibling(module: str, source: str) -> None:
    assert provider_violations(source, module) != []


@pytest.mark.parametrize(
    ("module", "source"),
    [
        (
            "harness.providers.openrouter.request",
            "from harness.providers.openrouter.profile import ID_POLICY",
        ),
        ("harness.providers.openrouter.stream", "from .profile import DEFAULT_MODEL"),
        ("harness.providers.gemini.request", "from harness.mapping.prepare import prepare"),
    ],
)
def test_a_provider_may_import_its_own_folder_and_the_neutral_machinery(module: str, source: str) -> None:
    assert provider_violations(source, module) == []
