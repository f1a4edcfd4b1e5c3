"""The official SDKs as stream oracles: the same bytes, their accumulation against ours.

Why: our output adapters are hand-written state machines; each provider's official SDK
ships its own accumulator (openai ``get_final_completion``/``get_final_response``,
anthropic ``get_final_message``). Serving the recorded bytes to the real client through an
``httpx2.MockTransport`` (notes/oracles.md, section 3) gives an independent final
message for every recording, offline. google-genai has no accumulator: its oracle is the
list of parsed chunks, so our Gemini merge rules are ours alone (``gemini-merge``).

Both results are projected onto one shape (``project_sdk``, ``project_ours``): parts in
order (text; thinking text with its unit id; signatures as decoded bytes, so standard and
URL-safe base64 agree; tool calls with id, name, JSON-equal arguments and item id), the
canonical stop reason, token usage, response id, the model ids on reasoning parts, and
error events. ``compare`` then applies ``DIFFERENCES``, the one list of deliberate
differences, each a narrow named normalisation that only rewrites what its rule
explains; whatever still differs is a disagreement.

    sdk = sdk_accumulate("anthropic", body)
    verdict = compare("anthropic", parse_bytes(PARSER, body), sdk, body)
    verdict.ok, verdict.mismatches, verdict.applied

One module per job: ``accumulate`` (both accumulations), ``projection``, ``differences``,
``compare`` (the verdict and the ``crosscheck`` driver) and ``calls`` (recorded model calls).
"""

from __future__ import annotations

from harness.contract.providers import PROVIDERS as PROVIDERS
from harness.crosscheck.accumulate import SdkResult as SdkResult
from harness.crosscheck.accumulate import ours as ours
from harness.crosscheck.accumulate import sdk_accumulate as sdk_accumulate
from harness.crosscheck.calls import RecordedCall as RecordedCall
from harness.crosscheck.calls import recorded_calls as recorded_calls
from harness.crosscheck.calls import split_calls as split_calls
from harness.crosscheck.compare import SdkComparison as SdkComparison
from harness.crosscheck.compare import compare as compare
from harness.crosscheck.compare import crosscheck as crosscheck
from harness.crosscheck.differences import DIFFERENCES as DIFFERENCES
from harness.crosscheck.differences import Context as Context
from harness.crosscheck.differences import SdkDifference as SdkDifference
from harness.crosscheck.projection import decode_signature as decode_signature
from harness.crosscheck.projection import project_ours as project_ours
from harness.crosscheck.projection import project_sdk as project_sdk

__all__ = [
    "DIFFERENCES",
    "PROVIDERS",
    "Context",
    "RecordedCall",
    "SdkComparison",
    "SdkDifference",
    "SdkResult",
    "compare",
    "crosscheck",
    "decode_signature",
    "ours",
    "project_ours",
    "project_sdk",
    "recorded_calls",
    "sdk_accumulate",
    "split_calls",
]
