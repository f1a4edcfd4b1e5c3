"""Every conformance request and every recorded request, judged by the SDK oracle built from the
SDK and by the one read from the on-disk cache (``harness/oracles/sdk_cache.py``): the verdicts
must be the same, error for error. Also each body mutated into bad ones, so errors are compared
too, not only passes.

    python -m tools.sdk_cache_compare [TRAFFIC_DIR ...]      # default: traffic cassettes

Prints per provider the bodies judged, how many failed, and the differences (exit 1 if any).
"""

from __future__ import annotations

import argparse
import copy
import sys
from collections import Counter
from typing import Any, cast

from harness.oracles import sdk, sdk_cache
from harness.oracles.allowances import apply_defaults
from harness.oracles.normalise import normalise_body

_TYPES = {
    "anthropic": ("anthropic", sdk._anthropic_types),  # pyright: ignore[reportPrivateUsage]
    "openai-chat": ("openai", sdk._openai_chat_types),  # pyright: ignore[reportPrivateUsage]
    "openai-responses": ("openai", sdk._openai_responses_types),  # pyright: ignore[reportPrivateUsage]
    "groq": ("groq", sdk._groq_types),  # pyright: ignore[reportPrivateUsage]
    "cerebras": ("cerebras", sdk._cerebras_types),  # pyright: ignore[reportPrivateUsage]
}


def _bodies(paths: list[str]) -> list[tuple[str, dict[str, Any]]]:
    from harness.providers import get_adapter
    from harness.scenarios import load_scenarios
    from harness.traffic.calibrate import oracle_view
    from harness.traffic.loader import iter_files, load_file

    out: list[tuple[str, dict[str, Any]]] = []
    for scenario in load_scenarios().values():
        for provider in _TYPES:
            out.append(
                (provider, get_adapter(provider).render(scenario.history, scenario.params_for(provider)).body)
            )
    for path in iter_files(paths):
        for call in load_file(path):
            raw: Any = call.body
            if call.route is None or not isinstance(raw, dict):
                continue
            provider, view = oracle_view(call.route, cast(dict[str, Any], raw), call.uri)
            if provider in _TYPES:
                out.append((provider, view))
    return out


def _bad(body: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for change in ({"extra_top": 1}, {"model": 7}, {"stream": "x"}):
        out.append({**body, **change})
    for key in ("messages", "input"):
        items = body.get(key)
        if isinstance(items, list) and items:
            b = copy.deepcopy(body)
            b[key][-1] = {**b[key][-1], "zz": 1} if isinstance(b[key][-1], dict) else 1
            out.append(b)
            b = copy.deepcopy(body)
            b[key].append({"role": "user", "content": [{"type": "nope"}]})
            out.append(b)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("paths", nargs="*", default=["traffic", "cassettes"])
    args = parser.parse_args()
    oracles: dict[str, tuple[sdk.TypedDictOracle, sdk.TypedDictOracle]] = {}
    for provider, (package, types) in _TYPES.items():
        built = sdk.TypedDictOracle(*types())
        data = sdk_cache.dump({"s": built.validator(True), "n": built.validator(False)}, (package,))
        assert data is not None, provider
        loaded = sdk_cache.load(data)
        oracles[provider] = (built, sdk.TypedDictOracle.from_validators(loaded["s"], loaded["n"]))
    judged: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    differences = 0
    for provider, raw in _bodies(args.paths):
        try:
            body, _ = apply_defaults(provider, normalise_body(provider, raw))
        except Exception:
            body = raw
        for one in [body, *_bad(body)]:
            built, loaded = oracles[provider]
            expected = built.errors(copy.deepcopy(one))
            got = loaded.errors(copy.deepcopy(one))
            judged[provider] += 1
            failed[provider] += bool(expected)
            if got != expected:
                differences += 1
                print(f"DIFFERENT {provider}: built {expected[:3]} cached {got[:3]}")
    for provider in _TYPES:
        print(f"{provider}: {judged[provider]} bodies, {failed[provider]} failing, verdicts compared")
    print(f"differences: {differences}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
