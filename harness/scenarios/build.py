"""Build the scenario corpus from Python model objects and write it as package data.

Each scenario is a function below: its name is the scenario name, its docstring the
one-line description, its decorator the tags. ``python -m harness.scenarios.build``
rewrites ``data/<name>.jsonl`` and ``catalog.json`` deterministically (``--check``
only compares), and tests/test_scenarios.py fails when the committed data differs,
so every scenario is reviewable as code and as data.

Values marked REAL below are copied byte-for-byte from the recordings in
shared/realstreams (public test suites: pydantic/pydantic-ai MIT, vercel/ai Apache-2.0,
simonw/llm-anthropic Apache-2.0); everything else is written here. Synthetic
signatures are deterministic stand-ins made by ``fake_signature``/``fake_encrypted``.
"""

# The corpus quotes real model output and tests non-ASCII text on purpose (curly quotes,
# fullwidth punctuation, mathematical letters), so "ambiguous character" warnings are noise here.
# ruff: noqa: RUF001

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from harness.codec import dumps_history
from harness.model import (
    AssistantMessage,
    DeveloperMessage,
    ErrorEvent,
    HistoryEvent,
    ImageFilePart,
    ImageURLPart,
    StopReason,
    SystemMessage,
    TaskMetadataEvent,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    ToolStatus,
    Usage,
    UserMessage,
)
from harness.params import CallParams, ThinkingParams, ToolSpec
from harness.scenarios import TAGS, Scenario

__all__ = ["REAL_SIGNATURES", "build_scenarios", "main", "render_files"]

PACKAGE_DIR = Path(__file__).resolve().parent

# ---------------------------------------------------------------- helpers

Body = tuple[CallParams, list[HistoryEvent]]
_BUILDERS: list[tuple[Callable[[], Body], tuple[str, ...]]] = []


def scenario(*tags: str) -> Callable[[Callable[[], Body]], Callable[[], Body]]:
    """Register a scenario function; unknown tags fail at import so typos cannot hide."""
    unknown = sorted(set(tags) - TAGS)
    if unknown:
        raise ValueError(f"unknown tags {unknown}")

    def register(fn: Callable[[], Body]) -> Callable[[], Body]:
        _BUILDERS.append((fn, tuple(sorted(set(tags)))))
        return fn

    return register


def t(text: str) -> TextPart:
    return TextPart(text=text)


def user(*parts: str | TextPart | ImageURLPart | ImageFilePart, **kw: object) -> UserMessage:
    """A user message; plain strings become text parts."""
    return UserMessage.model_validate({"parts": [t(p) if isinstance(p, str) else p for p in parts], **kw})


def developer(*parts: str | TextPart | ImageURLPart | ImageFilePart, **kw: object) -> DeveloperMessage:
    return DeveloperMessage.model_validate(
        {"parts": [t(p) if isinstance(p, str) else p for p in parts], **kw}
    )


def system(text: str) -> SystemMessage:
    return SystemMessage(parts=[t(text)])


AssistantPart = (
    TextPart | ImageURLPart | ImageFilePart | ThinkingTextPart | ThinkingSignaturePart | ToolCallPart
)


def assistant(
    *parts: str | AssistantPart,
    stop: StopReason,
    usage: Usage,
    response_id: str | None = None,
    created_at: datetime | None = None,
) -> AssistantMessage:
    return AssistantMessage(
        parts=[t(p) if isinstance(p, str) else p for p in parts],
        stop_reason=stop,
        usage=usage,
        response_id=response_id,
        created_at=created_at,
    )


def usage(
    input_tokens: int,
    output_tokens: int,
    *,
    cached: int | None = None,
    cache_creation: int | None = None,
    reasoning: int | None = None,
) -> Usage:
    """Usage as the output adapters report it; ``input_tokens`` includes cached tokens."""
    return Usage(
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cached_input_tokens=cached,
        cache_creation_input_tokens=cache_creation,
        reasoning_tokens=reasoning,
        total_tokens=input_tokens + output_tokens,
    )


def call(
    call_id: str, name: str, arguments: str | dict[str, object], item_id: str | None = None
) -> ToolCallPart:
    """A tool call; a dict is encoded compactly, a string is kept verbatim (it may be "" or invalid)."""
    args = (
        arguments
        if isinstance(arguments, str)
        else json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))
    )
    return ToolCallPart(call_id=call_id, tool_name=name, arguments_json=args, item_id=item_id)


def result(
    of: ToolCallPart,
    output: str,
    status: ToolStatus = "success",
    *,
    images: Sequence[ImageURLPart | ImageFilePart] = (),
    created_at: datetime | None = None,
) -> ToolResultMessage:
    """The result of ``of``: same call id and tool name, so pairing is right by construction."""
    return ToolResultMessage(
        call_id=of.call_id,
        tool_name=of.tool_name,
        status=status,
        output_text=output,
        parts=list(images),
        created_at=created_at,
    )


def thinking(text: str, model: str, id: str | None = None) -> ThinkingTextPart:
    return ThinkingTextPart(text=text, model_id=model, id=id)


def signature(value: str, fmt: str, model: str, id: str | None = None) -> ThinkingSignaturePart:
    return ThinkingSignaturePart(signature=value, format=fmt, model_id=model, id=id)


def fake_signature(seed: str, size: int = 240) -> str:
    """A deterministic stand-in for an opaque signature: standard base64, like Anthropic/Gemini ones."""
    return base64.b64encode(hashlib.shake_256(seed.encode()).digest(size)).decode()


def fake_encrypted(seed: str, size: int = 720) -> str:
    """A deterministic stand-in for Responses ``encrypted_content`` (Fernet-like ``gAAAAAB`` + base64url)."""
    return "gAAAAAB" + base64.urlsafe_b64encode(hashlib.shake_256(seed.encode()).digest(size)).decode()


def fake_id(prefix: str, seed: str, length: int) -> str:
    """A deterministic provider-style id (``rs_``/``fc_`` hex, ``toolu_`` base62-ish)."""
    digest = hashlib.sha256(seed.encode()).hexdigest() * 2
    return prefix + digest[: length - len(prefix)]


def at(minute: int, second: int = 0) -> datetime:
    """A fixed UTC timestamp (history files must be byte-stable)."""
    return datetime(2025, 11, 3, 9, 0, 0, tzinfo=UTC) + timedelta(minutes=minute, seconds=second)


def tool(
    name: str, description: str, properties: dict[str, object], required: Sequence[str] = ()
) -> ToolSpec:
    schema: dict[str, object] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return ToolSpec.model_validate({"name": name, "description": description, "parameters": schema})


STR: dict[str, object] = {"type": "string"}

# A valid 1x1 red PNG (69 bytes) and a 1x1 blue one, as data URLs.
RED_PIXEL_PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC"
BLUE_PIXEL_PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mNgYPgPAAEDAQA2dBFAAAAAAElFTkSuQmCC"
HTTP_IMAGE_URL = "https://upload.wikimedia.org/wikipedia/commons/4/47/PNG_transparency_demonstration_1.png"

CLAUDE = "claude-sonnet-4-5-20250929"
CLAUDE_4 = "claude-sonnet-4-20250514"
CLAUDE_37 = "claude-3-7-sonnet-20250219"
CODEX = "gpt-5.1-codex-max"
GPT55 = "gpt-5.5-2026-04-23"
GEMINI_25 = "gemini-2.5-pro"
GEMINI_3 = "gemini-3-pro-preview"
OR_CLAUDE = "anthropic/claude-sonnet-4.5"
OR_O3 = "openai/o3"

# ---------------------------------------------------------------- REAL tokens from shared/realstreams

# anthropic/pai__sonnet45_thinking_tool_use_roundtrip.yaml (claude-sonnet-4-5-20250929)
ANTHROPIC_SONNET45_THINKING = 'The user wants to know the temperature in Utrecht. I have a tool called "get_temperature" that takes a city parameter. I should use this tool with "Utrecht" as the city parameter.'
ANTHROPIC_SONNET45_SIGNATURE = "EqsDCpQBCBAYAipALuXGgP6l1QabSDWWAZc410nWLu9LyT4p7JAW9nWaioEZ+XZ8fZ4uCjDHgpEAiJsOwFAoDyT1FybLywxT/xiabzIaY2xhdWRlLXNvbm5ldC00LTUtMjAyNTA5Mjk4AEIIdGhpbmtpbmdaJGYwMjI0OGY4LWNlYmEtNGU2Yy1iZTcwLTIwZmQ3MjllYzhhMRIMELnQUeQ34DKlTZPDGgyKLFoiOWPIhXeWjUAiMMaUfXC3n+toNR8dzKlBqj1KcwQprsDjy0W402l7JbZNAvi/GZvQqOEI3Z7EdQbiYyrDATaclMnhOZwN9aoHRYIAHoG23b779FdJ3YOGsNjdOvNAX5doVtKXTX+Xkq9dEoTEjFbAs5cxkTKEjuAdRqClgWsd3R9j4RuzrdP0DtEfoTwSj56nNMZ+6skEAnFJvlhG7XaUl7tiZe4CVYIAxFaAYceQdAWy0rt0cwAZhlZrwtblHLfeZfdGYj6kgyJYRuHIuRUsW8nz5ZSiXjQQ+gJwep3qtUFRjs9d53/vOjolYpMajR5ZiNJPzYO99MZIVLA5VHuqHxgB"

# anthropic/pai__sonnet40_thinking_then_text.yaml (claude-sonnet-4-20250514)
ANTHROPIC_SONNET40_THINKING = "This is a straightforward question about pedestrian safety. I should provide clear, helpful advice about how to safely cross a street. This is basic safety information that could help prevent accidents."
ANTHROPIC_SONNET40_SIGNATURE = "EvMCCkYICxgCKkCHP2cSuEdcJK/0rFwqES/ecn+VurRpNTwI4XNyM0vnNfGsc9OmE8YYHauwBZ/uaRpmlEn2I4/kszHlcpptO82JEgyRMSbPkJYaegxYF3AaDHZbSm9EzZ6CM+YtliIw3iNVP/ilYrfoneo8S2+ad/5xSC62nKbk6joLtKmqXgXwYFJRpjIUjM2V7EGReOPRKtoBKfNHVmdNf7SeMhHalX/ObSeJ1G/NjDyGQAsDjyHGd7uY1r5gAIn3Cpdv5r+gHYJmWT+w2uiKZsBDRoSf4O3Km0l752EhPD4InEhqpCKyqhbUZ3dt5+JVKQHk2iyTBhQMB/XBYgZTstIpRqQRXU5ypcrydgnqj3mD1G9C7YC0ZTCNvFluAx0OL8q+cQwufgfqKquLEf2+XMYzhx9jYkVFEpnf/s1nx6gNBATKfF3Dmrs2r4tWu2QJB+FjlRuDp/8dxUxgJbmyhGxb7XsYeb1vgb7wwzDvP/UhjfQYAQ=="

# openai-responses/vercelai__openai-reasoning-encrypted-content.1.chunks.txt (gpt-5.1-codex-max)
RESPONSES_CODEX_RS_ID = "rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9"
RESPONSES_CODEX_ENCRYPTED = "gAAAAABpPDIVOKrsHNZ0GwsoEKA_IGfuJ5f8Ma_6-EojH4yZFL50qlfUzM7FREdQlpkqlnIHLRx2YJxZfzvbnc0E3J_yvIuoeoGQp2hYUfiV5XWs5d0XfqJps9ZgtUBRR1dqB43ooABehaMjM6BjaSGz-3PeUHZfedawAcRKhdJuLF1Q2YPL0OI4i97zy3O1u_2ypHd9JTE1pWoJMwPqx3myOs1_eeg5_yzgiQ0WsRHLvginFvEUyt-N7uxubO6bHfSN_TVTyXiDhCI6lf1v1r8ElDAkFfpbEKvIhUs4SGhykBWkYauqsB9B79Nfr6gwmaUnRGAct8ZsX394UVAqqokBqLIB8EzDjckb5EkUh0F33Ye_9-Nyjo7zLN_gTGxf3JI5DxsbFsZAylpEsEAX6_UbH0o3-2dfy_p9_rgNUNfQmg4nty8z0ZIKdEC7hihyD-4gj7lRYEKcDhQmDVKJW-6asLIpFVoX65yJRo-xOBPf3lLzXczlXWvvYiooHFAF5h1YFFzfjS8pnXkpnq-cFS4Ot8i63pAKgTcRMQEgOB1AxjXOX-QRnX_ncyJmYDVAl-Q7zJwc2cynXXCiaoYfaFxN0P26An7bV18Dwrz3ed-hd-mKUQM_nS9z59kyvCb8Ug7KxD10Me8jyzOFXgtmb76vTRxa7zjMdQhoGE2wRO348n28yM4flAKqUS7b0TsUljeSSnoBXMJSqpuqKXrpmLWjt8_Ws9dEgP3ql8QcQwnQ5QAePNXoleQGBjiF_C5WI8Qoyd6yxFcYM939msh9gfA94QAQiMB7-KUpmo_8ViQOVAggnt1QlXXHrrHuEDDgL2l42_aAIVL3GlHCuSlIChiET8y2iRZmxhDoEg61zQAuknapDM8-5POFTRcbniqN6eHJjxKOJpD45JkH1HYAOHAX3llk6M1MNx_YkYc7mOXmcPIHUYvHOjTv7dAhntZhxn4iHXHRvFRd22b4pUNxSPHDJQ8_UgJ0OgCZIoy1axBR84rbicty4RCaGkbotBee75SdYcE__rOXQxSo_8XMnObfNxat0wz4uQ=="
RESPONSES_CODEX_SUMMARY = "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product."

# openai-responses/pai__gpt55_reasoning_function_call_phase_roundtrip.yaml (gpt-5.5, empty summary)
RESPONSES_GPT55_RS_ID = "rs_0fabc13af1ee0049006a691dfe60b081a1baa444d3cf19afba"
RESPONSES_GPT55_ENCRYPTED = "gAAAAABqaR3-pGgSyJcPT3y2_26v61vCZmE9M2P6q5LyFcAkcT7vldTwqVUWc757s4uFB6vneHEoMEnkg-fXJlIWoxAM9ZP5ZehA4u0By_HQz7X5TqeAu4UNdryzz-x3Ks0uWUqT710mc2sH145ky0kHIJgDlX-aYjSV5tkfRqhNcoQgYz8lUIvkYQ0CJDAFEFWnriCziPD9SvN_jxGnrCGE5GDqY_m1AQOd1lVfCiIq1MLWyhCXy9eK81a8ZdKAJxOZEgdCfX-oCQXR_FXuNkW4_O0hdlEzNRhBZwc2ysJn30E7Vr8u-KJcULRUmtKriMiiu2K9FjZyQ8_xXUlcCUWPGsr-KhpW_BHO9nL8X_aj3M6wUvDDNpQWUgiKMT2gOYgtVLQfM8f1nWlIfFdWEhZCMThp7oW3FZccA3tHOBE9_TR4UcmrQwHTR3zBA4KHx3QXiPI7zuExP1UAkQClqZsS-h7uAPHqegpyOe6oL0DpoMbl6Mps1xiwewe8jKH_Aus4XvWBsOdpuFPkEOVY9Pe1C-OEVeT5Qmzcm3KuZok_sakubBCc9FRiKaNPAej8xQg-YXJX1j9ZYK2vHJG-pu4ZLd2gIcI87X11xdUyMUmD1T66pe8JZwUskoLxLtkFefILyn8DoMJQkZ9IO2gdsHMsrFzJNfpst0u9KC5Wp3Y687Rh4vN4AlWFsCDYhhats5XcJU3TlpvTuVqacE2_FE_n6zUpr6mtB6sG_qHaeLwQJdaBs_09SzHmTcTPQ_DLrQvKu2UNebLgI7WWOTBjOD7UcZKj5Sd_F6LvAEvh8a_LwCz-oX_Nd87MfVRFmuKklzWMYMEKo1ocgsAoJOaawHdBMultF0o_01shTly4iYVBoBkki4uxmP_ORd0LQsV4o6A_Eiwqk8qEnI4_7D2tzIRsrfDxlEaP17-_IRHTdHw4Ax2FwKYbMyM3KZdtYnZ0eeDaT0z24RfqwL2WX8gH3bRMVr8KDNeapLG8EF3z9oK9sjeOTIo-3fXyY_ZEMBEvq5dzsZfosl_9EyRon0TlCVC7IUPEPgeI-QScqnYrFieJls_UcqGK8PU="

# gemini/pai__gemini25pro_thought_parts.yaml (gemini-2.5-pro): signature on the first answer text part
GEMINI25_TEXT_SIGNATURE = "CiIB0e2Kb6Syj1a961EfbWv4W5C8RgAA/hGleV9VYJtnJFh4CmkB0e2Kb2qMva5NvDLuUvN8VpUjtONdaccbsRQ79+XvVh1AFoHjMdZAETCTSMzbyNktSx0w0C4lJFdld7kI+5ebYSU7ohQP0bDh4gC2w/yL8P7jC2EsgTI4V81lh0geK/9ktUxg6zkbP+oKfQHR7Ypv9395FWZW4+/829hMAush43zw0QshgLy6gCngMYKmJrtYtvjZ2FP5xIvfU/PPHfldzCim2+UQKze4+cLUk/bFJc5W3G5s5bIq/ERKUf5W1Wj62ZLqlu8AI1K+XRQh80EHvayt1im86y2goz+a/+5OsUTwkGpS/6UPCpkBAdHtim8jtCeEvH7amxWDHJTFu6fBt+wX03WIl/Dsn1uTOL9MHR4x5L1AOm+45iJlxdoGIlXtR5bijCGoRpOQVc7WNT9Dt9q0FYEycA85mum+GxJBN9/yug6ULAxmQ55TFNaAwqveUoB2WOj0l4aYPFxZKnBRXoWkiUDmkYBqWg0/JpJVLG/Lh4oQx9DGXpSA7sHsFXO/0J7TCqkBAdHtim/2mGLbQSFLeexCigBRypMkOioMaTMH/brwjRBwzqu1oOqiFjoC1hX1KEehhWRUvL5ytBF3hmtadCs5yRUAcaClTylOT7ac9o9X2Zew5PdlV3uJhQJyclrZq7v3/T7FpzNxtXnW04nyyN1xTOhhnQreeQktmeOG7/eTpZfQbkauZ4ktcTWVQrN1cqUMmcLRhATxDv1JmVKZMzFt/TZ1TOiQ0P+MrgqTAQHR7Ypvect1e/TIFJ1Iv4IHEAK/oNS9iboCWraGGK9LaS7Jve67/GnTGqXB8lnyUdI6VKol/B8mhK2j8GkGrz3i8jyZzUmaVG+1cQKgSR5S9Ydc2XIZA+RD03o5WwgCCUoCnCX1ibQBvDfhnfH2hoQgBqHfIhlsJbnlnE5/daAK+0in+4riONRWNwYrfSd9cPtKfwqOAQHR7YpvF/32Xtcd64G3KIWgzlOuJyrDJtlDRiDr7L/HXp27AkJ9tQLihyGDLNXPumfulkyXMj6fJ6/yVJA7iChdXSrBLN5cstCy5fTmKToBNB1Jy6DMeVq3EEiLwvWRFmmyaLPVhPdsv4caiFk+zIkyZyqNl+b+I5aO7C3zgCQLBz03BJi4e5iY6UYBitwKjgEB0e2Kb40Mzzj3wRl+zYIxmxKeBboY10T0xjUxKQuI5R0m5QckA/YouNyLyOHOgoYdSm3FxcqmzOuLfKGuopjxi3b8VpMcwyRe68+JnnXRqYRlioDaDoTiFMkX+cw/jVzSuezZ9TSlw3XFN1tQgB5qMxaYA+/SDoKdbGq/vrCX4bVsXZ2MDLDkHML2AhwLCp0BAdHtim9Oubf02UU50cfreIZlHR6hxe3tS8AiI+KuzVs3bPD6vuv8igK21QZHbOD17Sql+NCepOUELMizth1neQwTjtomXfHHBODfKVUJ4F20F0CNjhhlKt1aVS2+O6tvrS7aMVmvk3KRt0drrm5VR7pRNXA1oPJdhX1q3MhJDuqan7orvWh3YZ5WGFyEK9YuB5z0pgvYtDercaQ69wqRAQHR7YpvoATYq0iXLopzpIaEXcnZPLxyzHqpVnNqSn2fJRPmLQdspJUM62TsxpBeXAsR0F8yAv3wxuk25Lx84W2cnt20hFt+PbtGQVSM6KfE104XA0iHuidSwb9h5bcicQOQyzkIlrwosgo5FJyYQJFspMwDcHPt1H1xiW/yPaF8ZtL/ZXAomLouhq/bErZ84WEKigEB0e2Kbxs7yDL/L2OSWSIPGHnybOO+2mo9+7iQMARzd6a9AxjNvdTYKwn0iINhZ6Rx1TeVCW0w4UbYQF/ujzgmNtGHdPsEZ+M+5wMDu/U/8kpuWRJZVuJ48f3V19YQxU8Isq75n4AzaqXjK/KUFYeQJbGSfBS5EHrSwlQijhNIv8HQ+NVMj/Svf24KoQEB0e2Kb8FthNnzJDZ+f2+Lshah8D6O/QjfJGrnKvMMrUoUqX5ZqAxYg4R4UBirA6zvaFuKI0V6odeGwXWmPArIp5RC2NiEBaxCtwirXSe0amvaL0hk8CLkKy+brTrZiC7UCdiW6sLz5f9wrU50CdUH1P0jh5VDSuNXFkGBSiz8Yf8WL5DmOdnzs7/HSw8i99XzUdVdKCbzNrT8rXE1RveglgqAAQHR7YpvGr3dgHVESEDYAfaFXQI8ZCZUe3Cv2DmR3wBev2kMmRlixDyjRqXCgCw0EdXsJM8okkHj55sp6EZE0THrCxPCxaqUnALaaFSfh5AJiaC8bRZm/KUgL3I3phMtqSbIlKptGo03BLq9rz8bXgPc6Byiaic+wnfNUJQo8vO5CpQBAdHtim8C13z5v4gDZaJo9xgMLa+CPHKD2fTsBfVEIEJ7RI8G3C/6r6i7sJzvCAqsAC9pX+KgF2iGYM6kLxBRV+cuaV23OSVWqrd4uqBpIIrKjmN8423MHivDsEe6390BTRmSuev8N5SB6Bhdh7q6wzyblOaQ7VO+QpMt+HEfdlXCxtdwyQlQ0RdlHioAOem+VmtvhQqTAQHR7Ypv/TSKdwJl31A4G5XnObS4STu3FwdEdIECw6loDG2t5oTRnVJ69a93v2zNeNztp/LqUb7ptIN2UgileFq6Hiv5mNGpCNyThLSyGiN8JlHHAAEAzlnu2q+d97FxTv1zFMjIVfsWIKNrrr2PpJPv0sgYyYbsxuiOem4azhnFy2Q7ZVuI4xtQbQ/Mis6jNWiaWwqTAQHR7YpvsBQsV+yPEVR6uNrS0i1ToyFW1xp18q8Xzp151kDQbM3CTLxrJtrpi/Y1A/W38plOMMYTH/xZWf7o+PbvAIeXpEVRyZ2ST73gqacgZCRJYqgNybhATFzMMka4YF/ZQIKeYoT6L9mGpaSxeLzIVtiMxCdg5+FCLU4/rEWYoeaO0SXFGZOkcXC5IwmxP766MwqaAQHR7YpvCey4HxoWg4wh/pl5RL1x+GYt4okG+LPCIspPFmOE5ZL4L8CC+CnTmuppL25hGPBxjbTE0/Cld04d2cu+S4ajupggMXN6gt8N7BiAeRW0JWuWRM8kwD7XQ7Ngy8XG2kAIqjwEwX5e8qm6Bc4MrwziwLcjnwjK0M5zmBO7fU7qpMwcdONw06r9fJV1rHp8eicOJDRE48EKdQHR7YpvBby7jsEEGC9v0Ku5pIoeRcn84d7mWEHQnNWeFvX4AD3kp3/7PmxRCBvxHfa6k62zz5MsMwVGHHpU/PGsN/+mObu4tZcIlcPYXprM28wFDNkFgzo/9jprbR0lTAOhyQdkwYC1l+XjNQZgDSiSWHg5zgqKAQHR7YpvLo+F+bUs/EgO1F8w+oGBbMIur2LFu/ptvMzAjN4adrogDjtZvuIMxT9i4kOcGrhGkey5E4jtlzR4q2O46INZk7ubFInL2/TnknmR8uj0LEn08NQb6Qm8T6ftiApfpv5gKgGvGwJz6jttExkNq04DGpnKOF/iYJfk8a/604BVCogeAvSfrAqCAQHR7YpvRPJBA1auMRSVnz0MjIEkMP0Nfi30IUbhb4RLOaQZ5F6TdxociF2tLU92nDbHydkDgZhEQEEotia6xUl5tOrBABk1zASKkTTnLeNhi6JHBct3JuX3T5OxS4oKQzFlRySBZgvjQWk/H1MDQFoCQq7SofII6h/41DfCi0y+LJgKlwEB0e2KbzGjX2We98l4sdEf3aaVDmY2oka/8sUcEKXbPN12ip4hvdt8apDfdx+T3al50oabnNhl8Hd1G1FIlOr+oJWBH7+TfSLQ1vt1SczRX3QJwhBV145FhcO9+yHhuLVOvxk1QAI8onelLnX/oTSrKcAb6dQjj+kZOsYIq67Hoe2FXn5edxN0Bppg76TWp/PzoyFkiHwSCoYBAdHtim8Cqd73rN2h3De6n/c/CjZmfNYzx/NNgA2XrZzXeuB+DbPINOKNzHkzZQ1kYh1EjlTreIdpVhx58wI3zw1ec7x1u5G7oHDf26IhS85AjDcIXWn7Xp6k2fxJV4K7DzA0gclKmCJFqnzZUNZ7F0NL4vRObmBy/GIILvVP/sBzF2L4KdsKmgEB0e2Kb3zjJMWKJLl/uUxDaoveBXGzzz9mHV6aI65Ur8oIEAYUytuL/1p7YlWylkiBk7UPJ98FmC9TCd9An6f3N7oebwwiFnf7aMtjoKPfhgKPZaHNjRQOJi4egyLkdk/YfPYWDWyJMvDOUMuJtpFhf5oYzTsoYzTrwsw5zeh/n/YL/RISa7KgZwESq9dbXP396n5gEr8J/NwDCo4BAdHtim9xqhsvPCOmY7nmz2ijFtMSFQNd3buUFQRNM18N+knI1AXX/A01rlh29qcdxZIeQ+kN4YKOZoHfRxqlvhTyl/0AT6Q/jI/oWwGHdDdZwZCDE4n3ju1ZN2up2S4lsbXTqSTUKhD5qaV8dGktZAZ88mY8wuiJF2iOsE8uyCM247Z/Sz8fGsgP9Ets6QqOAQHR7Ypvl8gvPbQbGnn0iafjVSBDpHWhJU81msZg+qVjOyUJRmhF4lV97ds4lDpUtl52BwTyHNTlz4STXDMU8PdHpDZTMzMmJ3Qg3iJ/gYDXP5kpGqasQelo9yz0qvEIqeWsKV7tXGxY1njzrRYYEGl/4mmHo23XrS2U9hJPJBz8TMdFQDuw5wRarB9SJ7kKgAEB0e2Kb58mxC0KZgOB7u3f4m66IbHeDWR51Af08Ah+KH4EpcSRqt2iYXijH589mPTKEEJnSNcRkpm/rpRDo+NbYO83B7LB06R/J+JKq/hpzI9JSviv6YFkMMGgvhsWFkHvFN62OFG3y5w8id/IZfvl54z/0ApnTZO0DnVXo2b1vAp3AdHtim/ncRkntLVBoi+V6IJjKZ5Uwye9jnCLbQHyoWeQ0AzP7IWOnDMZLvT1VupfJysJgGuF9mzQVsFf86+abuNBOAUJXcjkTViqFoDEfWWTyZIlQ1dBa/s32qQvkCPQpPLb68rx9IcXpBh9KKaVE8wXn2FhZqgKkAEB0e2KbyzwhSOwreaWP7nfhxP76KGa8iSzUYupJ/IhYwIbi+hNPxOrGAmYoyYM4ywLFljv8IYoy5P4Ht4grxl6kQjUrGu4A0NlioV8UG7iKdZX+NwvIB2iwYKjRhLYz7uE1v4U0t4vGBL6a5W4ulic6Pw3MS2G2TJZRDnv47E6jTLUHlxLpwE7vgYjP/w0AZMKigEB0e2Kb2OtrSlqymij19/hNYnF5ZKclwE2c5hgwpgxqlt6KPIIwYlqyh1JlLrTrK7a/Kwm8RrBq9i90NX1TQbNDBf178fZ55MyyfT92yFzsjnpiqtUEmcLwWmVZpRzlNNugsHS7WG3gpjPKI2tXDy4oKkNCax2qu5zxsbAYjd0WmJhoHlixwu4kz8KlwEB0e2Kb+UXDHMn8p+kZ/6WmCYRbQ9wxkQlKYjbE+28G3g8HgTj/kyqu0ED0meRDCEfH4258605JMv88QSMW/xNXDWegZngBYCuz7izrHD5745Ps4PldgGptwqhs+3LxKqvAPQeYsU+Fllk60I/XuVtfcTAeZRQBy5v+OLzIjD7nSPL3njsDVKRmhyd4hmRLZRgV5Qi6WAHCqgBAdHtim+k265Inoii+qCLrUDth4v5RCK/+siGsm4QS3ACeGPY5UivNrimEsbCM8KuwFq8ykAUCplBUEI8HDI1+OXy7jUx7dNM3Dxvs/L7C7OxF3b3FCF2w7rEIO1MRyYfC/GwMlXdjrcvRBbIy2ZyOXj/C6bO5kO0LFGuxkhyDLyM8kcG9drbDpObNJAFOi7h5ZEXWESsP62fI6xfc2ykcc2Thd7grJ/fCpABAdHtim96cGLSuRmr5lCfmme0s/o7+9n2nSZ8ziW/BLgprp6fg5magVwqRa8L91eLzMHmHbwafd2sa0Ki+dgUWiqJRnItVfNPK1HaIO/r+EAw89KLXMtSgtaHDED2YL1WNsM2QBWnNlIET8ZjK/6BVDJk64eA96lp7m69m7WEbsQkd31f1q+pkEcVCdNg2/jgCk4B0e2Kb3o9fcDaQ0TzMW3qo00/kjGwr7xO/Mlmz30HuSaH48iO92G52Tdqn4Yy0e2GFCnk9JlNjRyjsqeWrw7oTiOIFZ1EgMKlqm/dH8k="
GEMINI25_SIGNED_TEXT = "This is a great question! Safely crossing the street is all about being aware and predictable. Here is a step-by-step"
GEMINI25_THOUGHTS = [
    "**Clarifying User Goals**\n\nI'm currently focused on defining the user's ultimate goal: ensuring their safety while crossing the street. I've pinpointed that this is a real-world scenario with significant safety considerations. However, I'm also mindful of my limitations as an AI and my inability to physically assist or visually assess the situation.\n\n\n",
    "**Developing a Safety Protocol**\n\nI'm now formulating a comprehensive safety procedure. I've pinpointed the essential first step: finding a safe crossing location, such as marked crosswalks or intersections. Stopping at the curb, and looking and listening for traffic are vital too. The rationale behind \"look left, right, then left again\" now needs further exploration. I'm focusing on crafting universally applicable and secure steps.\n\n\n",
    "**Prioritizing Safe Crossing**\n\nI've revised the procedure's initial step, emphasizing safe crossing zones (crosswalks, intersections). Next, I'm integrating the \"look left, right, then left\" sequence, considering why it's repeated. I'm focusing on crafting universal, safety-focused instructions that suit diverse situations and address my inherent limitations.\n\n\n",
    "**Crafting Safe Instructions**\n\nI've identified the core user intent: to learn safe street-crossing. Now, I'm focusing on crafting universally applicable steps. Finding safe crossing locations and looking-listening for traffic remain paramount. I'm prioritizing direct, clear language, addressing my limitations as an AI. I'm crafting advice that works generally, regardless of specific circumstances or locations.\n\n\n",
]

# gemini/pai__gemini3pro_functioncall_thoughtsig_roundtrip.yaml (gemini-3-pro-preview): on a functionCall
GEMINI3_FC_SIGNATURE = "EpwICpkIAXLI2nxlU6gsWZaZHRYkX1orzuM8vSUFwaAt1JRxEC2hJzPAcAu3PWaKz7X+PIyTTqF+ZIQPF+fQzkaRCbrxB0Qrem/xwR4S46oFxYiOF7EVa6pCBb9iu2uvCKrv5b7ezGzYqLD9glcNsLL3rA5OIsft4ec4qTT8NGd2SDdHB6WKrJ/K3rQHxoDQnB9JpnVTbtsaJoMWdFpnJcd7P7yxfdfgzO0aS6rGp+ch2yiKxsdQGan4QCdA0vCjfDcCBaxAuAVVaVSc6C7fioR1po2xPtQR/GJHzJuHKahKxN/X31DwhImJgP0WbFFCzZ8oLULvhSq3WDjEKmuSx5orPFDSud6Nr8ZN8UOn6GBkqQq3IKLdsdennT9L4HrABm3S7fpMyiuWPFhGFHPu3NAuny1UCgttcYp70Wk1tA+JefyvIHDlbrIJw+8NdDlsa0lBGEKmciCOT/b6+oZzsEQoMLzkp0R/3C/GVAIo2Jn7rYjfS9e9Kl+O2b3M0pcKW62qyjCa5oQJ/AmelBLKArd1UGJxs0YVWkoEfQnycE5lePgpATDMsYmGcHPSeiLxLq55tUPJ+xr1sHqSf87qm3Um2aNabuE+ti16GPeeWHWdQnDpEkr6sQma3BzaOeDq9n94Nrxxg/Fu2ZTFK+O2khOa3v48dDh+OVeaFKUFTL9A4ZIooRD94sEztEOvIlNexbNRWcc3MBf/bMUaJnx53Qj1p0N2FlJGBZlDmCRbiBXDM8umKyuiYA39woGI9j8gt5+M6UNfj2ot/hM8cCW86HrQEGt67+S02j4ncxHbQeBD8jSJCaN0Ah1HHQhHjV341ujEpBPF+F6JB2XtUyOHyr3hsQcuKDa27BFj2g1ojWKB/rffUc2eB0qlGBawwJQ09UnhHxjDW3qyXL/yHCXZLp8JPNBdRANLJ657TInHRksnmp7l5RxQJ0dd47pgi5VjN/08dQNsD/toXTnbcYuDcy0duEz53g4KF1cZyNuEg9kWYP1oMfOj8FrkGsyQh3+h8LQyIEvwqOrlmMjxSzJZXDbFGddHvIn5KasPKaR+T5AfxT1J3ex+pjIHoeBeAf/a8bmq3Z+gDalxa/kBIqT0KbYnAbtVk8Wq4vDZhDwYvkawPvSgFuFEhrhE8xZ3QJj7nofhWQJ+4DDVjujYlIrjBihUFvkPC2GUlrjQVNqJwhwTmZ7esjrMjx+QHtmtDNps5TZdhb1wXJ2LU2OJOYoILGhEZw0g1oeWgErSE0QUCO2EwBraenzWHlc8P2A7OGcRpE7KHdDYTuIJ9IbyeVMgeYowYXnxy7ElQ1CWkLSDHsbsptHrG9NTaRWdiAFwInb7nd1KrJVPvsNlnUfExbs8gd0IoxjaTjY1V7mjb2D/7NoL5owonoBDAXOk15QuFyU="

# openrouter/pai__or_claude45_reasoning_text_signature.yaml (anthropic/claude-sonnet-4.5)
OPENROUTER_CLAUDE45_SIGNATURE = "Et0BCkgIChACGAIqQA2s7h7tA7IG35fbwVkou9PM2hANVJNUwcEM4q12fTRDK6y3v6YoEvJ+7bko8wnW/GLsQFXadaJPAEMCpLkhI9ISDLjFkeR1aVUIvdCtyBoMrUTovh0jwk+wpnZWIjANV3e6VVdgbGSsEyyTHO6KMmVtqqs79f9blnVdJmmMIwMyTi6bEtG59+jTU7v1zlsqQ2IKGZILOlr6adh0Aam7zYttvisys+wjyZZXU1y/Srz0nmp1cFgVOJe1BLKQI3SSRrjsqQC0uAEUZy0GX0Rq1AXjvIcYAQ=="

# openrouter/pai__or_o3_reasoning_encrypted.yaml (openai/o3)
OPENROUTER_O3_RS_ID = "rs_0aa4f2c435e6d1dc0169082486816c8193a029b5fc4ef1764f"
OPENROUTER_O3_ENCRYPTED = "gAAAAABpCCSIBxdevbk-8QtJuf4C6mgqDwXaUXZGqXqKQRX62aYMAYCg7DbFt3-A3KE_tihu5b36YJmI6393LEIF7lTmdXSxaHgROpGQA6sDVpJHPzcfWvTv774-JhpsbKSxisRYKsPkR5SSsJMULqCQShe_ypqQokHmOw8xHW_9g6-LXfRvv24bGjWMN_Cf994O4EQH4ZtgHwlVweADjseXYi9ShekxcuLRiEHpL4FKcvm5tFmylbSovKuZcu1HTTPMDVcRCgn9D3c56KcHYJGm-WJXuG9DmUO1q97Qj4pSBbSblCBK3qt0V6vbiXRfhmTaOU0gYNXWkmdWyr0UZFj2K5Kq5x9CLdYEdKFW4iMnjeEGIAMcuVvGtQOC406lF6_CnmC-ktPmWRspnoJeBhxGAeviaAyHC7tKO7cTFPOft_sVhWA8xJGy1vfz-cOQh3JcGSjm62MzfFjxh2G2jHixqqyVBopgckt1mDTlr0sU3m7COFWb4hiPNo6fmxiWxiT-umwYdfZngQ4yUkvZiTzZLqhJJzNu90Xl4BNRS_GDJVVrEKgy4kIT-PH1l2iCvf1AHOpefJR1MvIql8jlbrqY8Y7agIpR8XhnHeiCVE_oQg25Zg7x73f6g18rSt_DN3C05tzQCDCvvK4hAIIzxbBoiByErLJGCTOTOH8U_8UJLWSWpo13Cr2reXb7bbVVxtGUacQlTZi01Sz6WHMqKUmACTcNI9EUOwa8nytbSdqifXwkwc0Qpeegu6ibR8Z6P155c0KaKKi-c2iDmug4oTxcwJRWXbP5AUi-cWSC1Mhn9GW7SfqjQRqVdu4N9KcZ4IzLoEyuZtpJTHlCxzcpmQhBiVPxP8BOh8cnrbcn7ebVL2QfMejQS-9MZH_0vHLsbrx75fPHhp9Env9Vfhwx4awImdtIpN0IRYO-qwyp_RI2eGpaHpr8NV7YmkRDd5EwB0ylqO2kTEMPdGhpauQNae4-5CYa4C2_5fi6gU-6KLArCAO3MnvH_40RCGxoPlSxy_t5XX3NubMjy_paiuyTC_fIbkWAtdrd6HsZlDfv_6aZFxe_8C2IPaAuaLRvNSdTsLgzBXHfMPeaccV3c0-fYshNTOEkcvfC5b_v0wXh4sv0rU8rD2Fa3gBVt2QssutrbS0KIv6S4ySa"

# the rest of the gemini-2.5-pro answer (text parts after the signed one, joined)
GEMINI25_REST_OF_ANSWER = " guide that is widely taught for safety:\n\n### 1. Find a Safe Place to Cross\nThe best place is always at a designated **crosswalk** or a **street corner/intersection**. These are places where drivers expect to see pedestrians. Avoid crossing in the middle of the block or from between parked cars.\n\n### 2. Stop at the Edge of the Curb\nStand on the sidewalk, a safe distance from the edge of the street. This gives you a clear view of the traffic without putting you in danger.\n\n### 3. Look and Listen for Traffic\nFollow the \"Left-Right-Left\" rule:\n*   **Look left** for the traffic that will be closest to you first.\n*   **Look right** for oncoming traffic in the other lane.\n*   **Look left again** to make sure nothing has changed.\n*   **Listen** for the sound of approaching vehicles that you might not be able to see.\n\n### 4. Wait for a Safe Gap\nWait until there is a large enough gap in traffic for you to walk all the way across. Don't assume a driver will stop for you. If you can, try to **make eye contact** with drivers to ensure they have seen you.\n\n### 5. Walk, Don't Run\nOnce it's safe:\n*   Walk straight across the street.\n*   **Keep looking and listening** for traffic as you cross. The situation can change quickly.\n*   **Don't use your phone** or wear headphones that block out the sound of traffic.\n\n---\n\n### Special Situations:\n\n*   **At a Traffic Light:** Wait for the pedestrian signal to show the \"Walk\" sign (often a symbol of a person walking). Even when the sign says to walk, you should still look left and right before crossing.\n*   **At a Stop Sign:** Wait for the car to come to a complete stop. Make eye contact with the driver before you step into the street to be sure they see you.\n\nThe most important rule is to **stay alert and be predictable**. Always assume a driver might not see you."
# the openai/o3 answer text
OPENROUTER_O3_ANSWER = "I’m ChatGPT, a large-language-model assistant created by OpenAI. I generate text responses and can help answer questions, explain concepts, brainstorm ideas, draft or edit writing, and more. While I strive to be accurate and helpful, I don’t have personal feelings or consciousness, and my knowledge is limited to the information I was trained on (most of it up to late 2023). If there’s something specific you’d like help with, just let me know!"
# the claude-sonnet-4-20250514 answer text
ANTHROPIC_SONNET40_ANSWER = "Here are the basic steps for safely crossing the street:\n\n**At intersections with traffic lights:**\n- Wait for the pedestrian \"Walk\" signal\n- Look both ways before stepping into the street\n- Make eye contact with drivers when possible\n- Stay alert for turning vehicles\n\n**At intersections without signals:**\n- Use crosswalks when available\n- Stop at the curb and look left, right, then left again\n- Wait for a clear gap in traffic\n- Walk briskly but don't run\n- Keep looking for traffic as you cross\n\n**General safety tips:**\n- Put away phones and remove headphones\n- Wear bright or reflective clothing in low light\n- Never assume drivers see you\n- Avoid crossing between parked cars\n- Walk facing traffic when there's no sidewalk\n\n**In busy urban areas:**\n- Follow pedestrian signals strictly\n- Be extra cautious of cyclists in bike lanes\n- Watch for buses and large vehicles with blind spots\n\nThe key is to be visible, alert, and predictable in your movements. Always prioritize safety over speed when crossing streets."

GEMINI3_CALL_ID = "pyd_ai_29bf73b69e02448588e15893d47a3e7e"  # REAL: the id pydantic-ai gave the Gemini call

# Every REAL signature / encrypted reasoning value above; the "real-tokens" tag means one of these is used.
REAL_SIGNATURES: frozenset[str] = frozenset(
    {
        ANTHROPIC_SONNET45_SIGNATURE,
        ANTHROPIC_SONNET40_SIGNATURE,
        RESPONSES_CODEX_ENCRYPTED,
        RESPONSES_GPT55_ENCRYPTED,
        GEMINI25_TEXT_SIGNATURE,
        GEMINI3_FC_SIGNATURE,
        OPENROUTER_CLAUDE45_SIGNATURE,
        OPENROUTER_O3_ENCRYPTED,
    }
)

# ---------------------------------------------------------------- plain chat and content parts


@scenario("plain", "plain-single-turn")
def plain_single_turn() -> Body:
    """A single user question and nothing else: the smallest request every provider must accept."""
    return CallParams(max_tokens=1024), [user("What is the capital of France?")]


@scenario("plain", "plain-multi-turn", "system-in-params")
def plain_multi_turn() -> Body:
    """Three user/assistant exchanges with a system prompt in params: alternation and system-once."""
    return CallParams(system="You are a concise travel assistant.", max_tokens=1024), [
        user("I'm planning three days in Lisbon. Which neighbourhoods are good to stay in?"),
        assistant(
            "Good bases are Baixa/Chiado (central, walkable), Alfama (historic, hilly) and Príncipe Real (quieter, leafy).",
            stop="stop",
            usage=usage(41, 38),
        ),
        user("Which of those is quietest at night?"),
        assistant(
            "Príncipe Real: it is residential, away from the Bairro Alto bars, and still a short walk from Chiado.",
            stop="stop",
            usage=usage(95, 29),
        ),
        user("How do I get there from the airport?"),
    ]


@scenario("images", "user-multipart", "image-http-url", "image-data-url")
def user_multipart_images() -> Body:
    """A user message interleaving text with an http image URL and a base64 PNG data URL (with an id)."""
    return CallParams(max_tokens=1024), [
        user(
            "Compare these two images.",
            ImageURLPart(url=HTTP_IMAGE_URL),
            "The second one is a single pixel I generated:",
            ImageURLPart(url=RED_PIXEL_PNG, id="img_01"),
        ),
        assistant(
            "The first shows two semi-transparent dice over a checkerboard; the second is one opaque red pixel.",
            stop="stop",
            usage=usage(1187, 27),
        ),
        user("Which of the two uses an alpha channel?"),
    ]


@scenario("images", "assistant-image-file")
def assistant_image_file() -> Body:
    """An assistant message whose parts include a generated image_file artifact, then a follow-up request."""
    return CallParams(), [
        user("Generate an 8x8 red PNG I can use as a placeholder favicon."),
        assistant(
            "Here is the placeholder:",
            ImageFilePart(
                file_path="/home/dev/site/.artifacts/img_0001.png",
                mime_type="image/png",
                byte_size=74,
                sha256="396f6aba97b0b4ac60a22cae643ef2df1676ab98050fa468bbcb1aadb69b9e44",
            ),
            stop="stop",
            usage=usage(22, 1290),
        ),
        user("Great. Now make a blue one of the same size."),
    ]


@scenario("text-empty", "text-whitespace")
def text_empty_and_whitespace() -> Body:
    """Empty and whitespace-only text parts in user and assistant messages, and a whitespace-only user message."""
    return CallParams(), [
        user("", "Please review the diff below.", "   \n\t  "),
        assistant("", "The diff looks correct to me.", "\n\n", stop="stop", usage=usage(18, 9)),
        user("   "),
        assistant("Did you mean to send something else?", stop="stop", usage=usage(31, 9)),
        user("Yes: ship it."),
    ]


@scenario("text-non-ascii", "tools", "tools-given", "tool-single")
def text_non_ascii() -> Body:
    """CJK, emoji ZWJ/flag sequences, RTL Arabic/Hebrew, combining marks, astral letters and U+2028 in text, tool args and output."""
    translate = call(
        "call_q2Vx8yTnR4mKd0LpWz7sHbCe", "translate", {"text": "Grüße aus Köln 🍺", "target": "ja"}
    )
    params = CallParams(
        tools=[
            tool(
                "translate",
                "Translate text into a target language.",
                {"text": STR, "target": STR},
                ["text", "target"],
            )
        ]
    )
    return params, [
        user(
            "東京は日本の首都です。要約してください。",
            "Emoji: 👩\u200d💻 🇳🇱 ✅ 🤷🏽\u200d♀️",
            "RTL: مرحبا بالعالم — שלום עולם (mixed with LTR 123).",
            "Combining marks: e\u0301 vs é, Z\u0324\u0354\u0367\u0311\u0313, ñ = n\u0303; astral: 𝔘𝔫𝔦𝔠𝔬𝔡𝔢.",
            "A line\u2028separator and a paragraph\u2029separator stay inside one JSON line.",
        ),
        assistant(
            "要約：東京は日本の首都です。Now translating your greeting — «Grüße» 🍺.",
            translate,
            stop="tool_use",
            usage=usage(212, 64),
        ),
        result(translate, "ケルンからのご挨拶 🍺"),
    ]


# ---------------------------------------------------------------- developer messages


@scenario("developer", "developer-after-user")
def developer_after_user() -> Body:
    """A developer reminder right after a user message: appended to that user message with a trailing newline."""
    return CallParams(), [
        user("Rename the function `parse` to `parse_config` everywhere."),
        developer(
            "<system-reminder>Plan mode is on: describe the changes and wait for approval before editing.</system-reminder>"
        ),
    ]


@scenario("developer", "developer-after-tool", "tools", "tool-single", "tools-derived")
def developer_after_tool_result() -> Body:
    """A developer reminder right after a tool result: appended to the tool result, never a message of its own."""
    read = call("toolu_01Hq3fZ8kWv2NcRtY6bLmPjA", "read_file", {"path": "pyproject.toml"})
    return CallParams(), [
        user("Which Python versions does this project support?"),
        assistant(read, stop="tool_use", usage=usage(1320, 52)),
        result(read, '[project]\nname = "weatherly"\nrequires-python = ">=3.11"\n'),
        developer(
            "<system-reminder>README.md was modified by the user while you were working.</system-reminder>"
        ),
    ]


@scenario("developer", "developer-after-user", "developer-image", "images", "image-data-url")
def developer_with_image() -> Body:
    """A developer message carrying text and a PNG data URL (a harness screenshot) after a user message."""
    return CallParams(), [
        user("Why does the login button look wrong?"),
        developer(
            "<system-reminder>Screenshot of the current browser tab, captured by the harness:</system-reminder>",
            ImageURLPart(url=RED_PIXEL_PNG),
        ),
    ]


@scenario("developer", "developer-at-start")
def developer_at_start() -> Body:
    """A developer message opening the history (nothing to attach to): sent as a user message, then a real user message."""
    return CallParams(), [
        developer(
            "<system-reminder>Project memory (AGENTS.md): use uv for everything; run the tests before committing.</system-reminder>"
        ),
        user("Add a --verbose flag to the CLI."),
    ]


@scenario("developer", "developer-after-assistant", "plain-multi-turn")
def developer_after_assistant() -> Body:
    """A developer message right after an assistant message: becomes a user message at its own position, next to a user message."""
    return CallParams(), [
        user("Is the build on main green?"),
        assistant("Yes: the last CI run on main passed all 412 tests.", stop="stop", usage=usage(2210, 17)),
        developer(
            "<system-reminder>Context window is 82% full; consider summarizing older turns.</system-reminder>"
        ),
        user("Good. Let's start on the release notes."),
    ]


@scenario("developer", "developer-after-user", "developer-ui-fields")
def developer_ui_only_fields() -> Body:
    """Developer messages with command_output, at_files and ui_extra: only their parts may reach a provider."""
    return CallParams(), [
        user("@src/app.py what does main() do? Also, is my tree clean?"),
        developer(
            "<system-reminder>Contents of src/app.py:\n```python\ndef main() -> None:\n    serve(port=8080)\n```\n</system-reminder>",
            at_files=["src/app.py"],
            ui_extra={"kind": "at_file", "collapsed": True, "line_count": 2},
        ),
        developer(
            "<system-reminder>The user ran `git status`; its output was shown to them.</system-reminder>",
            command_output="UI-ONLY: On branch main\nYour branch is up to date with 'origin/main'.\nnothing to commit, working tree clean",
            ui_extra={"kind": "bash_command", "command": "git status", "exit_code": 0},
        ),
    ]


# ---------------------------------------------------------------- thinking: native formats (REAL tokens)


@scenario("thinking", "signature-anthropic", "real-tokens", "tools", "tool-single", "tools-given")
def thinking_anthropic_tool_use() -> Body:
    """REAL claude-sonnet-4-5 thinking + signature + tool_use, then the tool result (the recorded turn-2 request, accepted)."""
    get_temperature = call("toolu_01TUGHRCfso8VSw9ekt21nAR", "get_temperature", {"city": "Utrecht"})
    params = CallParams(
        model=CLAUDE,
        max_tokens=4096,
        thinking=ThinkingParams(budget_tokens=1024),
        tools=[
            ToolSpec.model_validate(
                {
                    "name": "get_temperature",
                    "parameters": {
                        "additionalProperties": False,
                        "properties": {"city": STR},
                        "required": ["city"],
                        "type": "object",
                    },
                }
            )
        ],
    )
    return params, [
        user("How warm is it in Utrecht? Use the tool, then answer."),
        assistant(
            thinking(ANTHROPIC_SONNET45_THINKING, CLAUDE),
            signature(ANTHROPIC_SONNET45_SIGNATURE, "anthropic", CLAUDE),
            get_temperature,
            stop="tool_use",
            usage=usage(597, 101, cached=0, cache_creation=0, reasoning=45),
            response_id="msg_011CdoUewPGfNCZ2HiDjJzBP",
        ),
        result(get_temperature, "18°C"),
    ]


CALCULATOR = ToolSpec.model_validate(
    {
        "name": "calculator",
        "description": "A minimal calculator for basic arithmetic. Call it once per step.",
        "parameters": {
            "type": "object",
            "properties": {
                "a": {"type": "number", "description": "First operand."},
                "b": {"type": "number", "description": "Second operand."},
                "op": {
                    "type": "string",
                    "enum": ["add", "subtract", "multiply", "divide"],
                    "default": "add",
                    "description": "Arithmetic operation to perform.",
                },
            },
            "required": ["a", "b", "op"],
            "additionalProperties": False,
        },
    }
)


@scenario("thinking", "signature-openai-responses", "real-tokens", "tools", "tool-single", "tools-given")
def thinking_openai_responses_tool_chain() -> Body:
    """REAL gpt-5.1-codex-max reasoning item (rs_ id, summary, encrypted_content) and fc_ item ids across a 4-response calculator chain."""
    add = call(
        "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
        "calculator",
        '{"a":12,"b":7,"op":"add"}',
        "fc_01830d662ab3856501693c32151234819091cfca267e98cc5f",
    )
    mul3 = call(
        "call_Q6pW65MUgW9vF59BmItYGos3",
        "calculator",
        '{"a":19,"b":3,"op":"multiply"}',
        "fc_01830d662ab3856501693c32165be4819098c08f205f8932ef",
    )
    mul10 = call(
        "call_Zl5vIMnD7dVAjgU6FkhmiCZh",
        "calculator",
        '{"a":57,"b":10,"op":"multiply"}',
        "fc_01830d662ab3856501693c32173d5081908f2121e1c3ff2901",
    )
    params = CallParams(model=CODEX, thinking=ThinkingParams(effort="high"), tools=[CALCULATOR])
    return params, [
        user(
            "Use the calculator one step per call: add 12 and 7, multiply the result by 3, then multiply that by 10."
        ),
        assistant(
            thinking(RESPONSES_CODEX_SUMMARY, CODEX, id=RESPONSES_CODEX_RS_ID),
            signature(RESPONSES_CODEX_ENCRYPTED, "openai-responses", CODEX, id=RESPONSES_CODEX_RS_ID),
            add,
            stop="tool_use",
            usage=usage(134, 28, cached=0, reasoning=0),
            response_id="resp_01830d662ab3856501693c321345c88190b0de00f3b9975691",
        ),
        result(add, "19"),
        assistant(
            mul3,
            stop="tool_use",
            usage=usage(221, 26, cached=0, reasoning=0),
            response_id="resp_01830d662ab3856501693c3215903881909b710d150ff65014",
        ),
        result(mul3, "57"),
        assistant(
            mul10,
            stop="tool_use",
            usage=usage(260, 26, cached=0, reasoning=0),
            response_id="resp_01830d662ab3856501693c3216bef88190bf0e034cff24137b",
        ),
        result(mul10, "570"),
        assistant(
            "The final result is **570**.",
            stop="stop",
            usage=usage(299, 12, cached=0, reasoning=0),
            response_id="resp_01830d662ab3856501693c3217ba4c8190a3ddf6c839d4f12a",
        ),
        user("Now divide that by 4."),
    ]


@scenario("thinking", "signature-google-text", "real-tokens", "system-in-params")
def thinking_google_signature_on_text() -> Body:
    """REAL gemini-2.5-pro thought parts, then a thoughtSignature carried by the first answer text part (stands right after it)."""
    params = CallParams(
        model=GEMINI_25, system="You are a helpful assistant.", thinking=ThinkingParams(include_thoughts=True)
    )
    return params, [
        user("How do I cross the street?"),
        assistant(
            *(thinking(text, GEMINI_25) for text in GEMINI25_THOUGHTS),
            t(GEMINI25_SIGNED_TEXT),
            signature(GEMINI25_TEXT_SIGNATURE, "google", GEMINI_25),
            t(GEMINI25_REST_OF_ANSWER),
            stop="stop",
            usage=usage(34, 1256, reasoning=787),
            response_id="beHBaJfEMIi-qtsP3769-Q8",
        ),
        user("What changes when it is dark outside?"),
    ]


@scenario(
    "thinking",
    "signature-google-function-call",
    "real-tokens",
    "tools",
    "tool-single",
    "tools-given",
    "tool-args-empty-object",
)
def thinking_google_signature_on_function_call() -> Body:
    """REAL gemini-3-pro-preview functionCall with its thoughtSignature right after it, then the function response (recorded turn 2)."""
    get_country = call(GEMINI3_CALL_ID, "get_country", "{}")
    params = CallParams(
        model=GEMINI_3,
        tools=[
            ToolSpec.model_validate(
                {
                    "name": "get_country",
                    "parameters": {"additionalProperties": False, "properties": {}, "type": "object"},
                }
            )
        ],
    )
    return params, [
        user("What is the capital of the user country? Call the tool"),
        assistant(
            get_country,
            signature(GEMINI3_FC_SIGNATURE, "google", GEMINI_3),
            stop="tool_use",
            usage=usage(29, 212, reasoning=202),
            response_id="QUVVadTSNJ6_qtsPvN7J8Q0",
        ),
        result(get_country, "Mexico"),
    ]


@scenario("thinking", "signature-openrouter-anthropic", "real-tokens")
def thinking_openrouter_anthropic_claude_v1() -> Body:
    """REAL OpenRouter anthropic/claude-sonnet-4.5 reasoning text + signature (reasoning_details format anthropic-claude-v1)."""
    params = CallParams(model=OR_CLAUDE, thinking=ThinkingParams())
    return params, [
        user("What is 2+2?"),
        assistant(
            thinking("This is a simple arithmetic question. 2+2 equals 4.", OR_CLAUDE),
            signature(OPENROUTER_CLAUDE45_SIGNATURE, "anthropic-claude-v1", OR_CLAUDE),
            "2 + 2 = 4",
            stop="stop",
            usage=usage(43, 36, cached=0, reasoning=13),
            response_id="gen-1765226419-AGrwjunAftQIAgweibL8",
        ),
        user("And 2+3?"),
    ]


@scenario("thinking", "signature-openrouter-openai", "signature-orphan", "real-tokens")
def thinking_openrouter_openai_responses_v1() -> Body:
    """REAL OpenRouter openai/o3 reasoning.encrypted entry (format openai-responses-v1, rs_ id, no summary text) before the answer."""
    params = CallParams(model=OR_O3)
    return params, [
        user("Who are you"),
        assistant(
            signature(OPENROUTER_O3_ENCRYPTED, "openai-responses-v1", OR_O3, id=OPENROUTER_O3_RS_ID),
            OPENROUTER_O3_ANSWER,
            stop="stop",
            usage=usage(9, 104, cached=0, reasoning=0),
            response_id="gen-1762141316-q3fB64DDMstJO0ZakdSK",
        ),
        user("Can you look things up on the web?"),
    ]


@scenario(
    "thinking",
    "signature-orphan",
    "signature-openai-responses",
    "real-tokens",
    "tools",
    "tool-single",
    "tools-given",
    "system-in-params",
)
def signature_orphan_responses_no_summary() -> Body:
    """REAL gpt-5.5 reasoning item with an empty summary: a lone openai-responses signature (rs_ id) before text and a call."""
    get_capital = call(
        "call_LabG58Uhrq9kZvR52BYKjToD",
        "get_capital",
        '{"country":"PotatoLand"}',
        "fc_0fabc13af1ee0049006a691dff0c1481a1b4a0eec7e3c753bb",
    )
    params = CallParams(
        model=GPT55,
        system="Briefly narrate what you are about to do before calling each tool.",
        tools=[
            ToolSpec.model_validate(
                {
                    "name": "get_capital",
                    "parameters": {
                        "additionalProperties": False,
                        "properties": {"country": STR},
                        "required": ["country"],
                        "type": "object",
                    },
                }
            )
        ],
    )
    return params, [
        user("What is the capital of PotatoLand?"),
        assistant(
            signature(RESPONSES_GPT55_ENCRYPTED, "openai-responses", GPT55, id=RESPONSES_GPT55_RS_ID),
            "I’ll check the capital lookup tool for “PotatoLand.”",
            get_capital,
            stop="tool_use",
            usage=usage(63, 69, cached=0, reasoning=26),
            response_id="resp_0fabc13af1ee0049006a691dfdab8881a1a75f2db7ff78cb83",
        ),
        result(get_capital, "Potato City"),
    ]


# ---------------------------------------------------------------- thinking: structure and provenance


READ_FILE = tool("read_file", "Read a UTF-8 text file from the workspace.", {"path": STR}, ["path"])


@scenario("thinking", "signature-anthropic", "thinking-multiple-pairs", "tools", "tool-single", "tools-given")
def thinking_multiple_pairs_in_one_message() -> Body:
    """One claude message with thinking, signature, thinking, signature (synthetic signatures), then text and a tool call."""
    read = call("toolu_01Bv7XkP3sQeW9mZrT2yLcNd", "read_file", {"path": "src/utils.py"})
    params = CallParams(
        model=CLAUDE, max_tokens=8192, thinking=ThinkingParams(budget_tokens=4096), tools=[READ_FILE]
    )
    return params, [
        user("Is `retry()` in src/utils.py safe to call from async code?"),
        assistant(
            thinking(
                "The user asks whether retry() is async-safe. I should check whether it sleeps with time.sleep.",
                CLAUDE,
            ),
            signature(fake_signature("pairs-1"), "anthropic", CLAUDE),
            thinking(
                "If it uses time.sleep it blocks the event loop; an asyncio.sleep variant would be needed.",
                CLAUDE,
            ),
            signature(fake_signature("pairs-2"), "anthropic", CLAUDE),
            "Let me read the implementation.",
            read,
            stop="tool_use",
            usage=usage(1874, 161, cached=0, cache_creation=0, reasoning=88),
            response_id="msg_01Pq2WnYb8cRzK4tLmV7xDhS",
        ),
        result(
            read,
            "import time\n\n\ndef retry(fn, attempts=3, delay=0.5):\n    for i in range(attempts):\n        try:\n            return fn()\n        except OSError:\n            time.sleep(delay * 2**i)\n    return fn()\n",
        ),
    ]


@scenario(
    "thinking",
    "signature-openai-responses",
    "thinking-two-texts-one-signature",
    "tools",
    "tool-single",
    "tools-given",
)
def thinking_two_texts_one_signature() -> Body:
    """A Responses reasoning item with two summary texts and one encrypted_content (synthetic): texts share the rs_ id."""
    rs_id = fake_id("rs_", "two-texts", 53)
    shell = call(
        "call_m3Kd9XqP2vLw7RtY5nBc8ZaF",
        "shell",
        {"command": ["rg", "-n", "load_config", "src"]},
        fake_id("fc_", "two-texts", 53),
    )
    params = CallParams(
        model=CODEX,
        thinking=ThinkingParams(effort="medium"),
        tools=[
            tool(
                "shell",
                "Run a command in the workspace.",
                {"command": {"type": "array", "items": STR}},
                ["command"],
            )
        ],
    )
    return params, [
        user("Where is the config file loaded?"),
        assistant(
            thinking(
                "**Searching for config loading**\n\nI'll grep for load_config to find where configuration is read.",
                CODEX,
                id=rs_id,
            ),
            thinking(
                "**Narrowing the search**\n\nRestricting the search to src keeps test fixtures out of the results.",
                CODEX,
                id=rs_id,
            ),
            signature(fake_encrypted("two-texts"), "openai-responses", CODEX, id=rs_id),
            shell,
            stop="tool_use",
            usage=usage(1432, 96, cached=1280, reasoning=64),
            response_id=fake_id("resp_", "two-texts", 55),
        ),
        result(
            shell,
            "src/app/config.py:12:def load_config(path: Path) -> Config:\nsrc/app/main.py:8:    cfg = load_config(CONFIG_PATH)\n",
        ),
    ]


@scenario("thinking", "signature-orphan", "signature-anthropic")
def signature_orphan_anthropic() -> Body:
    """A claude message with a signature but no thinking text before it (thinking display omitted): kept, never displayed."""
    params = CallParams(model=CLAUDE, max_tokens=2048, thinking=ThinkingParams(budget_tokens=1024))
    return params, [
        user("Say hello in French."),
        assistant(
            signature(fake_signature("orphan"), "anthropic", CLAUDE),
            "Bonjour !",
            stop="stop",
            usage=usage(38, 41, cached=0, cache_creation=0, reasoning=30),
            response_id="msg_01Xo9RfT4mBnV2cQ8wLkE3sJ",
        ),
        user("And in Dutch?"),
    ]


@scenario(
    "thinking",
    "thinking-foreign-provider",
    "real-tokens",
    "tools",
    "tool-single",
    "tools-given",
    "tool-args-empty-object",
)
def thinking_foreign_provider_google_on_claude() -> Body:
    """Gemini thought text + REAL google signature in history while params.model is claude: never sent as native or as literal text."""
    get_country = call(GEMINI3_CALL_ID, "get_country", "{}")
    params = CallParams(
        model=CLAUDE,
        max_tokens=4096,
        thinking=ThinkingParams(budget_tokens=1024),
        tools=[
            ToolSpec.model_validate(
                {
                    "name": "get_country",
                    "parameters": {"additionalProperties": False, "properties": {}, "type": "object"},
                }
            )
        ],
    )
    return params, [
        user("What is the capital of the user country? Call the tool"),
        assistant(
            thinking(
                "**Locating the user**\n\nI need the user's country before I can name its capital, so I'll call get_country.",
                GEMINI_3,
            ),
            get_country,
            signature(GEMINI3_FC_SIGNATURE, "google", GEMINI_3),
            stop="tool_use",
            usage=usage(29, 212, reasoning=202),
            response_id="QUVVadTSNJ6_qtsPvN7J8Q0",
        ),
        result(get_country, "Mexico"),
        assistant(
            "The capital of Mexico is Mexico City.",
            stop="stop",
            usage=usage(257, 8),
            response_id="REVVabaiCdq4qtsPnZu96Qo",
        ),
        user("I switched you to Claude. Roughly how many people live there?"),
    ]


@scenario("thinking", "thinking-foreign-model", "real-tokens")
def thinking_foreign_model_same_provider() -> Body:
    """REAL claude-sonnet-4 thinking + signature replayed while params.model is claude-sonnet-4-5: same provider, another model."""
    params = CallParams(model=CLAUDE, max_tokens=4096, thinking=ThinkingParams(budget_tokens=1024))
    return params, [
        user("How do I cross the street?"),
        assistant(
            thinking(ANTHROPIC_SONNET40_THINKING, CLAUDE_4),
            signature(ANTHROPIC_SONNET40_SIGNATURE, "anthropic", CLAUDE_4),
            ANTHROPIC_SONNET40_ANSWER,
            stop="stop",
            usage=usage(43, 282, cached=0, cache_creation=0),
            response_id="msg_01ALwQ87pTS7hH1PjSdC9wJD",
        ),
        user("What changes at night?"),
    ]


@scenario("thinking", "thinking-redacted", "signature-anthropic")
def thinking_redacted_anthropic() -> Body:
    """claude-3-7-sonnet redacted_thinking (format anthropic-redacted, synthetic data) next to a normal thinking block: byte-exact replay."""
    params = CallParams(model=CLAUDE_37, max_tokens=4096, thinking=ThinkingParams(budget_tokens=2048))
    return params, [
        user(
            "ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253D5E2D82641AC0E52CC2876CB"
        ),
        assistant(
            thinking(
                "The user sent what looks like a test trigger string rather than a question.", CLAUDE_37
            ),
            signature(fake_signature("redacted-pair"), "anthropic", CLAUDE_37),
            signature(fake_signature("redacted-data", 360), "anthropic-redacted", CLAUDE_37),
            "I notice you've sent what appears to be a trigger string. What would you like to talk about?",
            stop="stop",
            usage=usage(92, 176, cached=0, cache_creation=0),
            response_id="msg_01Rd4TcVx8nKq2WmZp6LsJ9H",
        ),
        user("What was that?"),
    ]


@scenario("thinking", "signature-empty", "interrupt")
def thinking_interrupted_empty_signature() -> Body:
    """Thinking interrupted before its signature arrived (signature ""): must never be replayed as signed (field lesson 2)."""
    params = CallParams(model=CLAUDE, max_tokens=4096, thinking=ThinkingParams(budget_tokens=2048))
    return params, [
        user("Plan a migration of our Postgres 13 cluster to Postgres 17."),
        assistant(
            thinking(
                "The user wants a major-version upgrade plan. Options are pg_upgrade in link mode or logical repl",
                CLAUDE,
            ),
            signature("", "anthropic", CLAUDE),
            stop="aborted",
            usage=usage(31, 24, cached=0, cache_creation=0),
            response_id="msg_01Ab3CdE5fGh7IjK9lMn1OpQ",
        ),
        user("Sorry, I interrupted you. Assume zero downtime is required, then go on."),
    ]


@scenario("thinking", "thinking-enabled-lost-thinking", "signature-anthropic", "tools", "tools-given")
def thinking_enabled_last_turn_lost_thinking() -> Body:
    """Thinking on, but the last assistant tool turn has no thinking (lost on a host fallback): request must still be valid (lesson 3)."""
    first = call("toolu_01Fb1AkQ7nRc3VsX9mTe2WyU", "read_file", {"path": "docs/deploy.md"})
    second = call("toolu_01Gc2BlR8oSd4WtY0nUf3XzV", "read_file", {"path": "deploy/prod.yaml"})
    params = CallParams(
        model=CLAUDE, max_tokens=8192, thinking=ThinkingParams(budget_tokens=2048), tools=[READ_FILE]
    )
    return params, [
        user("How do we deploy to production?"),
        assistant(
            thinking("The deploy docs should describe the process; I'll read them first.", CLAUDE),
            signature(fake_signature("lost-1"), "anthropic", CLAUDE),
            first,
            stop="tool_use",
            usage=usage(2150, 74, cached=0, cache_creation=2048, reasoning=20),
            response_id="msg_01Lt1NhW3yKa5PcM7rQs9UvX",
        ),
        result(first, "Deploys run from deploy/prod.yaml via `make release`."),
        assistant(
            "The docs point to deploy/prod.yaml; reading it.",
            second,
            stop="tool_use",
            usage=usage(2260, 58, cached=2048, cache_creation=0),
            response_id="msg_01Lt2OiX4zLb6QdN8sRt0VwY",
        ),
        result(second, "stages: [build, canary, promote]\ncanary_percent: 5\n"),
    ]


@scenario(
    "thinking", "mixed-provider", "signature-google-function-call", "tools", "tool-single", "tools-derived"
)
def mixed_provider_history() -> Body:
    """Assistant turns from gpt-5.1-codex-max, claude-sonnet-4-5 and gemini-3-pro-preview (synthetic signatures), rendered for gemini-3."""
    rs_id = fake_id("rs_", "mixed", 53)
    ls = call(
        "call_Vd8Hk2Lm5Pq9Rs3Tu6Wx1YzA", "shell", {"command": ["ls", "src"]}, fake_id("fc_", "mixed", 53)
    )
    grep = call("9c1e2f0a-1b7d-4c55-9e3a-6d8b2f4a7c10", "grep", {"pattern": "TODO", "path": "src"})
    return CallParams(model=GEMINI_3), [
        user("List the source directory."),
        assistant(
            thinking("**Listing files**\n\nA plain ls of src answers this.", CODEX, id=rs_id),
            signature(fake_encrypted("mixed"), "openai-responses", CODEX, id=rs_id),
            ls,
            stop="tool_use",
            usage=usage(812, 44, cached=0, reasoning=12),
            response_id=fake_id("resp_", "mixed", 55),
        ),
        result(ls, "app.py\nconfig.py\nutils.py\n"),
        assistant(
            "`src` holds app.py, config.py and utils.py.",
            stop="stop",
            usage=usage(870, 16, cached=768),
            response_id=fake_id("resp_", "mixed-2", 55),
        ),
        user("/model claude — which of those files is the entry point?"),
        assistant(
            thinking("app.py is the conventional entry point and the listing has no __main__.py.", CLAUDE),
            signature(fake_signature("mixed-claude"), "anthropic", CLAUDE),
            "Most likely app.py: it is the conventional entry point and there is no __main__.py.",
            stop="stop",
            usage=usage(903, 61, cached=0, cache_creation=0, reasoning=18),
            response_id="msg_01Mx5PkQ8rSa2TbU4vWc6XdY",
        ),
        user("/model gemini — find the TODOs."),
        assistant(
            grep,
            signature(fake_signature("mixed-gemini", 300), "google", GEMINI_3),
            stop="tool_use",
            usage=usage(1001, 95, reasoning=80),
            response_id="Wk1xYbC2dE3fG4hI5jK6lM7",
        ),
        result(grep, "src/utils.py:14: # TODO: make retry async-aware\n"),
    ]


# ---------------------------------------------------------------- tools


@scenario("tools", "tool-single", "tools-given")
def tool_single_call() -> Body:
    """REAL gpt-4o-mini: one tool call with streamed arguments, then its result (the recorded, accepted turn-2 request)."""
    get_capital = call("call_ZR5UUuTt3pf61kjwAJIYdVMj", "get_capital", '{"country":"UK"}')
    params = CallParams(
        model="gpt-4o-mini",
        tools=[
            ToolSpec.model_validate(
                {
                    "name": "get_capital",
                    "parameters": {
                        "additionalProperties": False,
                        "properties": {"country": STR},
                        "required": ["country"],
                        "type": "object",
                    },
                }
            )
        ],
    )
    return params, [
        user("What is the capital of the UK? Use the tool, then answer."),
        assistant(
            get_capital,
            stop="tool_use",
            usage=usage(53, 15, cached=0, reasoning=0),
            response_id="chatcmpl-Dx0XpqH8w09uBXwq1zFGYdETjtnEl",
        ),
        result(get_capital, "London"),
    ]


@scenario("tools", "tool-parallel-in-order", "tools-given", "tool-args-empty-object")
def tool_parallel_results_in_order() -> Body:
    """REAL claude-3-5-haiku: text plus two parallel tool_use blocks, results in call order (the recorded turn-2 request)."""
    first = call("toolu_011ouQLPrqhKSuFJtuJrpaUX", "pelican_name_generator", "{}")
    second = call("toolu_01NtJRxGhJcEQ4axN1FzHayX", "pelican_name_generator", "{}")
    params = CallParams(
        model="claude-3-5-haiku-latest",
        max_tokens=8192,
        temperature=1.0,
        tools=[
            ToolSpec.model_validate(
                {"name": "pelican_name_generator", "parameters": {"properties": {}, "type": "object"}}
            )
        ],
    )
    return params, [
        user("Two names for a pet pelican"),
        assistant(
            "I'll help you generate two potential names for a pet pelican by using the pelican name generator tool.",
            first,
            second,
            stop="tool_use",
            usage=usage(310, 84, cached=0, cache_creation=0),
            response_id="msg_01VXfmBNdfg2rtuVodqnDena",
        ),
        result(first, "Charles"),
        result(second, "Sammy"),
    ]


GREP = tool("grep", "Search files for a regular expression.", {"pattern": STR, "path": STR}, ["pattern"])
BASH = tool(
    "bash", "Run a shell command in the workspace and return its output.", {"command": STR}, ["command"]
)


@scenario("tools", "tool-parallel-out-of-order", "tools-given")
def tool_parallel_results_out_of_order() -> Body:
    """Three parallel calls whose results were recorded in completion order (3, 1, 2): requests must restore call order."""
    a = call("toolu_01Aa1PqR2sT3uV4wX5yZ6bCd", "read_file", {"path": "src/app/server.py"})
    b = call("toolu_01Bb2QrS3tU4vW5xY6zA7cDe", "grep", {"pattern": "timeout=", "path": "src"})
    c = call("toolu_01Cc3RsT4uV5wX6yZ7aB8dEf", "bash", {"command": "git log -1 --format=%h"})
    params = CallParams(model=CLAUDE, max_tokens=8192, tools=[READ_FILE, GREP, BASH])
    return params, [
        user(
            "Why do requests time out after 5 seconds? Check the server, grep for timeouts, and tell me the current commit."
        ),
        assistant(
            "I'll look at all three at once.",
            a,
            b,
            c,
            stop="tool_use",
            usage=usage(2480, 170, cached=0, cache_creation=2304),
            response_id="msg_01Oo4StU5vW6xY7zA8bC9dEf",
        ),
        result(c, "3f9c2ab"),
        result(b, "src/app/server.py:21:    client = Client(timeout=5)\n"),
        result(
            a,
            "from app.http import Client\n\n\ndef make_client() -> Client:\n    client = Client(timeout=5)\n    return client\n",
        ),
    ]


@scenario("tools", "tool-single", "tool-error", "tools-given")
def tool_result_error() -> Body:
    """A tool result with status error (a timeout is an error, not an abort): is_error semantics on every provider."""
    run = call("toolu_01Er1TuV2wX3yZ4aB5cD6eFg", "bash", {"command": "uv run pytest -q"})
    params = CallParams(model=CLAUDE, max_tokens=8192, tools=[BASH])
    return params, [
        user("Run the test suite."),
        assistant(
            "Running the tests.",
            run,
            stop="tool_use",
            usage=usage(1650, 48, cached=1536, cache_creation=0),
            response_id="msg_01Er1xYz2AbC3dEf4GhI5jKl",
        ),
        result(run, "Command timed out after 120 s (exit status 124). Partial output:\n........F", "error"),
    ]


@scenario("tools", "tool-single", "tool-aborted", "interrupt", "tools-given")
def tool_result_aborted() -> Body:
    """A tool result with status aborted (the user pressed Ctrl+C while it ran), followed by a new user message."""
    sync = call("toolu_01Ab1CdE2fG3hI4jK5lM6nOp", "bash", {"command": "uv sync --all-extras"})
    params = CallParams(model=CLAUDE, max_tokens=8192, tools=[BASH])
    return params, [
        user("Install all the dependencies."),
        assistant(
            sync,
            stop="tool_use",
            usage=usage(1702, 39, cached=1536, cache_creation=0),
            response_id="msg_01Ab1qRs2TuV3wXy4ZaB5cDe",
        ),
        result(sync, "Interrupted by user.", "aborted"),
        user("Skip that. Just tell me which packages are outdated."),
    ]


@scenario("tools", "turn-aborted-dangling-call", "interrupt", "tools-given")
def aborted_turn_dangling_tool_call() -> Body:
    """An assistant turn aborted after emitting a tool call that never ran (no result), then a new user message."""
    rm = call("toolu_01Dg1HiJ2kL3mN4oP5qR6sTu", "bash", {"command": "rm -rf build/"})
    params = CallParams(model=CLAUDE, max_tokens=8192, tools=[BASH])
    return params, [
        user("Clean up the build directory."),
        assistant(
            "I'll remove build/.",
            rm,
            stop="aborted",
            usage=usage(1688, 31, cached=1536, cache_creation=0),
            response_id="msg_01Dg1vWx2YzA3bCd4EfG5hIj",
        ),
        user("Wait, don't delete anything. Just list what's in it."),
    ]


@scenario("interrupt", "interrupt-mid-text")
def interrupt_mid_text() -> Body:
    """An assistant answer interrupted mid-text (stop_reason aborted, partial text kept), then a new user message."""
    return CallParams(max_tokens=1024), [
        user("Write a haiku about autumn, then explain its structure."),
        assistant(
            "Crisp leaves drift and fall\nthe maple lets go of red\nquiet",
            stop="aborted",
            usage=usage(24, 14),
        ),
        user("Actually, make it about winter."),
    ]


@scenario("tools", "tool-single", "tool-result-image", "images", "image-data-url", "tools-given")
def tool_result_with_image() -> Body:
    """A tool result with output_text plus an image part (a screenshot): text stays in output_text, the image in parts."""
    shot = call("call_Sc7Rn4Tq1Uv8Wx2Yz5Ab3CdE", "screenshot", {"url": "http://localhost:3000/login"})
    params = CallParams(
        tools=[tool("screenshot", "Capture a PNG screenshot of a web page.", {"url": STR}, ["url"])]
    )
    return params, [
        user("Take a screenshot of the login page and tell me what's off."),
        assistant(shot, stop="tool_use", usage=usage(310, 22)),
        result(
            shot,
            "Captured a 1x1 screenshot of http://localhost:3000/login.",
            images=[ImageURLPart(url=BLUE_PIXEL_PNG)],
        ),
    ]


@scenario(
    "tools", "tool-parallel-in-order", "tool-args-empty-string", "tool-args-empty-object", "tools-given"
)
def tool_call_empty_arguments() -> Body:
    """Two no-argument calls: arguments_json "" (REAL claude-sonnet-4-5 no-args stream, vercel/ai) and "{}"."""
    issues = call("toolu_01QE1WLsSVp5hy5Q3GmGTmjP", "updateIssueList", "")
    now = call("toolu_01Nw2XyZ3aBc4DeF5gHi6JkL", "get_current_time", "{}")
    params = CallParams(
        model=CLAUDE,
        max_tokens=4096,
        tools=[
            tool("updateIssueList", "Refresh the cached issue list.", {}),
            tool("get_current_time", "The current UTC time.", {}),
        ],
    )
    return params, [
        user("Refresh the issue list and tell me the time."),
        assistant(
            "I'll update the issue list for you.",
            issues,
            now,
            stop="tool_use",
            usage=usage(565, 48, cached=0, cache_creation=0),
            response_id="msg_01GE2RKp1VYsPzdFs3sS9z5S",
        ),
        result(issues, "Issue list updated: 3 open issues."),
        result(now, "2025-11-03T09:41:00Z"),
    ]


WRITE_TODOS = tool(
    "write_todos",
    "Replace the task list.",
    {"todos": {"type": "array", "items": {"type": "object", "properties": {"content": STR, "status": STR}}}},
    ["todos"],
)


@scenario("tools", "tool-id-invalid-chars", "tool-parallel-in-order", "tools-given")
def tool_call_id_invalid_characters() -> Body:
    """Kimi-style call ids `functions.write_todos:0` (dot, colon) that Anthropic rejects: mapped consistently in calls and results (lesson 6)."""
    todos = call(
        "functions.write_todos:0",
        "write_todos",
        {"todos": [{"content": "Split parser.py", "status": "in_progress"}]},
    )
    read = call("functions.read_file:1", "read_file", {"path": "src/parser.py"})
    again = call("functions.read_file:2", "read_file", {"path": "tests/test_parser.py"})
    return CallParams(tools=[WRITE_TODOS, READ_FILE]), [
        user("Plan the parser refactor, and look at the parser module first."),
        assistant(
            "Planning, and reading the module.",
            todos,
            read,
            stop="tool_use",
            usage=usage(3120, 88, cached=2816),
        ),
        result(todos, "Todos updated (1 in progress)."),
        result(read, "def parse(text):\n    ...\n"),
        assistant(again, stop="tool_use", usage=usage(3260, 30, cached=3072)),
        result(again, "def test_parse():\n    assert parse('') == []\n"),
    ]


LONG_ID_80 = "call_" + hashlib.sha256(b"long-id").hexdigest() + "_attempt_01"  # 5 + 64 + 11 = 80 characters
ID_64 = "call_" + hashlib.sha256(b"id-64").hexdigest()[:59]  # exactly 64 characters, the Responses limit


@scenario("tools", "tool-id-too-long", "tool-parallel-in-order", "tools-given")
def tool_call_id_too_long() -> Body:
    """An 80-character call id (over the Responses 64 limit) next to one of exactly 64: mapped consistently (lesson 6)."""
    long_call = call(LONG_ID_80, "get_weather", {"city": "Oslo"})
    edge_call = call(ID_64, "get_weather", {"city": "Bergen"})
    params = CallParams(tools=[tool("get_weather", "Current weather for a city.", {"city": STR}, ["city"])])
    return params, [
        user("Weather in Oslo and Bergen?"),
        assistant(long_call, edge_call, stop="tool_use", usage=usage(198, 54)),
        result(long_call, "Oslo: -3 °C, light snow"),
        result(edge_call, "Bergen: 4 °C, rain"),
    ]


@scenario("tools", "tool-result-orphan")
def tool_result_orphan_after_trim() -> Body:
    """History trimming removed the assistant call: the first event is a tool result with no call (lesson 4)."""
    return CallParams(), [
        ToolResultMessage(
            call_id="call_8fKq2Lw9Xz3Rt6Vb1Nm4Pc7D",
            tool_name="grep",
            status="success",
            output_text="src/http.py:40: fetch(url)\nsrc/sync.py:12: fetch(url)\nsrc/cli.py:88: fetch(url)\n",
        ),
        assistant(
            "There are three call sites of fetch(): http.py, sync.py and cli.py.",
            stop="stop",
            usage=usage(4210, 25),
        ),
        user("Update them to pass timeout=30."),
    ]


@scenario("regression", "developer", "tools", "tool-result-orphan")
def regression_developer_on_dropped_result() -> Body:
    """Regression F1: a developer reminder attached to an orphan tool result must still be sent (as a user message)."""
    return CallParams(), [
        ToolResultMessage(
            call_id="trimmed_call", tool_name="read", status="success", output_text="old output"
        ),
        developer("<system-reminder>Reminder: the repo indents with tabs.</system-reminder>"),
        user("Continue with the refactor."),
    ]


@scenario("regression", "tools", "tools-derived")
def regression_gemini3_sentinel_on_earlier_turn() -> Body:
    """Regression F2: an unsigned gemini-3 call in an earlier turn keeps its sentinel signature (prefix stability)."""
    ls = call("call_Ls1Gm3Pr4Ev5Wx6Yz7Ab8CdE", "bash", {"cmd": "ls"})
    return CallParams(model=GEMINI_3), [
        user("List the files."),
        assistant(ls, stop="tool_use", usage=usage(61, 12)),
        result(ls, "a.py\nb.py\n"),
        assistant("There are two files: a.py and b.py.", stop="stop", usage=usage(90, 11)),
        user("Which one is bigger?"),
    ]


@scenario("regression", "tools", "system-in-params")
def regression_nothing_left_to_send() -> Body:
    """Regression F3: a history whose only message is dropped (an orphan result) still renders a valid request."""
    return CallParams(system="You are a coding agent."), [
        ToolResultMessage(call_id="call_gone", tool_name="read", status="success", output_text="stale"),
    ]


@scenario("regression", "thinking")
def regression_google_signature_not_base64() -> Body:
    """Regression F4: a corrupt (non-base64) google signature is dropped with a warning, never sent as bytes."""
    return CallParams(model=GEMINI_25), [
        user("Say hello."),
        assistant("Hello!", signature("=DD6/4A4=CA", "google", GEMINI_25), stop="stop", usage=usage(12, 3)),
        user("Again, in French."),
    ]


GET_WEATHER = tool("get_weather", "Current weather for a city.", {"city": STR}, ["city"])


@scenario("tools", "tools-derived", "tool-parallel-in-order")
def tools_derived_from_history() -> Body:
    """Parallel calls with no tool definitions in params: adapters derive permissive definitions (with a warning)."""
    paris = call("call_Pa1Ri2Sx3Ty4Uz5Va6Wb7XcY", "get_weather", {"city": "Paris"})
    berlin = call("call_Be1Rl2In3Jo4Kp5Lq6Mr7NsT", "get_weather", {"city": "Berlin"})
    return CallParams(), [
        user("What's the weather in Paris and Berlin?"),
        assistant(paris, berlin, stop="tool_use", usage=usage(84, 46)),
        result(paris, "Paris: 12 °C, overcast"),
        result(berlin, "Berlin: 8 °C, clear"),
    ]


@scenario("tools", "tools-derived", "tool-parallel-in-order")
def tools_partially_given() -> Body:
    """params.tools defines get_weather but the history also calls get_time: only the missing one is derived."""
    weather = call("call_Wx1Aa2Bb3Cc4Dd5Ee6Ff7GgH", "get_weather", {"city": "Tokyo"})
    clock = call("call_Tm1Hh2Ii3Jj4Kk5Ll6Mm7NnO", "get_time", {"timezone": "Asia/Tokyo"})
    return CallParams(tools=[GET_WEATHER]), [
        user("Weather and local time in Tokyo?"),
        assistant(weather, clock, stop="tool_use", usage=usage(120, 50)),
        result(weather, "Tokyo: 17 °C, sunny"),
        result(clock, "18:05 JST"),
    ]


# ---------------------------------------------------------------- system prompts and non-message events


@scenario("system-in-history", "system-mid-history", "plain", "plain-multi-turn")
def system_messages_in_history() -> Body:
    """A system message at the start and a second one mid-history: the system prompt is sent exactly once, in order."""
    return CallParams(), [
        system("You are Weatherly's support assistant. Answer in English."),
        user("My dashboard shows no data since this morning."),
        assistant("Sorry about that. Which city is your dashboard set to?", stop="stop", usage=usage(38, 13)),
        system("The session switched to plan mode: propose steps, do not change the user's settings."),
        user("Amsterdam."),
    ]


@scenario("event-error", "event-task-metadata", "plain", "plain-multi-turn")
def history_with_error_and_task_metadata_events() -> Body:
    """Error and task_metadata events between messages, and a failed partial turn (stop_reason error) retried: events are never sent."""
    return CallParams(model=CLAUDE, max_tokens=4096), [
        user("Summarize the changes in CHANGELOG.md since 2.0.", created_at=at(0)),
        assistant(
            "Since 2.0 the main changes are",
            stop="error",
            usage=usage(3050, 7, cached=0, cache_creation=0),
            response_id="msg_01Ev1AbC2dEf3GhI4jKl5MnO",
            created_at=at(0, 4),
        ),
        ErrorEvent(
            error_message="stream ended before message_stop: overloaded_error: Overloaded",
            created_at=at(0, 4),
            response_id="msg_01Ev1AbC2dEf3GhI4jKl5MnO",
            can_retry=True,
        ),
        assistant(
            "Since 2.0: async client support (2.1), Python 3.13 wheels (2.2) and the removal of the legacy v1 API (2.3).",
            stop="stop",
            usage=usage(3050, 41, cached=0, cache_creation=3050),
            response_id="msg_01Ev2PqR3sTu4VwX5yZa6BcD",
            created_at=at(0, 11),
        ),
        TaskMetadataEvent(
            created_at=at(0, 12),
            metadata={
                "model": CLAUDE,
                "turns": 2,
                "duration_ms": 11840,
                "usage": {"input_tokens": 6100, "output_tokens": 48},
                "retries": 1,
            },
        ),
        user("Thanks. Now draft the release announcement.", created_at=at(2)),
    ]


EDIT_FILE = tool(
    "edit_file",
    "Replace one exact string in a file.",
    {"path": STR, "old": STR, "new": STR},
    ["path", "old", "new"],
)


@scenario(
    "agent-loop-long",
    "thinking",
    "signature-anthropic",
    "tools",
    "tools-given",
    "tool-single",
    "tool-parallel-in-order",
    "developer",
    "developer-after-tool",
    "system-in-params",
)
def agent_loop_long() -> Body:
    """A 13-turn claude-sonnet-4-5 agent loop: thinking + tool calls, developer reminders, two final answers; usage on every turn."""
    n = 0

    def think(text: str) -> tuple[ThinkingTextPart, ThinkingSignaturePart]:
        nonlocal n
        n += 1
        return thinking(text, CLAUDE), signature(fake_signature(f"loop-{n}"), "anthropic", CLAUDE)

    def turn(
        minute: int,
        *parts: str | AssistantPart,
        stop: StopReason,
        inp: int,
        out: int,
        reasoning: int,
        cached: int,
    ) -> AssistantMessage:
        return assistant(
            *parts,
            stop=stop,
            usage=usage(inp, out, cached=cached, cache_creation=inp - cached, reasoning=reasoning),
            response_id=fake_id("msg_01", f"loop-{minute}", 28),
            created_at=at(minute, 30),
        )

    repro = call(
        "toolu_01Lp01ReproAa1Bb2Cc3Dd4Ee", "bash", {"command": "uv run pytest tests/test_dates.py -x -q"}
    )
    read_src = call("toolu_01Lp02ReadSrcFf5Gg6Hh7Ii8", "read_file", {"path": "src/dates.py"})
    plan = call(
        "toolu_01Lp03TodosJj9Kk0Ll1Mm2Nn",
        "write_todos",
        {
            "todos": [
                {"content": "Make parse_dates timezone-aware", "status": "in_progress"},
                {"content": "Run the full suite", "status": "pending"},
            ]
        },
    )
    read_test = call("toolu_01Lp04ReadTestOo3Pp4Qq5R", "read_file", {"path": "tests/test_dates.py"})
    grep_ci = call("toolu_01Lp05GrepCiSs6Tt7Uu8Vv9", "grep", {"pattern": "TZ", "path": ".github/workflows"})
    edit = call(
        "toolu_01Lp06EditWw0Xx1Yy2Zz3Aa4",
        "edit_file",
        {
            "path": "src/dates.py",
            "old": "datetime.fromtimestamp(ts)",
            "new": "datetime.fromtimestamp(ts, tz=UTC)",
        },
    )
    rerun = call(
        "toolu_01Lp07RerunBb5Cc6Dd7Ee8F",
        "bash",
        {"command": "TZ=Europe/Amsterdam uv run pytest tests/test_dates.py -q"},
    )
    suite = call("toolu_01Lp08SuiteGg9Hh0Ii1Jj2K", "bash", {"command": "uv run pytest -q"})
    done = call(
        "toolu_01Lp09DoneLl3Mm4Nn5Oo6Pp",
        "write_todos",
        {
            "todos": [
                {"content": "Make parse_dates timezone-aware", "status": "completed"},
                {"content": "Run the full suite", "status": "completed"},
            ]
        },
    )
    read_log = call("toolu_01Lp10ChangelogQq7Rr8Ss9", "read_file", {"path": "CHANGELOG.md"})
    edit_log = call(
        "toolu_01Lp11EditLogTt0Uu1Vv2Ww",
        "edit_file",
        {
            "path": "CHANGELOG.md",
            "old": "## Unreleased\n",
            "new": "## Unreleased\n\n- Fix `parse_dates` returning local time instead of UTC.\n",
        },
    )
    diff = call("toolu_01Lp12DiffXx3Yy4Zz5Aa6Bb", "bash", {"command": "git diff --stat"})
    params = CallParams(
        model=CLAUDE,
        system="You are a coding agent working in the user's repository. Use the tools; keep the user informed briefly.",
        max_tokens=16000,
        thinking=ThinkingParams(budget_tokens=4096),
        tools=[BASH, READ_FILE, GREP, EDIT_FILE, WRITE_TODOS],
    )
    return params, [
        user(
            "test_parse_dates fails on CI but passes on my machine. Find out why and fix it.",
            created_at=at(0),
        ),
        turn(
            0,
            *think(
                "A test that passes locally but fails on CI smells like timezone dependence. Reproduce first."
            ),
            "I'll reproduce the failure first.",
            repro,
            stop="tool_use",
            inp=4120,
            out=96,
            reasoning=31,
            cached=0,
        ),
        result(
            repro,
            "F\n_____ test_parse_dates _____\nE   AssertionError: assert datetime(2025, 3, 30, 3, 30) == datetime(2025, 3, 30, 1, 30, tzinfo=UTC)\n1 failed in 0.21s",
            created_at=at(1),
        ),
        turn(
            1,
            *think(
                "The expected value is UTC but the result is naive local time. Look at the implementation."
            ),
            read_src,
            stop="tool_use",
            inp=4330,
            out=71,
            reasoning=24,
            cached=4120,
        ),
        result(
            read_src,
            "from datetime import UTC, datetime\n\n\ndef parse_dates(stamps: list[int]) -> list[datetime]:\n    return [datetime.fromtimestamp(ts) for ts in stamps]\n",
            created_at=at(2),
        ),
        developer(
            "<system-reminder>The todo list is empty. Use write_todos to track multi-step work.</system-reminder>",
            created_at=at(2, 1),
        ),
        turn(
            2,
            *think(
                "fromtimestamp without tz uses the machine's zone, and CI probably runs in UTC while the test expects UTC. Track the plan."
            ),
            plan,
            stop="tool_use",
            inp=4560,
            out=118,
            reasoning=40,
            cached=4330,
        ),
        result(plan, "Todos updated (1 in progress, 1 pending).", created_at=at(3)),
        turn(
            3,
            *think("Confirm the test's expectation and how CI sets the timezone, in parallel."),
            "Checking the test and the CI timezone together.",
            read_test,
            grep_ci,
            stop="tool_use",
            inp=4790,
            out=133,
            reasoning=22,
            cached=4560,
        ),
        result(
            read_test,
            "def test_parse_dates():\n    assert parse_dates([1743298200]) == [datetime(2025, 3, 30, 1, 30, tzinfo=UTC)]\n",
            created_at=at(4),
        ),
        result(grep_ci, ".github/workflows/ci.yml:18:      TZ: UTC\n", created_at=at(4)),
        turn(
            4,
            *think("The test expects aware UTC datetimes; fix the implementation rather than the test."),
            edit,
            stop="tool_use",
            inp=5040,
            out=102,
            reasoning=19,
            cached=4790,
        ),
        result(edit, "Applied 1 edit to src/dates.py.", created_at=at(5)),
        developer(
            "<system-reminder>src/dates.py was reformatted by ruff after your edit.</system-reminder>",
            created_at=at(5, 1),
        ),
        turn(
            5,
            *think(
                "Re-run the failing test under a non-UTC zone to prove the fix does not depend on the machine."
            ),
            rerun,
            stop="tool_use",
            inp=5210,
            out=84,
            reasoning=25,
            cached=5040,
        ),
        result(rerun, "1 passed in 0.19s", created_at=at(6)),
        turn(
            6,
            *think("Now the whole suite, to catch callers that relied on naive datetimes."),
            suite,
            stop="tool_use",
            inp=5330,
            out=60,
            reasoning=18,
            cached=5210,
        ),
        result(suite, "412 passed in 9.84s", created_at=at(7)),
        turn(
            7,
            *think("Everything passes; close the todo list."),
            done,
            stop="tool_use",
            inp=5440,
            out=104,
            reasoning=9,
            cached=5330,
        ),
        result(done, "Todos updated (2 completed).", created_at=at(8)),
        turn(
            8,
            *think("Summarize the cause and the fix for the user."),
            "Fixed. `parse_dates` used `datetime.fromtimestamp(ts)`, which returns naive local time: it matched on your machine only by accident of zone, and CI runs with TZ=UTC. It now passes `tz=UTC`; the test passes under Europe/Amsterdam and the full suite (412 tests) is green.",
            stop="stop",
            inp=5590,
            out=141,
            reasoning=12,
            cached=5440,
        ),
        user("Thanks! Add a CHANGELOG entry too.", created_at=at(10)),
        turn(
            10,
            *think("Read the changelog to match its format."),
            read_log,
            stop="tool_use",
            inp=5760,
            out=58,
            reasoning=10,
            cached=5590,
        ),
        result(
            read_log,
            "# Changelog\n\n## Unreleased\n\n## 2.3.0\n\n- Remove the legacy v1 API.\n",
            created_at=at(11),
        ),
        turn(
            11,
            *think("Add one line under Unreleased."),
            edit_log,
            stop="tool_use",
            inp=5890,
            out=112,
            reasoning=8,
            cached=5760,
        ),
        result(edit_log, "Applied 1 edit to CHANGELOG.md.", created_at=at(12)),
        turn(
            12,
            *think("Show the user what changed overall."),
            diff,
            stop="tool_use",
            inp=6030,
            out=52,
            reasoning=7,
            cached=5890,
        ),
        result(
            diff,
            " CHANGELOG.md  | 2 ++\n src/dates.py  | 2 +-\n 2 files changed, 3 insertions(+), 1 deletion(-)\n",
            created_at=at(13),
        ),
        developer(
            "<system-reminder>Do not commit unless the user asks you to.</system-reminder>",
            created_at=at(13, 1),
        ),
        turn(
            13,
            *think("Report the diff; do not commit."),
            "Added the entry under Unreleased. Two files changed: CHANGELOG.md and src/dates.py.",
            stop="stop",
            inp=6190,
            out=44,
            reasoning=6,
            cached=6030,
        ),
        user("Perfect, commit it with a short message.", created_at=at(15)),
    ]


# ---------------------------------------------------------------- field reports (docs/field-rules.md)
# Histories shaped like failures real users of multi-provider libraries reported; the
# values are written here (synthetic), the shapes follow the cited reports.

MCP_CREATE_ISSUE = tool(
    "github.create_issue",
    "Create a GitHub issue (an MCP server tool).",
    {"title": STR, "body": STR},
    ["title"],
)
MCP_GET_FILE = tool(
    "Github Get File", "Read a file from a GitHub repository (an MCP tool).", {"path": STR}, ["path"]
)
MCP_PLUGIN_LONG = tool(
    "mcp__plugin_workspace-indexer_semantic-code-search__search_repository_symbols",
    "Search indexed repository symbols (a 77-character MCP plugin tool name).",
    {"query": STR},
    ["query"],
)


@scenario("tools", "tools-given", "tool-parallel-in-order", "field-report")
def field_tool_names_mcp() -> Body:
    """MCP tool names no provider rule admits (a dot, spaces, 77 characters): mapped reversibly in declarations, calls and results."""
    create = call("call_mcp_1", MCP_CREATE_ISSUE.name, {"title": "Crash on start"})
    search = call("call_mcp_2", MCP_PLUGIN_LONG.name, {"query": "startup"})
    params = CallParams(max_tokens=1024, tools=[MCP_CREATE_ISSUE, MCP_GET_FILE, MCP_PLUGIN_LONG])
    return params, [
        user("File an issue about the crash on start, and find the startup code."),
        assistant(create, search, stop="tool_use", usage=usage(310, 42)),
        result(create, '{"number": 812}'),
        result(search, "src/app/startup.py:12 def start()"),
        assistant(
            "Filed #812; the startup code is in src/app/startup.py.", stop="stop", usage=usage(402, 19)
        ),
        user("Thanks. Now read that file."),
    ]


@scenario("tools", "tools-given", "tool-single", "tool-id-reused", "field-report")
def field_tool_ids_reused_across_turns() -> Body:
    """A backend that numbers tool calls call_0 every turn: the same id in two responses (Anthropic: "tool_use ids must be unique")."""
    first = call("call_0", "read_file", {"path": "a.txt"})
    second = call("call_0", "read_file", {"path": "b.txt"})
    return CallParams(max_tokens=1024, tools=[READ_FILE]), [
        user("Read a.txt and then b.txt."),
        assistant(first, stop="tool_use", usage=usage(120, 18)),
        result(first, "alpha"),
        assistant(second, stop="tool_use", usage=usage(150, 18)),
        result(second, "beta"),
        user("Which one is longer?"),
    ]


@scenario("tools", "tools-given", "tool-error", "tool-parallel-in-order", "field-report")
def field_tool_error_empty_output() -> Body:
    """Error tool results with empty and whitespace-only output (Anthropic: "content cannot be empty if is_error is true")."""
    a = call("call_err_1", "bash", {"command": "false"})
    b = call("call_err_2", "bash", {"command": "exit 3"})
    return CallParams(max_tokens=1024, tools=[BASH]), [
        user("Run both checks."),
        assistant(a, b, stop="tool_use", usage=usage(200, 30)),
        result(a, "", "error"),
        result(b, "  \n", "error"),
        user("Why did they fail?"),
    ]


def _piece(*parts: AssistantPart, stop: StopReason) -> AssistantMessage:
    """One content block of a response stored as its own assistant message (seed 001)."""
    return AssistantMessage(
        parts=list(parts),
        stop_reason=stop,
        usage=usage(540, 61),
        id="msg_01PerBlockPiecesShareOneId",
        response_id="msg_01PerBlockPiecesShareOneId",
    )


@scenario("tools", "tools-given", "field-report")
def field_response_split_per_block() -> Body:
    """One response stored as three assistant messages (text, call A, call B; one id, seed 001), then both results: A's real result must not become "not executed"."""
    a = call("toolu_01PieceCallA000000000000", "read_file", {"path": "README.md"})
    b = call("toolu_01PieceCallB000000000000", "read_file", {"path": "setup.cfg"})
    return CallParams(max_tokens=1024, tools=[READ_FILE]), [
        user("Compare README.md and setup.cfg."),
        # Claude Code leaves stop_reason null on all but the last piece; the canonical model
        # needs one per message, so each piece states what it ends in.
        _piece(t("I'll read both files."), stop="stop"),
        _piece(a, stop="tool_use"),
        _piece(b, stop="tool_use"),
        result(a, "# Project\nA tool."),
        result(b, "[metadata]\nname = project"),
        user("Do the names agree?"),
    ]


@scenario("thinking", "signature-openai-responses", "interrupt", "field-report")
def field_reasoning_interrupted() -> Body:
    """A Responses turn interrupted right after its reasoning item (nothing follows it), then a new user message."""
    rs_id = fake_id("rs_", "field-reasoning-interrupted", 50)
    return CallParams(model="gpt-5", max_tokens=2048, thinking=ThinkingParams(enabled=True, effort="low")), [
        user("Plan a three-day trip to Lisbon."),
        assistant(
            thinking("**Planning the itinerary**", "gpt-5", id=rs_id),
            signature(fake_encrypted("field-reasoning-interrupted"), "openai-responses", "gpt-5", id=rs_id),
            stop="aborted",
            usage=usage(40, 96, reasoning=96),
        ),
        user("Make it two days instead."),
    ]


# A synthetic 8x8 mid-gray baseline JPEG (159 bytes, written by hand: one DC-only block),
# labelled with the non-standard ``image/jpg``: the bytes are JPEG, only the label is off.
JPG_LABELLED_JPEG = (
    "data:image/jpg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB"
    "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAALCAAIAAgBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAAP/EABQQAQAAAAAA"
    "AAAAAAAAAAAAAAD/2gAIAQEAAD8AP//Z"
)


@scenario("images", "field-report")
def field_media_type_jpg() -> Body:
    """A base64 image labelled image/jpg (Gemini: "Unsupported MIME type: image/jpg"): sent with the standard label."""
    return CallParams(max_tokens=512), [
        user("What shade of gray is this image?", ImageURLPart(url=JPG_LABELLED_JPEG)),
    ]


@scenario("plain", "plain-single-turn", "system-in-params", "field-report")
def field_gemma_system() -> Body:
    """Gemma on the Gemini API rejects systemInstruction: the system text travels in the first user turn."""
    return CallParams(model="gemma-3-27b-it", max_tokens=256, system="Answer in one word."), [
        user("What is the capital of Portugal?"),
    ]


@scenario(
    "tools", "tools-given", "tool-single", "tool-result-image", "images", "image-data-url", "field-report"
)
def field_gemini3_tool_image() -> Body:
    """A screenshot tool result on Gemini 3: the image goes inside functionResponse.parts (multimodal function responses)."""
    shot = call("call_shot_1", "screenshot", {})
    screenshot = tool("screenshot", "Capture the screen as a PNG.", {})
    return CallParams(model=GEMINI_3, max_tokens=1024, tools=[screenshot]), [
        user("Take a screenshot and tell me what you see."),
        assistant(shot, stop="tool_use", usage=usage(90, 12)),
        result(shot, "captured 1x1", images=[ImageURLPart(url=RED_PIXEL_PNG)]),
    ]


# ---------------------------------------------------------------- output


def build_scenarios() -> list[Scenario]:
    """Every registered scenario, sorted by name; names are the builder function names."""
    scenarios: list[Scenario] = []
    for fn, tags in _BUILDERS:
        params, history = fn()
        scenarios.append(
            Scenario(
                name=fn.__name__,
                description=" ".join((fn.__doc__ or "").split()),
                tags=tags,
                params=params,
                history=history,
            )
        )
    names = [s.name for s in scenarios]
    if len(set(names)) != len(names):
        raise ValueError("duplicate scenario names")
    return sorted(scenarios, key=lambda s: s.name)


def render_files(scenarios: Sequence[Scenario] | None = None) -> dict[str, str]:
    """Relative path -> exact file text for ``data/<name>.jsonl`` and ``catalog.json``."""
    corpus = build_scenarios() if scenarios is None else sorted(scenarios, key=lambda s: s.name)
    out: dict[str, str] = {}
    catalog: dict[str, object] = {}
    for s in corpus:
        out[f"data/{s.name}.jsonl"] = dumps_history(s.history)
        catalog[s.name] = {
            "description": s.description,
            "params": s.params.model_dump(mode="json", exclude_none=True),
            "tags": list(s.tags),
        }
    out["catalog.json"] = json.dumps(catalog, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    return out


def stale_files(root: Path, files: dict[str, str]) -> list[str]:
    """Relative paths under ``root`` that differ from ``files`` or should not exist."""
    diffs = [
        rel
        for rel, text in files.items()
        if not (root / rel).is_file() or (root / rel).read_text(encoding="utf-8") != text
    ]
    data = root / "data"
    extra = (
        [f"data/{p.name}" for p in data.glob("*.jsonl") if f"data/{p.name}" not in files]
        if data.is_dir()
        else []
    )
    return sorted(diffs + extra)


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or with --check, verify) the corpus; exit 1 on --check when anything differs."""
    parser = argparse.ArgumentParser(prog="python -m harness.scenarios.build", description=main.__doc__)
    parser.add_argument("--check", action="store_true", help="only report files that differ; write nothing")
    parser.add_argument(
        "--out", type=Path, default=PACKAGE_DIR, help="target directory (default: the package)"
    )
    args = parser.parse_args(argv)
    root: Path = args.out
    files = render_files()
    changed = stale_files(root, files)
    if args.check:
        for rel in changed:
            print(f"out of date: {rel}", file=sys.stderr)
        return 1 if changed else 0
    (root / "data").mkdir(parents=True, exist_ok=True)
    for rel in changed:
        path = root / rel
        if rel in files:
            path.write_text(files[rel], encoding="utf-8", newline="\n")
        else:
            path.unlink()
    print(f"{len(files) - 1} scenarios; {len(changed)} file(s) updated in {root}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
