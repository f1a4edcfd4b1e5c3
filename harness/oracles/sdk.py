"""Official-SDK oracle: a request body against each provider SDK's own request types.

Why a second oracle: the SDKs are what most clients send through, and a disagreement
between SDK and spec (version skew) is worth seeing. Used naively the SDK types
accept almost anything, so each is wrapped (recipes in ``notes/oracles.md``):

- openai / anthropic ship TypedDicts. ``TypeAdapter(List[TD], config=extra forbid,
  strict)``: the config is refused on a TypedDict but allowed on ``List[TD]``, and it
  reaches every nested TypedDict. ``Iterable[...]`` fields validate lazily, so the
  result is walked to force them (``_materialize``); anthropic's block union also
  holds the response *models* (``extra='allow'``), whose ``model_extra`` we reject.
  The streaming or non-streaming params type is chosen by ``body["stream"]``.
- google-genai has no type for the REST body: each top-level key is validated with
  its own pydantic type (``Content``, ``Tool``, ...); unknown top-level keys fail and
  unknown-enum ``UserWarning``s become errors. genai also accepts snake_case names;
  the spec oracle is the one that enforces camelCase.
- openrouter: ``ChatRequest`` (pydantic models, ``extra`` left at ignore). Instead of
  the global ``BaseModel.model_config["extra"] = "forbid"`` patch from the notes,
  which only works if it runs before anything imports ``openrouter.components`` and
  then changes the SDK for every user in the process, unknown keys are found by
  walking the input beside the validated model (``_unknown_keys``). Same verdicts,
  no global state, import order irrelevant. Models that opt into ``extra='allow'``
  keep it. ``strict=True`` also turns off the SDK's open-enum fallback
  (``UnrecognizedStr``), so unknown enum values fail.

Every oracle returns ``(path, message)`` pairs with ``path`` a ``/``-joined path into
the body (union-branch tags removed). Oracles are built once, on first use.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, NamedTuple, Protocol, cast

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from harness.oracles.sdk_cache import Standin, cache_dir, cached_validators

__all__ = ["SDK_TARGETS", "SdkOracle", "sdk_oracle"]

Loc = tuple[str | int, ...]
RawError = tuple[Loc, str, str]  # (pydantic loc, error type, message)
_DISCRIMINATORS = ("type", "role")


class SdkOracle(Protocol):
    def errors(self, body: dict[str, Any]) -> list[tuple[str, str]]: ...


# --- error reporting -----------------------------------------------------------------


def _body_path(body: Any, loc: Loc) -> tuple[str | int, ...]:
    """The parts of a pydantic ``loc`` that address the body; union-branch tags dropped."""
    out: list[str | int] = []
    cur = body
    for part in loc:
        if isinstance(cur, dict) and isinstance(part, str) and part in cur:
            out.append(part)
            cur = cast(dict[str, Any], cur)[part]
        elif isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cast(list[Any], cur)):
            out.append(part)
            cur = cast(list[Any], cur)[part]
    return tuple(out)


class _Err(NamedTuple):
    loc: Loc  # pydantic's, with union-branch tags
    kind: str
    msg: str
    path: Loc  # into the body


def _drop_wrong_variants(errs: list[_Err]) -> list[_Err]:
    """Drop union branches whose own ``type``/``role`` literal failed: not the meant variant.

    Where that leaves a spot with nothing said about it (nor about a non-root ancestor,
    other than "wrong type"), the literal errors are restored: they list the values that
    were expected there.
    """
    off = {
        e.loc[:-1]
        for e in errs
        if e.kind == "literal_error" and e.loc and e.loc[-1] in _DISCRIMINATORS and e.path[:-1] != e.loc[:-1]
    }
    # Set lookups of prefixes, not a scan of every pair: a body with many messages gives
    # thousands of errors (one per failed branch), and the pairs grew with their square.
    widths = {len(b) for b in off}
    kept = [e for e in errs if not any(e.loc[:k] in off for k in widths)]
    below = {p[:k] for p in (e.path for e in kept) for k in range(len(p) + 1)}  # every prefix of a kept path
    above = {e.path for e in kept if e.path and not _is_shape(e)}
    literals = [e for e in errs if e.loc[:-1] in off and e.kind == "literal_error"]
    restored: set[Loc] = set()
    for site in sorted({e.path[:-1] for e in literals}, key=len, reverse=True):
        # nothing kept at or under ``site``, and no kept (non-shape) error at or above it
        if site not in below and not any(site[:k] in above for k in range(len(site) + 1)):
            restored.add(site)
            below.update(site[:k] for k in range(len(site) + 1))
    return kept + [e for e in literals if e.path[:-1] in restored]


def _is_shape(e: _Err) -> bool:
    return e.kind.endswith("_type") or e.kind == "none_required"


def _drop_shape_mismatches(errs: list[_Err]) -> list[_Err]:
    """Drop "wrong type" errors of union branches when another branch got further.

    E.g. ``input: str | list[...]`` reports "should be a valid string" beside the real
    error deep in the list; Speakeasy's ``Nullable``/``Unset`` add two more per field.
    """

    # Counted once, looked up per error (a scan of every pair grew with the square of the errors).
    deeper = {f.path[:k] for f in errs for k in range(len(f.path))}  # proper prefixes of some path
    at: dict[Loc, int] = {}  # errors at a path
    solid: dict[Loc, int] = {}  # errors at a path that are not "wrong type"
    for f in errs:
        at[f.path] = at.get(f.path, 0) + 1
        if not _is_shape(f):
            solid[f.path] = solid.get(f.path, 0) + 1

    def superseded(e: _Err) -> bool:  # e is a shape error: another error goes deeper, or sits beside it
        if e.path in deeper:
            return True
        return at[e.path] > 1 if "Unset" in e.msg else solid.get(e.path, 0) > 0

    return [e for e in errs if not (_is_shape(e) and superseded(e))]


def _report(body: Any, raw: list[RawError]) -> list[tuple[str, str]]:
    """Pydantic errors as ``(path, message)``, minus the noise of failed union branches."""
    errs = [_Err(loc, kind, msg, _body_path(body, loc)) for loc, kind, msg in raw]
    errs = _drop_shape_mismatches(_drop_wrong_variants(errs))
    seen: dict[tuple[str, str], None] = {}
    for e in errs:
        detail = f"{e.msg}: {e.loc[-1]}" if e.kind in ("missing", "extra_forbidden") and e.loc else e.msg
        seen.setdefault(("/".join(str(p) for p in e.path), f"{detail} [{e.kind}]"), None)
    return list(seen)  # capped by ``validate`` after allowances (a capped list would hide what they cover)


def _raw(err: ValidationError, prefix: Loc = ()) -> list[RawError]:
    return [(prefix + tuple(e["loc"]), e["type"], e["msg"]) for e in err.errors()]


# --- TypedDict params (openai, anthropic) ------------------------------------------------


class _Invalid(Exception):
    def __init__(self, errors: list[RawError]) -> None:
        super().__init__(errors)
        self.errors = errors


#: Values with nothing inside to force or check (most of a body: its strings and numbers).
_LEAVES: frozenset[type] = frozenset({str, int, float, bool, type(None), bytes})


def _materialize(value: Any, loc: Loc) -> Any:
    """Force lazy ``Iterable[...]`` validators and reject extras on response-model branches."""
    if type(value) in _LEAVES:
        return value
    if isinstance(value, dict):
        d = cast(dict[Any, Any], value)
        for k, v in d.items():
            if type(v) not in _LEAVES:
                forced = _materialize(v, (*loc, k))
                if forced is not v:
                    d[k] = forced
        return d
    if isinstance(value, list):
        items = cast(list[Any], value)
        return [v if type(v) in _LEAVES else _materialize(v, (*loc, i)) for i, v in enumerate(items)]
    if isinstance(value, BaseModel | Standin):  # a stand-in: the same model, from the cache (sdk_cache.py)
        if value.model_extra:
            raise _Invalid(
                [((*loc, k), "extra_forbidden", "Extra inputs are not permitted") for k in value.model_extra]
            )
        for name in type(value).model_fields:
            _materialize(getattr(value, name), (*loc, name))
        return value
    if type(value).__name__ == "ValidatorIterator":  # pydantic's lazy Iterable[...]
        out: list[Any] = []
        try:
            for i, v in enumerate(cast(Iterable[Any], value)):
                out.append(_materialize(v, (*loc, i)))
        except ValidationError as e:
            raise _Invalid(_raw(e, loc)) from None
        return out
    return value


def _typed_dict_validator(tp: type) -> Any:
    """The pydantic-core validator of ``list[tp]``, strict and closed (see the module docstring)."""
    return TypeAdapter(list[tp], config=ConfigDict(extra="forbid", strict=True)).validator  # pyright: ignore[reportInvalidTypeForm]


class TypedDictOracle:
    """Strict, closed validation of a params TypedDict; streaming variant chosen per body.

    Built from the types (each validator made on first use), or from ready validators
    (``from_validators``: the on-disk cache, ``sdk_cache.py``)."""

    def __init__(self, streaming: type | None, non_streaming: type | None) -> None:
        self._types = {True: streaming, False: non_streaming}
        self._validators: dict[bool, Any] = {}

    @classmethod
    def from_validators(cls, streaming: Any, non_streaming: Any) -> TypedDictOracle:
        oracle = cls(None, None)
        oracle._validators = {True: streaming, False: non_streaming}
        return oracle

    def validator(self, stream: bool) -> Any:
        if stream not in self._validators:
            tp = self._types[stream]
            assert tp is not None
            self._validators[stream] = _typed_dict_validator(tp)
        return self._validators[stream]

    def errors(self, body: dict[str, Any]) -> list[tuple[str, str]]:
        try:
            # [body] and loc[1:]: config= is only accepted on the List wrapper.
            _materialize(self.validator(body.get("stream") is True).validate_python([body]), ())
        except ValidationError as e:
            return _report(body, [(loc[1:], k, m) for loc, k, m in _raw(e)])
        except _Invalid as e:
            return _report(body, [(loc[1:], k, m) for loc, k, m in e.errors])
        return []


def _typed_dicts(
    provider: str, distribution: str, package: str, types: Callable[[], tuple[type, type]]
) -> TypedDictOracle:
    """A TypedDict oracle, its validators read from the cache when it holds them (no SDK import)."""
    if cache_dir() is None:
        return TypedDictOracle(*types())

    def build() -> dict[str, Any]:
        streaming, non_streaming = types()
        return {
            "stream": _typed_dict_validator(streaming),
            "non-stream": _typed_dict_validator(non_streaming),
        }

    found = cached_validators(provider, (distribution,), (package,), build)
    return TypedDictOracle.from_validators(found["stream"], found["non-stream"])


def _openai_chat_types() -> tuple[type, type]:
    from openai.types.chat import completion_create_params as p

    return p.CompletionCreateParamsStreaming, p.CompletionCreateParamsNonStreaming


def _openai_responses_types() -> tuple[type, type]:
    from openai.types.responses import response_create_params as p

    return p.ResponseCreateParamsStreaming, p.ResponseCreateParamsNonStreaming


def _anthropic_types() -> tuple[type, type]:
    from anthropic.types import message_create_params as p

    return p.MessageCreateParamsStreaming, p.MessageCreateParamsNonStreaming


def _openai_chat() -> TypedDictOracle:
    return _typed_dicts("openai-chat", "openai", "openai", _openai_chat_types)


def _openai_responses() -> TypedDictOracle:
    return _typed_dicts("openai-responses", "openai", "openai", _openai_responses_types)


def _anthropic() -> TypedDictOracle:
    return _typed_dicts("anthropic", "anthropic", "anthropic", _anthropic_types)


# --- google-genai (piecewise) --------------------------------------------------------------


class GenaiOracle:
    """Each top-level key of a ``generateContent`` body through its google-genai type.

    The keys are the ones the SDK itself writes into a Gemini API request body
    (``models._GenerateContentConfig_to_mldev``); anything else is an unknown key.
    """

    def __init__(self) -> None:
        from google.genai import types as gt

        self._pieces: dict[str, TypeAdapter[Any]] = {
            "contents": TypeAdapter(list[gt.Content]),
            "systemInstruction": TypeAdapter(gt.Content),
            "tools": TypeAdapter(list[gt.Tool]),
            "toolConfig": TypeAdapter(gt.ToolConfig),
            "generationConfig": TypeAdapter(gt.GenerationConfig),
            "safetySettings": TypeAdapter(list[gt.SafetySetting]),
            "cachedContent": TypeAdapter(str, config=ConfigDict(strict=True)),
            "serviceTier": TypeAdapter(str, config=ConfigDict(strict=True)),
            "store": TypeAdapter(bool, config=ConfigDict(strict=True)),
            "labels": TypeAdapter(dict[str, str], config=ConfigDict(strict=True)),
        }

    def errors(self, body: dict[str, Any]) -> list[tuple[str, str]]:
        raw: list[RawError] = []
        for key, value in body.items():
            adapter = self._pieces.get(key)
            if adapter is None:
                raw.append(((key,), "extra_forbidden", "Extra inputs are not permitted"))
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # genai only warns on unknown enum values
                try:
                    adapter.validate_python(value)
                except ValidationError as e:
                    raw.extend(_raw(e, (key,)))
                except Warning as w:
                    raw.append(((key,), "warning", str(w)))
        return _report(body, raw)


# --- openrouter ----------------------------------------------------------------------------


def _field_names(cls: type[BaseModel]) -> dict[str, str]:
    """Input key -> attribute name, by alias and (populate_by_name) by name."""
    names: dict[str, str] = {}
    for name, field in cls.model_fields.items():
        names[name] = name
        for alias in (field.alias, field.validation_alias):
            if isinstance(alias, str):
                names[alias] = name
    return names


def _unknown_keys(raw: Any, value: Any, loc: Loc, out: list[RawError]) -> None:
    """Keys of the input that the validated model silently ignored (``extra='ignore'``)."""
    if isinstance(value, BaseModel) and isinstance(raw, dict):
        names = _field_names(type(value))
        allow = type(value).model_config.get("extra") == "allow"
        for key, sub in cast(dict[str, Any], raw).items():
            if key in names:
                # vars(): the stored value, without the warning a deprecated field's descriptor raises
                _unknown_keys(sub, vars(value).get(names[key]), (*loc, key), out)
            elif not allow:
                out.append(((*loc, key), "extra_forbidden", "Extra inputs are not permitted"))
    elif isinstance(value, list | tuple) and isinstance(raw, list):
        for i, (r, v) in enumerate(zip(cast(list[Any], raw), cast(list[Any], value), strict=False)):
            _unknown_keys(r, v, (*loc, i), out)
    elif isinstance(value, dict) and isinstance(raw, dict):
        d = cast(dict[Any, Any], value)
        for key, sub in cast(dict[Any, Any], raw).items():
            if key in d:
                _unknown_keys(sub, d[key], (*loc, key), out)


class OpenRouterOracle:
    """``openrouter.components.ChatRequest``, strict, plus an unknown-key walk."""

    def __init__(self) -> None:
        from openrouter.components.chatrequest import ChatRequest

        self._model: type[BaseModel] = ChatRequest

    def errors(self, body: dict[str, Any]) -> list[tuple[str, str]]:
        try:
            validated = self._model.model_validate(body, strict=True)
        except ValidationError as e:
            return _report(body, _raw(e))
        raw: list[RawError] = []
        _unknown_keys(body, validated, (), raw)
        return _report(body, raw)


def _bedrock() -> SdkOracle:
    from harness.oracles.bedrock import BotocoreOracle  # botocore is the optional `oracles` extra

    return BotocoreOracle()


# --- the Chat Completions dialects ------------------------------------------------------------


class PydanticRequestOracle:
    """A Speakeasy SDK's pydantic request models (``mistralai``), strict, plus the unknown-key walk
    (as ``OpenRouterOracle``); the streaming or non-streaming model chosen by ``body["stream"]``."""

    def __init__(self, streaming: type[BaseModel], non_streaming: type[BaseModel]) -> None:
        self._models = {True: streaming, False: non_streaming}

    def errors(self, body: dict[str, Any]) -> list[tuple[str, str]]:
        model = self._models[body.get("stream") is True]
        try:
            validated = model.model_validate(body, strict=True)
        except ValidationError as e:
            return _report(body, _raw(e))
        raw: list[RawError] = []
        _unknown_keys(body, validated, (), raw)
        return _report(body, raw)


def _mistral() -> PydanticRequestOracle:
    from mistralai.client.models import ChatCompletionRequest, ChatCompletionStreamRequest

    return PydanticRequestOracle(ChatCompletionStreamRequest, ChatCompletionRequest)


def _groq_types() -> tuple[type, type]:
    from groq.types.chat.completion_create_params import CompletionCreateParams

    return CompletionCreateParams, CompletionCreateParams


def _cerebras_types() -> tuple[type, type]:
    from cerebras.cloud.sdk.types.chat.completion_create_params import CompletionCreateParams

    return CompletionCreateParams, CompletionCreateParams


def _groq() -> TypedDictOracle:
    return _typed_dicts("groq", "groq", "groq", _groq_types)


def _cerebras() -> TypedDictOracle:
    return _typed_dicts("cerebras", "cerebras_cloud_sdk", "cerebras", _cerebras_types)


# --- cohere (v2 Chat) -----------------------------------------------------------------------


def _closed_walk(raw: Any, value: Any, loc: Loc, out: list[RawError]) -> None:
    """Keys of the input no field of the validated model names. Cohere's Fern models all say
    ``extra='allow'`` (a generator default, not the API's word), so here every model is closed."""
    if isinstance(value, BaseModel) and isinstance(raw, dict):
        names = _field_names(type(value))
        for key, sub in cast(dict[str, Any], raw).items():
            if key in names:
                _closed_walk(sub, vars(value).get(names[key]), (*loc, key), out)
            else:
                out.append(((*loc, key), "extra_forbidden", "Extra inputs are not permitted"))
    elif isinstance(value, list | tuple) and isinstance(raw, list):
        for i, (r, v) in enumerate(zip(cast(list[Any], raw), cast(list[Any], value), strict=False)):
            _closed_walk(r, v, (*loc, i), out)


def _tagged(annotation: Any) -> Any:
    """Fern's tagged union (``Annotated[Union[...], UnionMetadata(discriminant=...)]``, a smart union
    to pydantic) as pydantic's own tagged union, also inside a list: a message is then judged as the
    variant its ``role`` names, and a bad role is one error saying so, not every variant's noise."""
    from typing import Annotated, Union, get_args, get_origin

    from pydantic import Discriminator, Tag

    args = get_args(annotation)
    if get_origin(annotation) is list and args:
        return list[_tagged(args[0])]
    if get_origin(annotation) is not Annotated:
        return annotation
    inner, *extras = args
    key = next((getattr(e, "discriminant", None) for e in extras if hasattr(e, "discriminant")), None)
    members = get_args(inner)
    if key is None or not all(isinstance(m, type) and issubclass(m, BaseModel) for m in members):
        return annotation

    def role(value: Any) -> Any:  # named for the error message: "found using role()"
        return cast(dict[str, Any], value).get(key) if isinstance(value, dict) else getattr(value, key, None)

    tagged = tuple(Annotated[m, Tag(str(m.model_fields[key].default))] for m in members)
    return Annotated[Union[tagged], Discriminator(role)]  # pyright: ignore[reportInvalidTypeArguments]  # noqa: UP007


def _closed_enum(annotation: Any) -> Any:
    """``Union[Literal[...], Any, None]`` without its ``Any`` (Fern's open enum); anything else unchanged."""
    from typing import Union, get_args, get_origin

    args = get_args(annotation)
    if get_origin(annotation) is not Union or Any not in args:
        return annotation
    kept = tuple(a for a in args if a is not Any)
    return Union[kept]  # pyright: ignore[reportInvalidTypeArguments]  # noqa: UP007


class CohereOracle:
    """The ``cohere`` SDK's v2 Chat request: one pydantic model built from the keyword parameters
    of ``RawV2Client.chat`` (their SDK annotations: ``ChatMessages``, ``ToolV2``,
    ``ResponseFormatV2``, ``Thinking``...), strict, every object closed; ``stream`` is the
    literal the SDK writes (``chat_stream`` sends ``true``, ``chat`` sends ``false``).

    Fern writes every enum open (``Union[Literal[...], Any]``, forward compatibility): a
    top-level parameter's enum is closed here to its literals (``tool_choice`` REQUIRED | NONE,
    ``safety_mode``); an enum inside a nested model (``Thinking.type``) stays open."""

    def __init__(self) -> None:
        import inspect
        from typing import Literal, get_type_hints

        from cohere.v2.raw_client import RawV2Client
        from pydantic import create_model

        hints = get_type_hints(RawV2Client.chat, include_extras=True)
        fields: dict[str, Any] = {}
        for name, param in inspect.signature(RawV2Client.chat).parameters.items():
            if name in ("self", "request_options"):
                continue
            required = param.default is inspect.Parameter.empty
            fields[name] = (_tagged(_closed_enum(hints[name])), ... if required else None)
        fields["stream"] = (Literal[True, False] | None, None)
        config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)
        self._model: type[BaseModel] = create_model("CohereV2ChatRequest", __config__=config, **fields)

    def errors(self, body: dict[str, Any]) -> list[tuple[str, str]]:
        try:
            validated = self._model.model_validate(body, strict=True)
        except ValidationError as e:
            return _report(body, _raw(e))
        raw: list[RawError] = []
        _closed_walk(body, validated, (), raw)
        return _report(body, raw)


SDK_TARGETS: dict[str, tuple[str, Callable[[], SdkOracle]]] = {
    "openai-chat": ("openai.types.chat.completion_create_params.CompletionCreateParams{Streaming,NonStreaming}",
                    _openai_chat),
    "openai-responses": ("openai.types.responses.response_create_params.ResponseCreateParams{Streaming,NonStreaming}",
                         _openai_responses),
    "anthropic": ("anthropic.types.message_create_params.MessageCreateParams{Streaming,NonStreaming}", _anthropic),
    "gemini": ("google.genai.types.{Content,Tool,ToolConfig,GenerationConfig,SafetySetting} per key", GenaiOracle),
    "openrouter": ("openrouter.components.chatrequest.ChatRequest (strict, unknown keys rejected)", OpenRouterOracle),
    "bedrock": ("botocore.validate.ParamValidator on bedrock-runtime Converse input", _bedrock),
    # Dialects with an official SDK (DeepSeek, Z.ai and Hugging Face's router publish none: rules only).
    "mistral": ("mistralai.client.models.ChatCompletion{Stream,}Request (strict, unknown keys rejected)", _mistral),
    "groq": ("groq.types.chat.completion_create_params.CompletionCreateParams (strict, closed)", _groq),
    "cerebras": ("cerebras.cloud.sdk.types.chat.completion_create_params.CompletionCreateParams (strict, closed)",
                 _cerebras),
    "cohere": ("cohere.v2.raw_client.RawV2Client.chat keyword parameters (strict, every object closed)",
               CohereOracle),
}  # fmt: skip


@cache
def sdk_oracle(provider: str) -> SdkOracle:
    """The SDK oracle for a provider id, built on first use (SDK imports take seconds)."""
    try:
        _, build = SDK_TARGETS[provider]
    except KeyError:
        raise ValueError(f"no SDK oracle for provider {provider!r}") from None
    return build()
