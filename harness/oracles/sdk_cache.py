"""The SDK oracle's request validators, cached on disk: ``check`` without importing the SDKs.

Why: importing a provider SDK is most of a short ``harness check`` (``anthropic`` alone
builds some 1,400 pydantic models on import, about 1.5 s of CPU), while the request types
the oracle uses are one pydantic-core schema that pydantic-core rebuilds into a validator in
milliseconds. So the schema is written once, keyed by everything that could change it, and
read back instead of importing the SDK.

What is stored is the validator's own core schema (``SchemaValidator.__reduce__``), with
the SDK's classes taken out so that loading it imports nothing of the SDK:

- a TypedDict's class is used by pydantic-core only for its name (``cls_name``, in error
  locations): the name is kept, the class dropped;
- a model's class (Anthropic's response models inside the block unions) becomes a
  stand-in class of the same name (``Standin``) that pydantic-core fills as it would the
  model (``__dict__``, ``__pydantic_extra__``); the oracle walks either alike;
- ``metadata`` and ``serialization`` entries (JSON Schema and serializer hooks) are not read
  by a validator and are left out;
- pydantic's own local functions (the path validator) are stored as their code.

Anything else that still points into the SDK (a validator function of the SDK's own, a
model with a custom ``__init__`` or post-init hook) makes the schema not portable: nothing
is cached, and the oracle is built from the SDK as before. A cache file that is absent,
unreadable or from another key is ignored and rewritten. Same verdicts either way
(``tests/test_oracles_sdk_cache.py`` compares them on good and bad bodies).

Where: ``$HARNESS_CACHE_DIR``, else ``$XDG_CACHE_HOME/llm-wire-harness``, else
``~/.cache/llm-wire-harness``, never the project being checked. ``HARNESS_SDK_CACHE=0``
turns the cache off. Written atomically (a temporary file renamed into place).
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import pickle
import sys
import tempfile
import types
from collections.abc import Callable
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any, ClassVar, cast

__all__ = ["DISABLE_ENV", "Standin", "cache_dir", "cached_validators", "key"]

DISABLE_ENV = "HARNESS_SDK_CACHE"
_FORMAT = 2


class _NotPortable(Exception):
    """The schema still needs the SDK to load: not cached."""


class Standin:
    """A model class of the SDK, as the oracle needs it: its name and field names.

    pydantic-core fills an instance as it fills the model's (``__dict__``: the fields;
    ``__pydantic_extra__``: extra keys when the model allows them)."""

    model_fields: ClassVar[dict[str, None]] = {}
    __pydantic_extra__: dict[str, Any] | None = None

    @property
    def model_extra(self) -> dict[str, Any] | None:
        return self.__pydantic_extra__


@cache
def _standin(module: str, qualname: str, fields: tuple[str, ...]) -> type[Standin]:
    name = qualname.rpartition(".")[2]
    return type(
        name,
        (Standin,),
        {"__module__": module, "__qualname__": qualname, "model_fields": dict.fromkeys(fields)},
    )


def _function(module: str, code: bytes, name: str, defaults: Any, cells: tuple[Any, ...]) -> Any:
    """A local function of pydantic's (a closure), rebuilt from its code and its cells' values."""
    closure = tuple(types.CellType(v) for v in cells)
    return types.FunctionType(marshal.loads(code), vars(import_module(module)), name, defaults, closure)


def _portable(node: Any, sdk: tuple[str, ...]) -> Any:
    """A copy of a core schema without the SDK's classes and the entries a validator does not read."""
    if isinstance(node, dict):
        d = cast(dict[str, Any], node)
        if not isinstance(d.get("type"), str):  # not a schema (a map of fields: "metadata" may be a field)
            return {k: _portable(v, sdk) for k, v in d.items()}
        out = {
            k: v if k in ("default", "expected") else _portable(v, sdk)  # values, not schemas
            for k, v in d.items()
            if k not in ("metadata", "serialization", "cls")
        }
        cls = d.get("cls")
        if cls is None:
            return out
        if not isinstance(cls, type) or cls.__module__.split(".")[0] not in sdk:
            out["cls"] = cls
        elif d.get("type") == "typed-dict":
            out.setdefault("cls_name", cls.__name__)
        elif d.get("type") == "model":
            if d.get("custom_init") or d.get("post_init") or d.get("root_model"):
                raise _NotPortable(f"model {cls.__qualname__} runs its own code")
            inner = d["schema"]
            if inner.get("type") != "model-fields":
                raise _NotPortable(f"model {cls.__qualname__}: {inner.get('type')}")
            out["cls"] = _StandinRef(cls.__module__, cls.__qualname__, tuple(inner["fields"]))
        else:
            raise _NotPortable(f"{d.get('type')} of {cls.__qualname__}")
        return out
    if isinstance(node, list):
        return [_portable(v, sdk) for v in cast(list[Any], node)]
    if isinstance(node, tuple):
        return tuple(_portable(v, sdk) for v in cast(tuple[Any, ...], node))
    return node


class _StandinRef:
    def __init__(self, module: str, qualname: str, fields: tuple[str, ...]) -> None:
        self.args = (module, qualname, fields)

    def __reduce__(self) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        return _standin, self.args


class _Pickler(pickle.Pickler):
    def __init__(self, file: Any, sdk: tuple[str, ...]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._sdk = sdk

    def reducer_override(self, obj: Any) -> Any:
        owner = obj if isinstance(obj, type | types.FunctionType) else type(obj)
        module = getattr(owner, "__module__", None)
        if isinstance(module, str) and module.split(".")[0] in self._sdk:  # loading it would import the SDK
            raise _NotPortable(f"{module}.{getattr(owner, '__qualname__', owner)}")
        if isinstance(obj, types.FunctionType) and "<locals>" in obj.__qualname__:
            cells = tuple(c.cell_contents for c in obj.__closure__ or ())
            return _function, (
                obj.__module__,
                marshal.dumps(obj.__code__),
                obj.__name__,
                obj.__defaults__,
                cells,
            )
        return NotImplemented


def cache_dir() -> Path | None:
    """Where cached validators live (None: the cache is off)."""
    if os.environ.get(DISABLE_ENV, "").strip().lower() in ("0", "off", "false", "no"):
        return None
    explicit = os.environ.get("HARNESS_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "llm-wire-harness"


@cache
def _source_hash() -> str:
    """The code that builds and reads the schemas (a change to it is a new key)."""
    h = hashlib.sha256()
    here = Path(__file__).parent
    for name in ("sdk.py", "sdk_cache.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()[:16]


def key(provider: str, distributions: tuple[str, ...]) -> str | None:
    """The cache key of a provider's validators: SDK, pydantic, Python and harness versions and
    the source of this module and ``sdk.py`` (None: a distribution is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        versions = [f"{d}={version(d)}" for d in (*distributions, "pydantic", "pydantic-core")]
    except PackageNotFoundError:
        return None
    parts = [provider, *versions, sys.version, _source_hash(), str(_FORMAT)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def dump(validators: dict[str, Any], sdk: tuple[str, ...]) -> bytes | None:
    """The bytes to cache for named ``SchemaValidator``s (None: not portable)."""
    import io

    parts: dict[str, tuple[Any, ...]] = {}
    try:
        for name, validator in validators.items():
            _cls, (schema, *rest) = (
                validator.__reduce__()
            )  # (schema, config, ...): SchemaValidator's arguments
            parts[name] = (_portable(schema, sdk), *rest)
        buf = io.BytesIO()
        _Pickler(buf, sdk).dump(parts)
    except (_NotPortable, pickle.PicklingError, TypeError, AttributeError):
        return None
    return buf.getvalue()


def load(data: bytes) -> dict[str, Any]:
    """Validators from cached bytes (raises on anything wrong with them)."""
    from pydantic_core import SchemaValidator

    parts = cast(dict[str, tuple[Any, ...]], pickle.loads(data))
    return {name: SchemaValidator(*args) for name, args in parts.items()}


def _own(path: Path) -> bool:
    """Only a file this user owns and no one else can write is loaded: a pickle runs code as it
    loads, so a cache another account could have written is built again instead."""
    try:
        st = path.stat()
    except OSError:
        return False
    getuid = getattr(os, "getuid", None)
    return (getuid is None or st.st_uid == getuid()) and not st.st_mode & 0o022


def cached_validators(
    provider: str,
    distributions: tuple[str, ...],
    sdk: tuple[str, ...],
    build: Callable[[], dict[str, Any]],
) -> dict[str, Any]:
    """A provider's named validators: from the cache when it holds them for this key, else built
    (``build``, which imports the SDK) and cached for the next run when they are portable."""
    where, k = cache_dir(), key(provider, distributions)
    path = where / "sdk-oracle" / f"{provider}-{k}.pickle" if where is not None and k is not None else None
    if path is not None and _own(path):
        try:
            return load(path.read_bytes())
        except Exception:  # absent, truncated, from another pydantic: built again below
            pass
    built = build()
    if path is not None:
        data = dump(built, sdk)
        if data is not None:
            with contextlib.suppress(OSError):  # a read-only home: no cache, same verdicts
                _write(path, data)
    return built
