"""Generated histories for the audit: hypothesis data generation with a fixed seed, no shrinking.

Deterministic approach: a ``@given`` function collects what hypothesis generates under
``@seed(SEED)`` with ``database=None`` and only the ``generate`` phase, so there is no
example database, no replay of earlier failures and no shrinking to make two runs
differ: the same hypothesis version and strategies give the same histories, in the same
order, on every machine. (``strategy.example()`` is not used: it is unseeded by design.)
Hypothesis also mixes in string and number constants it harvests from the source of
whatever local modules are imported, which would make the histories depend on the
checkout (and on what else the process imported); ``_no_local_constants`` switches
that off for the collection, so only the seed and the strategies decide.
The audit reports the smallest failing case it saw rather than shrinking through the
target, which for a third-party target would mean hundreds of extra calls. Histories
without a user message that says something (non-blank text or an image URL; the
strategies' image files do not exist on disk) are left out: there is nothing for a
model to answer, so no request body could be valid.

Drawing 50 histories costs seconds of CPU, and a test run does it in every process that
needs them (each xdist worker, each subprocess a test starts). With ``$HARNESS_GENERATED_SHARE``
naming a folder (this repository's ``conftest.py`` sets one per run), the first process
draws and the others read its set (JSON Lines, written atomically under a lock). A set is
kept under a key naming everything the draws depend on (Hypothesis, pydantic and Python
versions, the harness source), and only when it reads back equal to what was drawn and writes
back the same bytes (the fields each model had set included), so a reader gets exactly the
histories it would have drawn.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Generator
from contextlib import contextmanager, suppress
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from harness.codec import dumps_history, loads_history
from harness.model import HistoryEvent, ImageURLPart, TextPart, UserMessage
from harness.params import CallParams, ThinkingParams, ToolSpec
from harness.strategies import histories
from harness.strategies.controls import with_cache_breakpoints

__all__ = ["PARAMS", "SEED", "SHARE_ENV", "generated_histories", "has_user_message"]

SEED = 20260101
#: A folder where the processes of one run share each drawn set (unset: every process draws its own).
SHARE_ENV = "HARNESS_GENERATED_SHARE"
#: Call params drawn for generated histories: bare, system prompt, thinking, the strategies' tools,
#: and a model family adapters special-case (DeepSeek behind Chat Completions-compatible APIs).
PARAMS: tuple[CallParams, ...] = (
    CallParams(),
    CallParams(system="You are terse.", max_tokens=1024),
    CallParams(max_tokens=4096, thinking=ThinkingParams(budget_tokens=1024, effort="low")),
    CallParams(tools=[ToolSpec(name="read"), ToolSpec(name="bash"), ToolSpec(name="search")]),
    CallParams(model="deepseek-reasoner", max_tokens=4096),
)


@contextmanager
def _no_local_constants() -> Generator[None]:
    """Hypothesis >= 6.131 draws constants from local source files; none here (private API, guarded)."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - internals moved: generation still works, less isolated
        yield
        return
    original = getattr(providers, "_get_local_constants", None)
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    constants = getattr(providers, "Constants", None)
    if original is None or cache is None or constants is None:  # pragma: no cover
        yield
        return
    cache.cache.clear()
    providers._get_local_constants = constants  # pyright: ignore[reportPrivateUsage]  # an empty pool
    try:
        yield
    finally:
        providers._get_local_constants = original  # pyright: ignore[reportPrivateUsage]
        cache.cache.clear()


def has_user_message(history: list[HistoryEvent]) -> bool:
    """The history asks something (a non-blank text or an image URL): else no request body can be valid."""
    return any(
        isinstance(event, UserMessage)
        and any(
            isinstance(p, ImageURLPart) or (isinstance(p, TextPart) and p.text.strip()) for p in event.parts
        )
        for event in history
    )


class _Enough(Exception):
    """Raised once ``count`` histories are in: hypothesis would otherwise draw to ``max_examples``."""


Generated = list[tuple[list[HistoryEvent], CallParams]]


def generated_histories(count: int) -> Generated:
    """``count`` distinct (history, params) pairs, identical on every run."""
    if count <= 0:
        return []
    folder = os.environ.get(SHARE_ENV)
    return _shared(Path(folder), count) if folder else _draw(count)


def _source_key() -> str:
    """What the draws depend on: Hypothesis, pydantic and Python, and the harness source itself."""
    from importlib.metadata import version

    versions = f"{version('hypothesis')} {version('pydantic')} {version('pydantic-core')} {sys.version}"
    digest = hashlib.sha256(versions.encode())
    package = Path(__file__).resolve().parents[1]
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def _encode(drawn: Generated) -> str:
    return "".join(
        json.dumps(
            {"history": dumps_history(h), "params": p.model_dump(mode="json", exclude_unset=True)},
            sort_keys=True,
        )
        + "\n"
        for h, p in drawn
    )


def _decode(text: str) -> Generated:
    rows = [json.loads(line) for line in text.splitlines()]
    return [(loads_history(row["history"]), CallParams.model_validate(row["params"])) for row in rows]


def _shared(folder: Path, count: int) -> Generated:
    """The set drawn by the first process of the run to need it; drawn here when it is the first."""
    import fcntl  # POSIX only, and only when a run asks for sharing

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"generated-{count}-{_source_key()}.jsonl"
    with (folder / f"{path.stem}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the others wait for the one drawing
        if path.exists():
            return _decode(path.read_text(encoding="utf-8"))
        drawn = _draw(count)
        text = _encode(drawn)
        back = _decode(text)
        if back == drawn and _encode(back) == text:  # kept only when a reader gets exactly these histories
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(text, encoding="utf-8")
            partial.replace(path)
        return drawn


def _draw(count: int) -> Generated:
    collected: list[tuple[list[HistoryEvent], CallParams]] = []
    seen: set[str] = set()

    @seed(SEED)
    @settings(
        max_examples=count * 3,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        derandomize=False,
        suppress_health_check=[
            HealthCheck.filter_too_much,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )
    @given(history=histories.filter(has_user_message), params=st.sampled_from(PARAMS))
    def collect(history: list[HistoryEvent], params: CallParams) -> None:
        key = dumps_history(history) + params.model_dump_json()
        if len(collected) < count and key not in seen:
            seen.add(key)
            collected.append((history, params))
        if len(collected) == count:
            raise _Enough  # stop drawing: the rest would be thrown away (same histories, fewer draws)

    with _no_local_constants(), suppress(_Enough):
        collect()
    # Every fourth history ends its latest user turn with a cache breakpoint (I17 judges it); the
    # draws themselves are unchanged, so the set stays what it was otherwise.
    return [(with_cache_breakpoints(h) if n % 4 == 3 else h, p) for n, (h, p) in enumerate(collected)]
