"""The import rules: judges never import the reference implementation, the contract imports
neither, and a provider's folder never imports a sibling provider.

Judges (invariants, oracles, emitters, body rules, the traffic reader) must judge every
target the same way; one that imports the reference adapters or stream parsers could
agree with a reference bug. Both sides share only ``harness.contract`` (plus the model
and params). Targets are found at run time through entry points (``harness.targets``),
never by a static import of one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "harness"
#: Packages that judge targets.
JUDGES = ("invariants", "oracles", "emit", "rules", "traffic", "importer")
#: Packages held to the judges' rule: the target kit states the output rules the judges enforce.
NO_REFERENCE = (*JUDGES, "kit")
#: The reference implementation (and what wraps it).
REFERENCE = (
    "harness.providers",
    "harness.mapping",
    "harness.stream",
    "harness.providers.replay",
    "harness.loop.closed_loop",
    "harness.crosscheck",
    "harness.targets.reference",
    "harness.targets.klaude",
    "harness.targets.klaude_bridge",
    "harness.targets.pydantic_ai",
    "harness.targets.pydantic_ai_bridge",
)
#: What the contract may import: the canonical model, call params and itself.
CONTRACT_MAY_IMPORT = ("harness.model", "harness.params", "harness.contract")


def imports(source: str, module: str) -> Iterator[str]:
    """Every absolute module name a source file imports, at any depth (function-level imports too)."""
    package = module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                yield f"{base}.{node.module}" if node.module else base
            elif node.module:
                yield node.module


def violations(source: str, module: str) -> list[str]:
    """Forbidden imports of one module, by the layer it belongs to."""
    found = list(imports(source, module))
    layer = module.split(".")[1] if module.count(".") else ""
    if layer == "contract":
        return [n for n in found if n.startswith("harness") and not n.startswith(CONTRACT_MAY_IMPORT)]
    if layer in NO_REFERENCE:
        return [n for n in found if n == "harness" or n.startswith(tuple(f"{r}" for r in REFERENCE))]
    return []


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


def _modules() -> list[tuple[str, Path]]:
    found: list[tuple[str, Path]] = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        if parts[1] in (*NO_REFERENCE, "contract"):
            found.append((".".join(p for p in parts if p != "__init__"), path))
    return found


@pytest.mark.parametrize(("module", "path"), _modules(), ids=[m for m, _ in _modules()])
def test_judges_and_the_contract_keep_their_layer(module: str, path: Path) -> None:
    assert violations(path.read_text(encoding="utf-8"), module) == []


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("harness.invariants.shape", "from harness.mapping.prepare import prepare"),
        ("harness.oracles.spec", "def f():\n    import harness.providers.anthropic.stream"),
        ("harness.rules.tools", "from harness.providers.replay import replay_exchange"),
        ("harness.emit.gemini", "from harness.targets.reference import TARGET"),
        ("harness.contract.target", "from harness.mapping.adapter import Rendered"),
        ("harness.invariants.tools", "from ..providers import get_adapter"),
        ("harness.emit.anthropic", "from harness.providers.anthropic.stream import PARSER"),
        ("harness.oracles.sdk", "from harness.providers import get_profile"),
        ("harness.invariants.wire", "from harness.mapping.wire import Warnings"),
    ],
)
def test_the_rule_catches_a_judge_importing_the_reference(module: str, source: str) -> None:
    assert violations(source, module) != []


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


def test_every_provider_rule_is_reported_by_a_named_invariant() -> None:
    from harness.invariants.provider_rules import RULE_INVARIANT
    from harness.rules import RULES

    assert sorted(RULE_INVARIANT) == sorted(r.id for r in RULES)
    assert set(RULE_INVARIANT.values()) <= {"I7", "I8", "I12"}
