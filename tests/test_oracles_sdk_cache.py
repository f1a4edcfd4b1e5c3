"""The SDK oracle's on-disk cache (``harness/oracles/sdk_cache.py``) changes no verdict.

Each cached provider's oracle is built both ways, from the SDK and from the cached bytes,
and judges the same good and bad bodies: the same errors, in the same order. The bad bodies
must fail (so the comparison can fail too). Also: loading from the cache imports no SDK,
an absent or corrupt file is built and written, the cache can be turned off and follows
``XDG_CACHE_HOME``. Every conformance and recorded body: ``python -m tools.sdk_cache_compare``.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from harness.oracles import sdk, sdk_cache
from tests.support.bodies import HOSTED, RICH, VALID, Body

#: provider -> (distribution, top package, the SDK's request types)
CACHED: dict[str, tuple[str, str, Callable[[], tuple[type, type]]]] = {
    "anthropic": ("anthropic", "anthropic", sdk._anthropic_types),  # pyright: ignore[reportPrivateUsage]
    "openai-chat": ("openai", "openai", sdk._openai_chat_types),  # pyright: ignore[reportPrivateUsage]
    "openai-responses": ("openai", "openai", sdk._openai_responses_types),  # pyright: ignore[reportPrivateUsage]
    "groq": ("groq", "groq", sdk._groq_types),  # pyright: ignore[reportPrivateUsage]
    "cerebras": ("cerebras_cloud_sdk", "cerebras", sdk._cerebras_types),  # pyright: ignore[reportPrivateUsage]
}


@cache
def _both(provider: str) -> tuple[sdk.TypedDictOracle, sdk.TypedDictOracle]:
    _, package, types = CACHED[provider]
    built = sdk.TypedDictOracle(*types())
    data = sdk_cache.dump({"stream": built.validator(True), "non-stream": built.validator(False)}, (package,))
    assert data is not None, f"{provider}: the schema is not portable"
    loaded = sdk_cache.load(data)
    return built, sdk.TypedDictOracle.from_validators(loaded["stream"], loaded["non-stream"])


def _messages_key(body: Body) -> str:
    return "input" if "input" in body else "messages"


def _bad(body: Body) -> list[Body]:
    """Mutations of a valid body, each an error of a different kind for the oracle."""
    out: list[Body] = []

    def add(change: Callable[[Body], Any]) -> None:
        b = copy.deepcopy(body)
        change(b)
        out.append(b)

    key = _messages_key(body)
    items = body.get(key)
    add(lambda b: b.update(not_a_field=1))  # unknown top-level key
    add(lambda b: b.update(model=42))  # wrong type (strict)
    add(lambda b: b.update(stream="yes"))  # neither variant's literal
    add(lambda b: b.pop("model", None))  # missing required
    if isinstance(items, list) and items:
        add(lambda b: b[key][0].update(role="robot"))  # no union variant
        add(lambda b: b[key][0].update(extra_key="x"))  # extra key in a message
        add(lambda b: b[key].append({"role": "user", "content": [{"type": "nope", "text": "x"}]}))
        add(lambda b: b[key].append({"role": "user", "content": [{"type": "text", "text": 1}]}))
        add(
            lambda b: b[key].append(
                {"role": "assistant", "content": [{"type": "text", "text": "x", "zzz": 1}]}
            )
        )
        add(lambda b: b[key].append({"role": "user", "content": {"type": "text"}}))
        add(lambda b: b[key].append(["not", "an", "object"]))
    add(lambda b: b.update(tools=[{"type": "function", "name": 3}]))
    add(lambda b: b.update(tools="all"))
    return out


def _cases(provider: str) -> list[tuple[Body, bool]]:
    good = [b for _, p, b, _ in VALID if p == provider] + [b for _, p, _, b, _ in HOSTED if p == provider]
    bad = [m for b in good[:1] for m in _bad(b)]
    streamed = [{**b, "stream": not b.get("stream")} for b in good[:2]]
    return [(b, True) for b in good + streamed] + [(b, False) for b in bad]


@pytest.mark.parametrize("provider", sorted(CACHED))
def test_cached_validators_give_the_same_verdicts(provider: str) -> None:
    built, loaded = _both(provider)
    failing = 0
    for body, _ in _cases(provider):
        expected = built.errors(copy.deepcopy(body))
        assert loaded.errors(copy.deepcopy(body)) == expected, body
        failing += bool(expected)
    assert failing >= 10, f"{provider}: only {failing} of the bad bodies failed: the comparison proves little"


def test_anthropic_response_model_branches_keep_rejecting_extras() -> None:
    """Anthropic's block unions hold response models (``extra='allow'``): the stand-in classes of the
    cache must carry their extras to ``_materialize`` as the models do."""
    built, loaded = _both("anthropic")
    body = copy.deepcopy(RICH["anthropic"])
    body["messages"].append(
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "n", "input": {}, "caller": {"type": "direct"}, "zz": 1}]}
    )  # fmt: skip
    expected = built.errors(copy.deepcopy(body))
    assert expected
    assert loaded.errors(copy.deepcopy(body)) == expected


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("HARNESS_CACHE_DIR", sdk_cache.DISABLE_ENV)}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    env.update(extra)
    return env


_PROBE = """
import sys
from harness.oracles.sdk import sdk_oracle
errors = sdk_oracle("anthropic").errors({"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": 1}]})
print(len(errors), "anthropic" in sys.modules)
"""


def test_a_warm_cache_imports_no_sdk(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HARNESS_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv(sdk_cache.DISABLE_ENV, raising=False)
    built, _ = _both("anthropic")
    sdk_cache.cached_validators(
        "anthropic", ("anthropic",), ("anthropic",), lambda: {"stream": built.validator(True), "non-stream": built.validator(False)}
    )  # fmt: skip
    assert list(tmp_path.glob("sdk-oracle/anthropic-*.pickle"))
    env = _env(tmp_path, HARNESS_CACHE_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True
    ).stdout
    expected = built.errors({"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": 1}]})
    assert out.split() == [str(len(expected)), "False"]  # read back: the same verdict, the SDK not imported


def test_a_corrupt_or_absent_cache_is_built_and_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HARNESS_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv(sdk_cache.DISABLE_ENV, raising=False)
    built, _ = _both("groq")
    calls: list[int] = []

    def build() -> dict[str, Any]:
        calls.append(1)
        return {"stream": built.validator(True), "non-stream": built.validator(False)}

    first = sdk_cache.cached_validators("groq", ("groq",), ("groq",), build)
    [path] = tmp_path.glob("sdk-oracle/groq-*.pickle")
    assert first["stream"] is built.validator(True) and calls == [1]  # absent: built, and written
    assert sdk_cache.cached_validators("groq", ("groq",), ("groq",), build)["stream"] is not first["stream"]
    assert calls == [1]  # read back
    path.write_bytes(b"not a pickle")
    assert sdk_cache.cached_validators("groq", ("groq",), ("groq",), build)["stream"] is first["stream"]
    assert calls == [1, 1]  # corrupt: built again
    assert sdk_cache.load(path.read_bytes())  # and rewritten whole
    assert not list(tmp_path.glob("sdk-oracle/.*.tmp"))  # no temporary file left behind
    path.chmod(0o666)  # a cache others could have written is not loaded (a pickle runs code)
    assert sdk_cache.cached_validators("groq", ("groq",), ("groq",), build)["stream"] is first["stream"]
    assert calls == [1, 1, 1]


def test_cache_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("HARNESS_CACHE_DIR", raising=False)
    monkeypatch.delenv(sdk_cache.DISABLE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert sdk_cache.cache_dir() == tmp_path / "llm-wire-harness"
    monkeypatch.setenv("HARNESS_CACHE_DIR", str(tmp_path / "here"))
    assert sdk_cache.cache_dir() == tmp_path / "here"
    monkeypatch.setenv(sdk_cache.DISABLE_ENV, "0")
    assert sdk_cache.cache_dir() is None
