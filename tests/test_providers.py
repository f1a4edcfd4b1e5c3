"""One home per provider: the registry lists exactly the pinned ids, each folder holds its
parts, and each DECISIONS.md lists exactly the warning codes its provider emits."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.contract.providers import PROVIDERS
from harness.contract.warning_codes import Code
from harness.providers import REGISTRY, get_adapter, get_parser, get_profile

HARNESS = Path(__file__).resolve().parent.parent / "harness"
#: Neutral modules whose codes every provider may emit (listed in docs/mapping-decisions.md).
SHARED = (
    "cache",
    "call_controls",
    "controls",
    "files",
    "prepare",
    "provider_parts",
    "tool_additions",
    "toolbox",
    "wire",
)
_CODE_USE = re.compile(r"\bCode\.([A-Z_]+)\b")
_MAPPING_IMPORT = re.compile(r"^from harness\.mapping(?:\.(\w+))? import \(?\s*(\w+)", re.M)


def test_the_registry_lists_exactly_the_pinned_ids() -> None:
    assert tuple(REGISTRY) == PROVIDERS


@pytest.mark.parametrize("provider", PROVIDERS)
def test_each_provider_folder_holds_its_parts(provider: str) -> None:
    folder = HARNESS / "providers" / REGISTRY[provider].folder
    for name in ("__init__.py", "request.py", "stream.py", "profile.py", "DECISIONS.md"):
        assert (folder / name).is_file(), f"{folder / name} is missing"
    assert get_adapter(provider).provider == provider
    assert get_parser(provider).provider == provider
    assert isinstance(get_profile(provider).DEFAULT_MODEL, str)


def test_openrouter_serves_two_wires_and_an_unknown_id_names_the_valid_ones() -> None:
    assert get_parser("openrouter", "openai-responses") is not get_parser("openrouter")
    assert get_parser("openrouter", "openai-responses").provider == "openrouter"
    with pytest.raises(ValueError, match="expected one of: anthropic"):
        get_adapter("nope")


def _codes_in(path: Path) -> set[str]:
    return {Code[name].value for name in _CODE_USE.findall(path.read_text(encoding="utf-8"))}


def _listed(markdown: str) -> set[str]:
    section = markdown.split("## Warning codes", 1)[1]
    return {c for c in re.findall(r"^\| `([a-z0-9-]+)` \|", section, re.M)}


def _emitted_by(provider: str) -> tuple[set[str], set[str]]:
    """(codes the provider's own code emits, codes it may emit through the shared modules)."""
    folder = HARNESS / "providers" / REGISTRY[provider].folder
    own: set[str] = set()
    for path in folder.glob("*.py"):
        own |= _codes_in(path)
        for module, name in _MAPPING_IMPORT.findall(path.read_text(encoding="utf-8")):
            core = module or name  # ``from harness.mapping import chat_completions as chat``
            if core not in SHARED and (HARNESS / "mapping" / f"{core}.py").is_file():
                own |= _codes_in(HARNESS / "mapping" / f"{core}.py")
    shared = set[str]().union(*(_codes_in(HARNESS / "mapping" / f"{m}.py") for m in SHARED))
    return own, shared


@pytest.mark.parametrize("provider", PROVIDERS)
def test_decisions_list_exactly_the_codes_the_provider_emits(provider: str) -> None:
    decisions = HARNESS / "providers" / REGISTRY[provider].folder / "DECISIONS.md"
    listed = _listed(decisions.read_text(encoding="utf-8"))
    own, shared = _emitted_by(provider)
    assert own - listed == set(), f"{decisions}: emitted but not listed"
    assert listed - (own | shared) == set(), f"{decisions}: listed but never emitted"


def test_shared_codes_are_listed_in_the_index_and_every_code_is_emitted_somewhere() -> None:
    index = (HARNESS.parent / "docs" / "mapping-decisions.md").read_text(encoding="utf-8")
    line = next(x for x in index.splitlines() if x.startswith("Shared warning codes"))
    _, shared = _emitted_by("anthropic")
    assert set(re.findall(r"`([a-z0-9-]+)`", line)) == shared
    emitted = shared.union(*(_emitted_by(p)[0] for p in PROVIDERS))
    assert emitted == {c.value for c in Code}, "registered codes no adapter emits (or the reverse)"


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        (
            "## Warning codes\n\n| code | kind |\n|---|---|\n| `tool-id-mapped` | reject |\n",
            {"tool-id-mapped"},
        ),
        ("## Warning codes\n\nnone\n", set[str]()),
    ],
)
def test_the_listed_codes_reader_reads_the_table(markdown: str, expected: set[str]) -> None:
    assert _listed(markdown) == expected
