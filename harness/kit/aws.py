"""An offline boto3 client (``bedrock-runtime`` by default), for code that calls AWS through boto3.

For a library that takes a boto3 client (pydantic-ai's ``BedrockProvider(bedrock_client=...)``,
langchain-aws's ``ChatBedrockConverse(client=...)``). boto3 does not take an httpx client, so ``OfflineWire``'s mock transport cannot reach it.
botocore's own hook does the same job: a ``before-send`` handler that returns a response
stops the request there (botocore ``endpoint.py``, ``_do_get_response``: "before-send" ...
``if response is not None``), so nothing leaves the process. The handler records the request
on the wire exactly as ``OfflineWire.handler`` does (method, URL, headers, parsed JSON body)
and answers from the wire's mode: ``CAPTURED_STATUS`` in render mode, the recorded status,
headers and body (in ``chunk_size`` chunks, which is where the event-stream decoder breaks)
in replay mode.

The client is unsigned (``botocore.UNSIGNED``): no credentials and no clock are read, and
retries are off (``total_max_attempts=1``), so one call is one request.
"""

# pyright: reportMissingImports=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# pyright: reportUnknownArgumentType=false, reportAttributeAccessIssue=false, reportUnknownParameterType=false
# pyright: reportMissingTypeStubs=false

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from harness.contract.chunking import Chunking, split
from harness.kit.transport import CAPTURED_STATUS, CapturedRequest, OfflineWire, served_headers

__all__ = ["offline_boto3_client"]

_REGION = "us-east-1"
_CAPTURED = b'{"message": "harness: request captured"}'


class _Raw:
    """What botocore reads a response body from: ``stream()`` (whole bodies and event streams alike)."""

    def __init__(self, body: bytes, chunk_size: Chunking) -> None:
        self.body, self.chunking = body, chunk_size

    def stream(self, *_: Any, **__: Any) -> Iterator[bytes]:
        yield from (chunk for chunk in split(self.body, self.chunking) if chunk)

    def read(self, *_: Any, **__: Any) -> bytes:
        return self.body

    def close(self) -> None:
        return None


def _body(data: Any) -> Any:
    content = data if isinstance(data, bytes) else (data or "").encode()
    try:
        return json.loads(content) if content else None
    except (json.JSONDecodeError, UnicodeDecodeError):
        return content.decode("utf-8", errors="replace")


def offline_boto3_client(wire: OfflineWire, service: str = "bedrock-runtime") -> Any:
    """A boto3 ``service`` client whose every request is answered by ``wire`` (boto3 must be installed)."""
    import boto3
    from botocore import UNSIGNED
    from botocore.awsrequest import AWSResponse
    from botocore.config import Config

    def send(request: Any, **_: Any) -> Any:
        headers = {str(k).lower(): str(v) for k, v in request.headers.items()}
        headers = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in sorted(headers.items())}
        wire.requests.append(CapturedRequest(request.method, request.url, headers, _body(request.body)))
        reply = wire.reply
        if reply is None:
            answer = {"content-type": "application/json", "x-amzn-errortype": "ValidationException"}
            return AWSResponse(request.url, CAPTURED_STATUS, answer, _Raw(_CAPTURED, None))
        return AWSResponse(
            request.url, reply.status, dict(served_headers(reply)), _Raw(reply.body, wire.chunk_size)
        )

    client = boto3.client(
        service,
        region_name=_REGION,
        config=Config(signature_version=UNSIGNED, retries={"total_max_attempts": 1}),
    )
    client.meta.events.register(f"before-send.{client.meta.service_model.service_id.hyphenize()}.*", send)
    return client
