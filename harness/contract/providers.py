"""The provider table: one entry per wire format and one per provider id, where their facts live.

A **wire** is a request/response format (OpenAI Chat Completions, Anthropic Messages...). A
**provider** is an API that takes one wire (``ProviderEntry.wire``, its own) and maybe more
(``other_wires``). Everything the harness knows about a provider that is a fact, not code, is
its entry here: the hosts its API answers on, the model a request names by default, the models
its streams name, the reasoning signatures it takes as its own, the endpoints serving its wire
beside its own API, how ``harness record`` reaches it and, for an OpenAI-compatible server,
how its Chat Completions depart from OpenAI's (``ChatDialect``). Every list of providers in
the harness derives from ``PROVIDER_TABLE``; its order is the order of every report.

Why in the contract: both sides read it. The reference side finds a provider's request
adapter and stream parser in ``harness/providers/<folder>/``; the judges, which never import
the reference side, read the same entry. Behaviour stays out of this table: each judge keys
its own code by wire (the invariants' body views, the emitters, the importer, the rules), so
a provider on an existing wire needs no judge code at all, and a new wire is one entry in
``WIRE_TABLE`` plus one implementation per judge table (a table without it fails loudly).

Adding a provider on an existing wire (docs/architecture.md, "Add a dialect"): its folder
under ``harness/providers/`` and one ``ProviderEntry`` below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fnmatch import translate

__all__ = [
    "CHAT_DIALECTS",
    "ENDPOINTS",
    "PROVIDERS",
    "PROVIDER_TABLE",
    "WIRE_TABLE",
    "ChatDialect",
    "ProviderEntry",
    "Recording",
    "WireEntry",
    "chat_dialect",
    "home_provider",
    "host_provider",
    "provider_entry",
    "wire_entry",
    "wire_of",
]

_GEMINI_PATH = r"/models/[^/:]+:(stream)?[gG]enerateContent$"


@dataclass(frozen=True)
class WireEntry:
    """One wire format: its name, where a request body keeps the conversation and the system
    prompt, and the URL paths of a model call (for the router, ``harness.contract.routing``)."""

    id: str
    #: The human name, for messages.
    title: str
    #: The request body's key holding the conversation list.
    list_key: str
    #: The request body's top-level key holding the system prompt (None: it is a message).
    system_field: str | None
    #: The path of a model call on one of its providers' hosts (``re.search`` on the path
    #: without a trailing slash).
    path: str
    #: The path that marks a model call in this wire on any other host (None: only on its
    #: providers' hosts), for OpenAI-compatible proxies and gateways.
    anywhere: str | None = None
    #: Whether a provider of this wire takes its native reasoning back as unsigned text.
    reasoning_as_text: bool = False


#: Every wire format. A provider's parsers read its wires; the first provider of a wire in
#: ``PROVIDER_TABLE`` is the one a recording in that wire replays with when nothing says which.
WIRE_TABLE: tuple[WireEntry, ...] = (
    # https://docs.anthropic.com/en/api/messages; gateways serve it under /v1/messages
    WireEntry("anthropic", "Anthropic Messages", "messages", "system", r"/messages$", r"/v1/messages$"),
    # https://ai.google.dev/api/generate-content
    WireEntry("gemini", "Gemini generateContent", "contents", "systemInstruction", _GEMINI_PATH, _GEMINI_PATH),
    # https://platform.openai.com/docs/api-reference/chat/create
    WireEntry(
        "openai-chat", "OpenAI Chat Completions", "messages", None, r"/chat/completions$", r"/chat/completions$"
    ),
    # https://platform.openai.com/docs/api-reference/responses/create
    WireEntry("openai-responses", "OpenAI Responses", "input", "instructions", r"/responses$", r"/responses$"),
    # https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
    WireEntry("bedrock-converse", "AWS Bedrock Converse", "messages", "system", r"^/model/[^/]+/converse(-stream)?$"),
    # https://docs.cohere.com/v2/reference/chat: Chat-shaped messages, thinking as unsigned text
    WireEntry("cohere-v2", "Cohere v2 Chat", "messages", None, r"^/v2/chat$", reasoning_as_text=True),
)  # fmt: skip


@dataclass(frozen=True)
class Recording:
    """How ``harness record`` reaches a provider's own API (``harness.record.endpoints``).

    ``base_url`` follows the official SDK's ``base_url`` convention, so ``--base-url`` means what
    it means there; ``path`` is relative to it (empty: the path depends on the call's model, as
    Gemini's and Bedrock's do). ``auth`` is ``authorization`` (``Bearer KEY``), ``sigv4`` (AWS
    signing) or the name of a header that carries the bare key.
    """

    key_env: str
    base_url: str
    path: str
    docs: str
    auth: str = "authorization"
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ChatDialect:
    """How an OpenAI-compatible server's Chat Completions depart from OpenAI's, where a judge reads it.

    A dialect sends its native reasoning back as unsigned text (``reasoning_content``), keeps
    Chat's pairing rules and has rules of its own (``harness.rules``, by provider id).
    """

    #: The stream delta field carrying reasoning text: ``reasoning_content`` (DeepSeek, Z.ai),
    #: ``reasoning`` (Groq with ``reasoning_format: parsed``, Cerebras, Hugging Face's router:
    #: huggingface_hub's ``ChatCompletionStreamOutputDelta.reasoning``), or ``content`` (Mistral: a
    #: list of content chunks, reasoning as a ``thinking`` chunk).
    reasoning_field: str = "reasoning_content"
    #: Each tool call arrives whole in one delta (Mistral's SDK requires the name on every one).
    whole_tool_calls: bool = False
    #: The ``tool_choice`` value that forces a tool call.
    required_choice: str = "required"
    #: The usage details its stream reports, by the canonical ``Usage`` names: its SDK's chunk
    #: types (groq 1.7, cerebras-cloud-sdk 1.91: cached and reasoning tokens; huggingface_hub 2.4:
    #: none) or what the provider sends beyond its SDK (Mistral: cached tokens, recorded in
    #: cassettes/mistral). DeepSeek and Z.ai publish no SDK: as Chat.
    usage_details: frozenset[str] = frozenset(
        {"cached_input_tokens", "cache_creation_input_tokens", "reasoning_tokens"}
    )
    #: Its chunks carry ``system_fingerprint`` (mistralai's ``CompletionChunk`` has none).
    fingerprint: bool = True


@dataclass(frozen=True)
class ProviderEntry:
    """One provider id and its facts (see the module docstring)."""

    id: str
    #: The wire of its own API: what its request adapter renders and its parser reads by default.
    wire: str
    #: The model a request names when ``params.model`` is None (``harness.default_model``).
    default_model: str
    #: How ``harness record`` reaches its API.
    record: Recording
    #: Models its streams name, the first being the one an emitted stream names by default.
    stream_models: tuple[str, ...]
    #: Hosts of its API (``fnmatch`` patterns; ``host/prefix`` also requires the path prefix).
    #: Empty: found by path alone (``WireEntry.anywhere``), as OpenAI's own API is.
    hosts: tuple[str, ...] = ()
    #: Wires it serves beside its own; its folder has a parser ``stream_<wire>.py`` for each.
    other_wires: tuple[str, ...] = ()
    #: Reasoning signature formats it accepts as its own (``ThinkingSignaturePart.format``).
    signature_formats: frozenset[str] = field(default_factory=lambda: frozenset())
    #: Endpoints serving its wire beside its own API (``harness render --endpoint``): each is a
    #: module of its folder (``harness/providers/<folder>/<endpoint>.py``).
    endpoints: tuple[str, ...] = ()
    #: Set for an OpenAI-compatible Chat Completions dialect.
    chat: ChatDialect | None = None

    @property
    def folder(self) -> str:
        """Its package under ``harness/providers/``."""
        return self.id.replace("-", "_")

    @property
    def wires(self) -> tuple[str, ...]:
        """Every wire its parsers read, its own first."""
        return (self.wire, *self.other_wires)

    @property
    def reasoning_as_text(self) -> bool:
        """Whether its native reasoning goes back as unsigned text (a dialect's ``reasoning_content``)."""
        return self.chat is not None or wire_entry(self.wire).reasoning_as_text


_OPENAI = "https://api.openai.com/v1"

#: Every provider, in the order of every report.
PROVIDER_TABLE: tuple[ProviderEntry, ...] = (
    ProviderEntry(
        "anthropic",
        "anthropic",
        "claude-sonnet-4-5",
        Recording(
            "ANTHROPIC_API_KEY",
            "https://api.anthropic.com",
            "v1/messages",
            "https://docs.anthropic.com/en/api/messages",
            auth="x-api-key",
            headers=(("anthropic-version", "2023-06-01"),),
        ),
        stream_models=("claude-sonnet-4-5-20250929", "claude-opus-4-1"),
        hosts=("api.anthropic.com", "*.anthropic.com"),
        signature_formats=frozenset({"anthropic", "anthropic-redacted"}),
        endpoints=("bedrock",),  # AWS Bedrock's InvokeModel with Anthropic's Messages body
    ),
    ProviderEntry(
        "gemini",
        "gemini",
        "gemini-2.5-flash",
        Recording(
            "GEMINI_API_KEY",
            "https://generativelanguage.googleapis.com/v1beta",
            "",
            "https://ai.google.dev/api/generate-content",
            auth="x-goog-api-key",
        ),
        stream_models=("gemini-3-pro-preview", "gemini-2.5-flash"),
        hosts=("generativelanguage.googleapis.com",),
        signature_formats=frozenset({"google"}),
        endpoints=("vertex",),  # Google Vertex AI's generateContent
    ),
    ProviderEntry(
        "openai-chat",
        "openai-chat",
        "gpt-4.1-mini",  # a current general chat model
        Recording(
            "OPENAI_API_KEY", _OPENAI, "chat/completions", "https://platform.openai.com/docs/api-reference/chat/create"
        ),
        stream_models=("gpt-4.1-mini-2025-04-14", "gpt-4o-2024-08-06"),
    ),
    ProviderEntry(
        "openai-responses",
        "openai-responses",
        "gpt-5",
        Recording(
            "OPENAI_API_KEY", _OPENAI, "responses", "https://platform.openai.com/docs/api-reference/responses/create"
        ),
        stream_models=("gpt-5-2025-08-07", "o3"),
        signature_formats=frozenset({"openai-responses"}),
    ),
    ProviderEntry(
        "openrouter",
        "openai-chat",
        "openai/gpt-4.1-mini",  # the recorded tool-call round trip's
        Recording(
            "OPENROUTER_API_KEY",
            "https://openrouter.ai/api/v1",
            "chat/completions",
            "https://openrouter.ai/docs/api-reference/chat-completion",
        ),
        stream_models=("anthropic/claude-sonnet-4.5", "openai/o3", "google/gemini-3-pro-preview"),
        hosts=("openrouter.ai", "*.openrouter.ai"),
        other_wires=("openai-responses",),
        # OpenRouter's ReasoningFormat enum (openrouter SDK components/reasoningformat.py).
        signature_formats=frozenset(
            {
                "anthropic-claude-v1",
                "openai-responses-v1",
                "azure-openai-responses-v1",
                "bedrock-openai-responses-v1",
                "xai-responses-v1",
                "bedrock-xai-responses-v1",
                "meta-responses-v1",
                "google-gemini-v1",
                "unknown",
            }
        ),
    ),
    ProviderEntry(
        "bedrock",
        "bedrock-converse",
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0",  # in the URL, not the body
        # SigV4 (harness/record/aws.py): the access key id names the credentials; the secret key,
        # session token and region come from their own AWS_* variables. ``{region}`` is filled in.
        Recording(
            "AWS_ACCESS_KEY_ID",
            "https://bedrock-runtime.{region}.amazonaws.com",
            "",
            "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html",
            auth="sigv4",
        ),
        stream_models=("us.anthropic.claude-sonnet-4-5-20250929-v1:0",),  # the stream names none
        hosts=("bedrock-runtime*.amazonaws.com",),
        # reasoningText.signature / reasoningContent.redactedContent (base64)
        signature_formats=frozenset({"bedrock", "bedrock-redacted"}),
    ),
    # OpenAI-compatible Chat Completions dialects: Bearer keys, paths as their recordings show
    # them (traffic/pydantic-ai-more/, SOURCES.md); evidence for each fact in docs/field-rules.md.
    ProviderEntry(
        "mistral",
        "openai-chat",
        "mistral-large-latest",  # the recorded tool-choice matrix's
        Recording("MISTRAL_API_KEY", "https://api.mistral.ai/v1", "chat/completions", "https://docs.mistral.ai/api/#tag/chat"),
        stream_models=("mistral-large-latest", "magistral-small-latest"),
        hosts=("api.mistral.ai",),
        # Magistral's reasoning is a ``thinking`` content chunk (docs.mistral.ai/capabilities/reasoning);
        # ``tool_choice: "any"`` forces a call (recorded 200:
        # models__test_tool_choice_matrix__test_tool_choice_matrix[tools_plus_output-mistral].yaml#0;
        # docs: "auto" | "any" | "none" | "required", Bedrock's Mistral page lists auto|any|none).
        chat=ChatDialect(
            reasoning_field="content",
            whole_tool_calls=True,
            required_choice="any",
            usage_details=frozenset({"cached_input_tokens"}),
            fingerprint=False,
        ),
    ),
    ProviderEntry(
        "groq",
        "openai-chat",
        "llama-3.3-70b-versatile",  # recorded: test_groq_model_instructions
        Recording("GROQ_API_KEY", "https://api.groq.com/openai/v1", "chat/completions", "https://console.groq.com/docs/openai"),
        stream_models=("openai/gpt-oss-120b", "qwen/qwen3-32b"),
        hosts=("api.groq.com/openai/",),
        # with ``reasoning_format: parsed``
        chat=ChatDialect(reasoning_field="reasoning", usage_details=frozenset({"cached_input_tokens", "reasoning_tokens"})),
    ),
    ProviderEntry(
        "deepseek",
        "openai-chat",
        "deepseek-v4-flash",  # the recorded Responses calls' model
        Recording("DEEPSEEK_API_KEY", "https://api.deepseek.com", "chat/completions", "https://api-docs.deepseek.com/"),
        stream_models=("deepseek-v4-flash", "deepseek-reasoner"),
        hosts=("api.deepseek.com",),
        other_wires=("openai-responses",),  # api-docs.deepseek.com/guides/responses_api
        chat=ChatDialect(),
    ),
    ProviderEntry(
        "cerebras",
        "openai-chat",
        "llama-3.3-70b",  # recorded: test_cerebras_model_simple
        Recording(
            "CEREBRAS_API_KEY",
            "https://api.cerebras.ai/v1",
            "chat/completions",
            "https://inference-docs.cerebras.ai/api-reference/chat-completions",
        ),
        stream_models=("zai-glm-4.7", "llama-3.3-70b"),
        hosts=("api.cerebras.ai",),
        chat=ChatDialect(reasoning_field="reasoning", usage_details=frozenset({"cached_input_tokens", "reasoning_tokens"})),
    ),
    ProviderEntry(
        "zai",
        "openai-chat",
        "glm-4.7",  # recorded: test_zai_model_simple
        Recording("ZAI_API_KEY", "https://api.z.ai/api/paas/v4", "chat/completions", "https://docs.z.ai/api-reference"),
        stream_models=("glm-4.7", "glm-5.2"),
        hosts=("api.z.ai", "open.bigmodel.cn"),
        chat=ChatDialect(),
    ),
    ProviderEntry(
        "huggingface",
        "openai-chat",
        "deepseek-ai/DeepSeek-R1",  # recorded: test_simple_completion
        Recording(
            "HF_TOKEN",
            "https://router.huggingface.co/v1",
            "chat/completions",
            "https://huggingface.co/docs/inference-providers",
        ),
        stream_models=("deepseek-ai/DeepSeek-R1",),
        hosts=("router.huggingface.co",),
        chat=ChatDialect(reasoning_field="reasoning", usage_details=frozenset()),
    ),
    ProviderEntry(
        "cohere",
        "cohere-v2",
        "command-r7b-12-2024",  # every recorded chat call but one
        # CO_API_KEY is the variable the cohere SDK reads; api.cohere.ai is the older host name.
        Recording("CO_API_KEY", "https://api.cohere.com", "v2/chat", "https://docs.cohere.com/v2/reference/chat"),
        stream_models=("command-r7b-12-2024", "command-a-reasoning-08-2025"),  # the stream names none
        hosts=("api.cohere.com", "api.cohere.ai"),
    ),
)  # fmt: skip

_PROVIDERS = {entry.id: entry for entry in PROVIDER_TABLE}
_WIRES = {entry.id: entry for entry in WIRE_TABLE}

#: The provider ids (DESIGN "Adapters"), in table order.
PROVIDERS: tuple[str, ...] = tuple(_PROVIDERS)
#: Providers that speak the OpenAI Chat Completions wire with rules of their own: a judge keyed
#: by wire treats them as ``openai-chat`` unless it knows better.
CHAT_DIALECTS: tuple[str, ...] = tuple(e.id for e in PROVIDER_TABLE if e.chat is not None)
#: Endpoints that serve a provider's wire beside its own API, by provider (``Route.endpoint``).
ENDPOINTS: dict[str, tuple[str, ...]] = {e.id: e.endpoints for e in PROVIDER_TABLE if e.endpoints}


def provider_entry(provider: str) -> ProviderEntry:
    """The entry of a provider id; ValueError naming the valid ids otherwise."""
    found = _PROVIDERS.get(provider)
    if found is None:
        raise ValueError(f"unknown provider '{provider}' (expected one of: {', '.join(PROVIDERS)})")
    return found


def chat_dialect(provider: str) -> ChatDialect:
    """How a Chat Completions dialect departs from OpenAI's; ValueError for a provider that is none."""
    found = provider_entry(provider).chat
    if found is None:
        raise ValueError(f"{provider} is not a Chat Completions dialect (one of: {', '.join(CHAT_DIALECTS)})")
    return found


def wire_entry(wire: str) -> WireEntry:
    """The entry of a wire format; ValueError naming the valid ones otherwise."""
    found = _WIRES.get(wire)
    if found is None:
        raise ValueError(f"unknown wire '{wire}' (expected one of: {', '.join(_WIRES)})")
    return found


def home_provider(wire: str) -> str:
    """The first provider whose own API speaks ``wire``: whose parser and oracles judge that wire
    when nothing names another provider (a recording with no URL, another provider's endpoint)."""
    wire_entry(wire)
    return next(e.id for e in PROVIDER_TABLE if e.wire == wire)


def wire_of(provider: str) -> str:
    """The wire of a provider's own API (what its adapter renders)."""
    return provider_entry(provider).wire


def _host_rows() -> tuple[
    dict[str, list[tuple[str, ProviderEntry]]], list[tuple[re.Pattern[str], str, ProviderEntry]]
]:
    """``ProviderEntry.hosts`` as (exact host -> [(path prefix, provider)], [(wildcard, path prefix,
    provider)]), built once: the router runs on every recorded call."""
    exact: dict[str, list[tuple[str, ProviderEntry]]] = {}
    wild: list[tuple[re.Pattern[str], str, ProviderEntry]] = []
    for entry in PROVIDER_TABLE:
        for pattern in entry.hosts:
            name, _, prefix = pattern.partition("/")
            if any(c in name for c in "*?["):
                wild.append((re.compile(translate(name)), "/" + prefix, entry))
            else:
                exact.setdefault(name, []).append(("/" + prefix, entry))
    return exact, wild


_EXACT_HOSTS, _WILD_HOSTS = _host_rows()


def host_provider(host: str, path: str) -> ProviderEntry | None:
    """The provider whose API answers on ``host`` (with the entry's path prefix), if any."""
    for prefix, entry in _EXACT_HOSTS.get(host, ()):
        if path.startswith(prefix):
            return entry
    return next((e for name, prefix, e in _WILD_HOSTS if name.match(host) and path.startswith(prefix)), None)


def _check_table() -> None:
    """The table's own consistency, checked at import: a typo here would misroute silently."""
    for entry in PROVIDER_TABLE:
        for wire in entry.wires:
            wire_entry(wire)
        if not entry.stream_models:
            raise RuntimeError(f"provider table: {entry.id} names no stream model")
    for wire in WIRE_TABLE:
        re.compile(wire.path)
        if not any(e.wire == wire.id for e in PROVIDER_TABLE):
            raise RuntimeError(f"provider table: no provider has the {wire.id} wire as its own")


_check_table()
