"""Independent schema oracles for provider request bodies (invariant I12).

Two oracles judge a request body for a provider id, neither written by us:

- ``spec``: the provider's published schema, vendored under ``specs/`` (``spec.py``);
- ``sdk``: the official SDK's request types, made strict (``sdk.py``).

Known quirks of either are tolerated only through the registry of accepted differences
(``harness.accepted``, applied by ``allowances.py``). Everything is
built once, on first use, and reused: a check costs microseconds (spec) to well under
a millisecond (sdk) after that.

    report = validate("anthropic", body)
    report.ok, report.errors, report.allowed  # bool, [OracleError], [(OracleError, allowance id)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from harness.contract.providers import PROVIDERS
from harness.oracles.allowances import apply_defaults, find_allowance
from harness.oracles.normalise import normalise_body
from harness.oracles.sdk import SDK_TARGETS, sdk_oracle
from harness.oracles.spec_targets import SPEC_TARGETS, spec_oracle
from harness.oracles.unions import collapse_unions

__all__ = [
    "ORACLES",
    "PROVIDERS",
    "OracleError",
    "OracleReport",
    "could_not_judge",
    "describe",
    "prepare",
    "validate",
]

ORACLES: tuple[str, ...] = ("spec", "sdk")
_MAX_ERRORS = 25  # per oracle, after allowances


@dataclass(frozen=True)
class OracleError:
    """One violation: which oracle, where in the body (``/``-joined path), what."""

    oracle: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"[{self.oracle}] {self.path or '<root>'}: {self.message}"


@dataclass(frozen=True)
class OracleReport:
    """The verdict on one body: failures, and errors tolerated by a named allowance."""

    provider: str
    errors: list[OracleError] = field(default_factory=lambda: [])
    allowed: list[tuple[OracleError, str]] = field(default_factory=lambda: [])
    #: Oracles that have nothing to check this provider against (a dialect with no published
    #: schema or SDK): not run, and never a pass.
    skipped: list[str] = field(default_factory=lambda: [])

    @property
    def ok(self) -> bool:
        return not self.errors

    def __str__(self) -> str:
        lines = [f"{self.provider}: {'ok' if self.ok else f'{len(self.errors)} error(s)'}"]
        lines += [f"  {e}" for e in self.errors]
        lines += [f"  allowed ({aid}): {e}" for e, aid in self.allowed]
        return "\n".join(lines)


def describe(provider: str) -> dict[str, str]:
    """What each oracle checks a provider's body against (for reports and docs)."""
    targets = {"spec": SPEC_TARGETS.get(provider), "sdk": SDK_TARGETS.get(provider)}
    return {oracle: target[0] if target else "none (not run)" for oracle, target in targets.items()}


class _MissingOracle(RuntimeError):
    """The SDK oracle cannot be built here (the ``oracles`` extra is not installed): a broken judge, loud."""


def could_not_judge(what: str, exc: BaseException) -> str:
    """The one message of a judge that raised on a body (``what``: oracle, rule...), one line, bounded."""
    detail = " ".join(str(exc).split())
    detail = detail if len(detail) <= 200 else detail[:197] + "..."
    return f"the {what} could not judge this body: {type(exc).__name__}" + (f": {detail}" if detail else "")


def _check(oracle: str, provider: str, body: dict[str, Any]) -> list[tuple[str, str]]:
    if oracle == "spec":
        return spec_oracle(provider).errors(body)
    if oracle == "sdk":
        try:
            built = sdk_oracle(provider)
        except ImportError as e:  # the SDKs are the optional `oracles` extra
            raise _MissingOracle(
                f"the sdk oracle needs the provider SDKs: install llm-wire-harness[oracles] ({e})"
            ) from e
        return built.errors(body)
    raise AssertionError(oracle)  # validate() refuses unknown oracle names before judging


def prepare() -> None:
    """Build every oracle now, not on first use: a process about to fork workers that judge any
    provider builds them once, and the workers share them instead of each building its own.
    An SDK that is not installed is left to fail where it is needed (``validate``), loudly."""
    for provider in SPEC_TARGETS:
        spec_oracle(provider)
    for provider in SDK_TARGETS:
        try:
            sdk_oracle(provider)
        except ImportError:
            continue


def validate(
    provider: str, body: dict[str, Any], *, oracles: Iterable[str] = ORACLES, host: str | None = None
) -> OracleReport:
    """Judge a request body with each oracle; the body is not modified.

    The body is first read the way the provider's parser reads it (``normalise.py``:
    Gemini's proto3 snake_case names), so a spelling the API accepts never fails, and
    fields the API fills in when absent are filled in (the registry's ``absent`` entries, each
    reported in ``allowed`` under its id, once per oracle).
    ``host`` (where the request goes) enables the allowances of OpenAI-compatible hosts.
    """
    if provider not in PROVIDERS:
        raise ValueError(f"unknown provider {provider!r} (expected one of: {', '.join(PROVIDERS)})")
    oracles = tuple(oracles)
    unknown = [o for o in oracles if o not in ORACLES]
    if unknown:
        raise ValueError(f"unknown oracle {unknown[0]!r} (expected one of: {', '.join(ORACLES)})")
    try:
        body, filled = apply_defaults(provider, normalise_body(provider, body))
    except Exception as exc:  # a body the reading itself breaks on: one error, the oracles not run
        first = next((o for o in oracles if provider in (SPEC_TARGETS if o == "spec" else SDK_TARGETS)), None)
        if first is None:
            return OracleReport(provider, skipped=list(oracles))
        return OracleReport(provider, [OracleError(first, "", could_not_judge("oracle", exc))])
    errors: list[OracleError] = []
    allowed: list[tuple[OracleError, str]] = []
    skipped: list[str] = []
    for oracle in oracles:
        if provider not in (SPEC_TARGETS if oracle == "spec" else SDK_TARGETS):
            skipped.append(oracle)
            continue
        failed: list[OracleError] = []
        allowed += [(OracleError(oracle, path, "absent; the API fills it in"), did) for path, did in filled]
        try:
            found = collapse_unions(oracle, _check(oracle, provider, body), body)
        except _MissingOracle:
            raise
        except Exception as exc:  # an oracle that breaks on a body is one error on that body, never a crash
            errors.append(OracleError(oracle, "", could_not_judge("oracle", exc)))
            continue
        for path, message in found:
            error = OracleError(oracle, path, message)
            allowance = find_allowance(provider, oracle, path, message, body, host)
            if allowance is None:
                failed.append(error)
            else:
                allowed.append((error, allowance.id))
        if len(failed) > _MAX_ERRORS:
            more = OracleError(oracle, "", f"... {len(failed) - _MAX_ERRORS} more errors")
            failed = [*failed[:_MAX_ERRORS], more]
        errors += failed
    return OracleReport(provider, errors, allowed, skipped)
