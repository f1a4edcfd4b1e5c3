"""The two recipes of docs/architecture.md, applied to a copy of the package exactly as written there.

- "Add a dialect": a provider on the Chat Completions wire is its folder under
  ``harness/providers/`` and one ``ProviderEntry`` in ``harness/contract/providers.py``. The
  copy gets both, and nothing else; the new provider then renders every scenario, replays a
  stream, passes ``harness conformance`` and is judged by the invariants.
- "Add an invariant": its check in a module of ``harness/invariants/`` and one entry in
  ``INVARIANTS`` (``harness/invariants/registry.py``). ``harness audit`` and ``TargetConformance``
  then run it, with no other edit.

Each runs in a subprocess whose ``harness`` is the copy (``PYTHONPATH``), so every list the
harness derives at import derives from the edited table, as it would in a checkout.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------- a dialect on the Chat wire

#: The dialect's folder, as the recipe writes it (the shape of ``harness/providers/huggingface/``).
DIALECT_FOLDER: dict[str, str] = {
    "__init__.py": '"""Fake Chat: request adapter, stream parser, model profile and decisions (DECISIONS.md)."""\n',
    "profile.py": '''\
        """Fake Chat (``api.fakechat.example``): the model facts the mapping depends on."""

        from __future__ import annotations

        from harness.contract.providers import provider_entry
        from harness.mapping.openai_family import OPENAI_TOOL_NAMES
        from harness.mapping.wire import IdPolicy

        DEFAULT_MODEL = provider_entry("fakechat").default_model
        ID_POLICY = IdPolicy()
        TOOL_NAMES = OPENAI_TOOL_NAMES
        MAX_TOKENS_FIELD = "max_tokens"
        ''',
    "request.py": '''\
        """Fake Chat input adapter: the Chat Completions core with ``max_tokens``; reasoning not sent back."""

        from __future__ import annotations

        from harness.contract.warning_codes import Code
        from harness.mapping.chat_completions import JSON, ReasoningMapper
        from harness.mapping.dialects import Dialect, DialectAdapter, drop_reasoning
        from harness.mapping.wire import Prepared, Warnings
        from harness.params import CallParams
        from harness.providers.fakechat.profile import ID_POLICY, MAX_TOKENS_FIELD, TOOL_NAMES

        PROVIDER_ID = "fakechat"


        def _reasoning(prepared: Prepared, model: str, params: CallParams) -> ReasoningMapper:
            return drop_reasoning("Fake Chat takes no reasoning back")


        def controls(body: JSON, params: CallParams, warnings: Warnings, model: str) -> None:
            if params.thinking is not None:
                warnings.add(None, None, None, Code.THINKING_PARAM_IGNORED, "Fake Chat has no reasoning switch; not sent")


        ADAPTER = DialectAdapter(
            Dialect(
                provider=PROVIDER_ID,
                ids=ID_POLICY,
                names=TOOL_NAMES,
                reasoning=_reasoning,
                controls=controls,
                max_tokens_field=MAX_TOKENS_FIELD,
            )
        )
        ''',
    "stream.py": '''\
        """Fake Chat output adapter: the Chat Completions core's parser."""

        from __future__ import annotations

        from harness.stream.chat_completions import ChatCompletionsParser


        class FakeChatParser(ChatCompletionsParser):
            provider = "fakechat"


        PARSER = FakeChatParser
        ''',
    "DECISIONS.md": """\
        # Fake Chat (`fakechat`): decisions

        The Chat Completions core with `max_tokens`; reasoning is not sent back.

        ## Warning codes

        | code | when |
        | --- | --- |
        | `thinking-param-ignored` | a thinking setting: Fake Chat has no reasoning switch |
        """,
}

#: The dialect's one entry in ``PROVIDER_TABLE``.
DIALECT_ENTRY = """\
    ProviderEntry(
        "fakechat",
        "openai-chat",
        "fake-model-1",
        Recording("FAKECHAT_API_KEY", "https://api.fakechat.example/v1", "chat/completions", "https://fakechat.example/docs"),
        stream_models=("fake-model-1",),
        hosts=("api.fakechat.example",),
        chat=ChatDialect(reasoning_field="reasoning"),
    ),
"""

# ---------------------------------------------------------------- an invariant

#: The invariant's check module, as the recipe writes it.
INVARIANT_MODULE = '''\
    """I99 user-text-sent (a test's invariant): every user text of the history is in the request."""

    from __future__ import annotations

    from harness.invariants.base import CheckContext, Violation, leaves
    from harness.model import TextPart, UserMessage


    def check_user_text_sent(ctx: CheckContext) -> list[Violation]:
        sent = [leaf for _, leaf in leaves(ctx.body)]
        return [
            ctx.violation("I99", index, "a user text is not in the request", {"text": part.text}, kind="degrade")
            for index, event in enumerate(ctx.history)
            if isinstance(event, UserMessage)
            for part in event.parts
            if isinstance(part, TextPart) and part.text.strip() and not any(part.text in leaf for leaf in sent)
        ]
    '''

#: The invariant's one entry in ``INVARIANTS``.
INVARIANT_ENTRY = """\
    Invariant(
        "I99",
        "user-text-sent",
        "every user text of the history is in the request",
        _Lazy("user_text", "check_user_text_sent"),
        "a user text the request lacks is a question the model never saw",
    ),
"""


def _copy_package(into: Path) -> Path:
    """A copy of ``harness/`` (sources and data, no bytecode) under ``into``; returns the copy."""
    copy = into / "harness"
    shutil.copytree(ROOT / "harness", copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _insert_before_close(path: Path, opening: str, entry: str) -> None:
    """Insert ``entry`` as the last element of the tuple literal that ``opening`` starts."""
    text = path.read_text(encoding="utf-8")
    start = text.index(opening)
    close = min(i for i in (text.find("\n)\n", start), text.find("\n)  #", start)) if i != -1)
    path.write_text(text[: close + 1] + entry + text[close + 1 :], encoding="utf-8")


def _changed_files(copy: Path) -> list[str]:
    """Files of the copy that differ from (or are not in) the package: what the recipe touched."""
    out: list[str] = []
    for path in sorted(copy.rglob("*")):
        if path.is_dir() or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(copy)
        original = ROOT / "harness" / rel
        if not original.is_file() or original.read_bytes() != path.read_bytes():
            out.append(f"harness/{rel.as_posix()}")
    return out


def _run(copy: Path, script: str, cwd: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(copy.parent), "COLUMNS": "200"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def dialect_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package with the dialect recipe applied: a folder and one table entry."""
    copy = _copy_package(tmp_path_factory.mktemp("dialect"))
    folder = copy / "providers" / "fakechat"
    folder.mkdir()
    for name, text in DIALECT_FOLDER.items():
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    _insert_before_close(
        copy / "contract" / "providers.py", "PROVIDER_TABLE: tuple[ProviderEntry, ...] = (", DIALECT_ENTRY
    )
    return copy


@pytest.fixture(scope="module")
def invariant_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package with the invariant recipe applied: a check module and one registry entry."""
    copy = _copy_package(tmp_path_factory.mktemp("invariant"))
    (copy / "invariants" / "user_text.py").write_text(textwrap.dedent(INVARIANT_MODULE), encoding="utf-8")
    _insert_before_close(
        copy / "invariants" / "registry.py", "INVARIANTS: tuple[Invariant, ...] = (", INVARIANT_ENTRY
    )
    return copy


def test_docs_architecture_gives_this_recipe() -> None:
    """The recipe of docs/architecture.md names the folder's files this test writes, and the two places."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    recipe = page.split("### Add a dialect", 1)[1].split("\n### ", 1)[0]
    first, second = recipe.split("\n1. ", 1)[1].split("\n2. ", 1)
    assert "harness/providers/<folder>/" in first
    assert set(re.findall(r"`([A-Za-z_]+\.(?:py|md))`", first)) == set(DIALECT_FOLDER)
    assert "`ProviderEntry`" in second and "harness/contract/providers.py" in second
    invariant = page.split("### Add an invariant", 1)[1].split("\n### ", 1)[0]
    assert "harness/invariants/<name>.py" in invariant and "harness/invariants/registry.py" in invariant


def test_the_dialect_recipe_touches_its_folder_and_one_entry(dialect_copy: Path) -> None:
    assert _changed_files(dialect_copy) == [
        "harness/contract/providers.py",
        *(f"harness/providers/fakechat/{name}" for name in sorted(DIALECT_FOLDER)),
    ]


def test_a_new_dialect_renders_replays_and_passes_conformance(dialect_copy: Path, tmp_path: Path) -> None:
    script = """
        import json, sys
        from harness.cli.main import app
        from harness.contract.providers import CHAT_DIALECTS, PROVIDERS
        from harness.contract.routing import route
        from harness.emit import emit_stream
        from harness.invariants import run_invariants
        from harness.model import AssistantMessage, TextPart, ThinkingTextPart, ToolCallPart, Usage
        from harness.scenarios import load_scenarios
        from harness.targets import get_target

        assert "fakechat" in PROVIDERS and "fakechat" in CHAT_DIALECTS
        assert route("POST", "https://api.fakechat.example/v1/chat/completions").provider == "fakechat"
        reference = get_target("reference")
        assert "fakechat" in reference.providers()
        corpus = load_scenarios()
        for scenario in corpus.values():  # renders every scenario, with the entry's default model
            body = reference.render("fakechat", scenario.history, scenario.params_for("fakechat")).body
            assert body["model"] in ("fake-model-1", scenario.params_for("fakechat").model), scenario.name

        message = AssistantMessage(
            parts=[
                ThinkingTextPart(text="let me look", model_id="fake-model-1"),
                TextPart(text="Reading it."),
                ToolCallPart(call_id="call_1", tool_name="read", arguments_json='{"path": "a.txt"}'),
            ],
            usage=Usage(input_tokens=12, output_tokens=7, total_tokens=19),
            stop_reason="tool_use",
        )
        stream = emit_stream("fakechat", message, response_id="resp_1")
        assert b'"reasoning":' in stream  # the entry's reasoning field
        open("fake.sse", "wb").write(stream)
        for scenario in ("tool_parallel_results_out_of_order", "thinking_anthropic_tool_use"):
            case = corpus[scenario]
            report = run_invariants(case.history, case.params_for("fakechat"), providers=["fakechat"])
            assert [v for v in report.violations if v.kind != "policy"] == [], report.violations

        sys.argv = ["harness", "replay", "fake.sse", "--provider", "fakechat"]
        try:
            app()
        except SystemExit as done:
            assert done.code in (0, None), done.code
        print("---")
        sys.argv = ["harness", "conformance", "--provider", "fakechat", "--json"]
        try:
            app()
        except SystemExit as done:
            assert done.code in (0, None), done.code
    """
    replayed, conformance = _run(dialect_copy, script, tmp_path).split("---\n")
    message = json.loads(replayed)[0]["message"]
    assert [p["type"] for p in message["parts"]] == ["thinking_text", "text", "tool_call"]
    assert message["parts"][0]["text"] == "let me look" and message["stop_reason"] == "tool_use"
    summary = json.loads(conformance)
    cases = summary["cases"]
    assert summary["ok"] is True and {c["provider"] for c in cases} == {"fakechat"}
    assert len(cases) == len(json.loads((ROOT / "harness" / "scenarios" / "catalog.json").read_text()))


def test_the_invariant_recipe_touches_its_module_and_one_entry(invariant_copy: Path) -> None:
    assert _changed_files(invariant_copy) == [
        "harness/invariants/registry.py",
        "harness/invariants/user_text.py",
    ]


def test_a_new_invariant_runs_in_the_audit_and_in_target_conformance(
    invariant_copy: Path, tmp_path: Path
) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "test_adopter.py").write_text(
        textwrap.dedent(
            """
            from harness.testing import TargetConformance

            class TestAdopter(TargetConformance):
                target = "reference"
                providers = ("huggingface",)
                request_goldens = False
            """
        ),
        encoding="utf-8",
    )
    script = """
        import sys
        import pytest
        from harness.cli.main import app

        # huggingface: a provider with no schema oracles, the cheapest to audit
        sys.argv = ["harness", "audit", "--provider", "huggingface", "--examples", "0", "--cassettes", "empty", "--out", "out"]
        try:
            app()
        except SystemExit as done:
            assert done.code in (0, None), done.code
        print("---")
        # Every scenario (as the audit): each check then has one to judge, so collection draws no
        # generated set (a draw of its own: the copy's source keys it, seconds of CPU), and none runs.
        select = "test_scenario and I99"
        code = pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-rA", "test_adopter.py", "-k", select])
        assert code == 0, code
    """
    out = _run(invariant_copy, script, tmp_path)
    audit = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    assert "I99" in audit["checks"]
    cell = audit["matrix"]["huggingface"]["I99"]
    assert cell["passed"] == len(json.loads((ROOT / "harness" / "scenarios" / "catalog.json").read_text()))
    assert cell["failed"] == 0, cell
    assert (
        "PASSED test_adopter.py::TestAdopter::test_scenario[huggingface-tool_parallel_results_out_of_order-I99]"
        in out
    )
