"""What an audit runs: the scenario corpus, generated histories, and the bundled cassettes.

Case ids are stable and sortable: ``scenario/<name>``, ``generated/<nn>``,
``cassette/<file stem>#<model call>``. A case's ``size`` orders failing cases so the
report can show the smallest one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.codec import dumps_history
from harness.data_paths import cassettes_dir
from harness.model import HistoryEvent
from harness.params import CallParams
from harness.providers.replay import Exchange, load_exchanges

__all__ = ["CASSETTES", "CassetteCase", "RequestCase", "cassette_cases", "request_cases"]

#: The bundled cassettes (the wheel's copy, else the checkout's; see ``harness.data_paths``).
CASSETTES = cassettes_dir()


@dataclass(frozen=True)
class RequestCase:
    """A history and the params it is rendered with."""

    case: str
    kind: str
    history: list[HistoryEvent]
    params: CallParams

    def params_for(self, provider: str) -> CallParams:
        """The params for ``provider``: a model that provider does not serve is left to its default.

        A case names one model; sending ``claude-…`` to Gemini is a request no API accepts,
        so every finding on it would be the corpus's, not the target's.
        """
        from harness.scenarios import model_providers

        model = self.params.model
        if model is None or provider in model_providers(model):
            return self.params
        return self.params.model_copy(update={"model": None})

    @property
    def example(self) -> str:
        params = self.params.model_dump_json(exclude_none=True, exclude_defaults=True)
        return f"# params: {params}\n{dumps_history(self.history)}"

    @property
    def size(self) -> int:
        return len(self.example)


@dataclass(frozen=True)
class CassetteCase:
    """One recorded model call of a cassette, for its own provider."""

    case: str
    provider: str
    path: str
    exchange: Exchange

    @property
    def example(self) -> str:
        return f"{self.path} (model call {self.case.rsplit('#', 1)[1]})"

    @property
    def size(self) -> int:
        return len(self.exchange.body)


def request_cases(
    generated: Sequence[tuple[list[HistoryEvent], CallParams]], model: str | None = None
) -> list[RequestCase]:
    """Scenarios, then generated histories; ``model`` replaces every case's model (model-specific code paths)."""
    from harness.scenarios import load_scenarios

    def params(given: CallParams) -> CallParams:
        return given if model is None else given.model_copy(update={"model": model})

    cases = [
        RequestCase(f"scenario/{s.name}", "scenario", s.history, params(s.params))
        for s in load_scenarios().values()
    ]
    width = max(2, len(str(len(generated) - 1)))
    cases += [
        RequestCase(f"generated/{n:0{width}d}", "generated", history, params(given))
        for n, (history, given) in enumerate(generated)
    ]
    return cases


def cassette_cases(root: Path, providers: Sequence[str]) -> tuple[list[CassetteCase], list[str]]:
    """Every model response in ``root/<provider>/*.yaml`` (paths shown relative to ``root``'s parent),
    one case per response (a body holding several is split: each check compares one), and one line
    for each cassette that could not be read (skipped, never blamed on the target)."""
    from harness.inputs import InputError
    from harness.providers.replay import ReplayInputError, per_response, resolve_provider

    cases: list[CassetteCase] = []
    unreadable: list[str] = []
    for provider in providers:
        for path in sorted((root / provider).glob("*.yaml")):
            try:
                exchanges = [e for e in load_exchanges(path, provider) if e.is_model_call]
            except (ReplayInputError, InputError) as exc:
                unreadable.append(str(exc))
                continue
            try:  # a body holding several responses (a multi-step capture) is several cases
                calls = [one for e in exchanges for one in per_response(e, resolve_provider(e, provider)[1])]
            except ReplayInputError as exc:
                unreadable.append(f"{path}: {exc}")
                continue
            shown = f"{root.name}/{provider}/{path.name}"
            cases += [
                CassetteCase(f"cassette/{path.stem}#{n}", provider, shown, e) for n, e in enumerate(calls)
            ]
    return cases, unreadable
