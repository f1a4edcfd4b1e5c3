"""Which dialect a host speaks: every host a client is pointed at, judged as what it is.

Why: the router (``harness.contract.routing``) knows the first-party hosts by name. Any
other host with a ``/chat/completions`` path came out as OpenAI itself, judged by OpenAI's
closed schema and OpenAI-only rules, although Azure OpenAI, Together, Fireworks, xAI and
local servers (vLLM, ollama's ``/v1``, LM Studio) each have extensions of their own. A host
is mapped to one dialect:

- ``openai``: OpenAI's own API (``api.openai.com``): every OpenAI check;
- ``azure``: Azure OpenAI (``*.openai.azure.com``, ``*.cognitiveservices.azure.com``,
  ``*.services.ai.azure.com``): OpenAI's checks, the model named by the deployment URL when the
  body has none, and Azure's own rule (``api-version`` on a deployment URL);
- a provider id of the harness speaking the Chat wire (``mistral``, ``groq``, ``deepseek``,
  ``cerebras``, ``zai``, ``huggingface``, ``openrouter``): that dialect's checks;
- ``compatible``: any other OpenAI-compatible server: the Chat core (the wire's structural rules
  and schema) without what only OpenAI enforces (its closed objects, its null handling, its
  host-bound rules): a server's own extensions (``top_k``, ``repetition_penalty``...) are its own.

Unknown hosts are ``compatible``. The user names a host's dialect with ``--host HOST=DIALECT``
(``calibrate``, ``audit-traffic``) or in the project's ``pyproject.toml``::

    [tool.harness.hosts]
    "llm.internal.example.com" = "groq"
    "gateway.example.com" = "openai"
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qs, unquote, urlsplit

from harness.contract.providers import CHAT_DIALECTS
from harness.contract.routing import Route

__all__ = [
    "AZURE",
    "COMPATIBLE",
    "DIALECTS",
    "HostMap",
    "HostMapError",
    "azure_deployment",
    "host_map",
    "map_route",
]

AZURE = "azure"
COMPATIBLE = "compatible"
#: Every dialect a host can be mapped to.
DIALECTS: tuple[str, ...] = ("openai", AZURE, COMPATIBLE, "openrouter", *CHAT_DIALECTS)

_AZURE_HOSTS = re.compile(
    r"[a-z0-9-]+\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)"
)
_DEPLOYMENT = re.compile(r"/openai/deployments/([^/]+)/")

HostMap = Mapping[str, str]


class HostMapError(ValueError):
    """A host mapping that cannot be used (an unknown dialect, a malformed entry); one line."""


def host_map(entries: Iterable[str] = (), project: Path | None = None) -> dict[str, str]:
    """The user's host -> dialect mapping: ``[tool.harness.hosts]`` of the nearest ``pyproject.toml``
    (from ``project``, default the working directory), then ``HOST=DIALECT`` entries over it."""
    mapping: dict[str, str] = {}
    found = _pyproject(project or Path.cwd())
    if found is not None:
        try:
            data: Any = tomllib.loads(found.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise HostMapError(f"{found}: [tool.harness.hosts]: unreadable ({exc})") from None
        tool: Any = cast(dict[str, Any], data).get("tool", {}) if isinstance(data, dict) else {}
        harness: Any = cast(dict[str, Any], tool).get("harness", {}) if isinstance(tool, dict) else {}
        hosts: Any = cast(dict[str, Any], harness).get("hosts", {}) if isinstance(harness, dict) else {}
        if not isinstance(hosts, dict):
            raise HostMapError(f"{found}: [tool.harness.hosts]: not a table of host = dialect")
        for host, dialect in cast(dict[str, Any], hosts).items():
            mapping[_host(host, f"{found}: [tool.harness.hosts]")] = _dialect(dialect, f"{found}: {host}")
    for entry in entries:
        host, sep, dialect = entry.partition("=")
        if not sep:
            raise HostMapError(f"--host {entry}: expected HOST=DIALECT")
        mapping[_host(host, f"--host {entry}")] = _dialect(dialect.strip(), f"--host {entry}")
    return mapping


def _pyproject(start: Path) -> Path | None:
    for folder in (start.resolve(), *start.resolve().parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def _host(host: str, where: str) -> str:
    name = host.strip().lower()
    if not name or "/" in name or " " in name:
        raise HostMapError(f"{where}: {host!r}: not a host name")
    return name


def _dialect(dialect: Any, where: str) -> str:
    if dialect not in DIALECTS:
        raise HostMapError(f"{where}: unknown dialect {dialect!r} (expected one of: {', '.join(DIALECTS)})")
    return str(dialect)


#: Hosts of OpenAI's own API besides api.openai.com (codex's ChatGPT backend).
_OPENAI_HOSTS = ("api.openai.com", "chatgpt.com")


def _builtin(host: str, route: Route) -> str:
    """The dialect of a host the user did not map: "" where the router's verdict stands."""
    if route.provider not in ("openai-chat", "openai-responses"):
        return ""  # the router named the host's provider (a dialect, Anthropic, Gemini...)
    if not host or host in _OPENAI_HOSTS:
        return "openai"  # OpenAI's host, or a redacted URL (routed by shape: the wire's own provider)
    return AZURE if _AZURE_HOSTS.fullmatch(host) else COMPATIBLE


def map_route(route: Route | None, uri: str, mapping: HostMap | None = None) -> Route | None:
    """The route of a call to ``uri`` once its host's dialect is known.

    Only calls the router sent to OpenAI's wires by path (a host it does not know) and hosts the
    user mapped change; a first-party host's route stands unless the user maps it.
    """
    if route is None:
        return None
    host = (urlsplit(uri).hostname or "").lower()
    user = (mapping or {}).get(host)
    dialect = user or _builtin(host, route)
    if not dialect or route.wire not in ("openai-chat", "openai-responses"):
        return route  # a host mapping names OpenAI-wire dialects; other wires keep the router's verdict
    why = f"{route.reason} ({'mapped' if user else 'host'}: {dialect})"
    if dialect == "openai":
        return route if route.provider == route.wire else Route(route.wire, route.wire, why)
    if dialect in (AZURE, COMPATIBLE):
        return Route(route.wire, route.wire, why, dialect)
    if route.wire != "openai-chat":
        return route  # the dialects are judged on Chat Completions (DeepSeek's Responses: the router's)
    return Route(dialect, "openai-chat", why)


def azure_deployment(uri: str) -> tuple[str | None, str | None]:
    """An Azure OpenAI URL's deployment name (None on the v1 API's URLs) and its ``api-version``."""
    parts = urlsplit(uri)
    match = _DEPLOYMENT.search(unquote(parts.path))
    versions = parse_qs(parts.query).get("api-version")
    return (match.group(1) if match else None), (versions[0] if versions else None)
