"""AWS Signature Version 4 for the recorder's Bedrock calls, by botocore's own signer.

Why botocore: SigV4 has sharp edges a hand-written signer gets wrong (the canonical URI of a
non-S3 service is percent-encoded twice, so ``us.anthropic...-v1%3A0`` is signed as
``%253A``; which headers are signed; the payload hash). ``botocore.auth.SigV4Auth`` is what
boto3 and every AWS SDK for Python sign with, so a request it signs is one Bedrock accepts.

Credentials come from the standard environment variables only (``AWS_ACCESS_KEY_ID``,
``AWS_SECRET_ACCESS_KEY``, optional ``AWS_SESSION_TOKEN``, and ``AWS_REGION`` or
``AWS_DEFAULT_REGION``): no profile files, no instance metadata, so a recording never
picks up a credential the user did not name. The signed request carries ``Authorization``
(access key id and signature), ``X-Amz-Date`` and, with temporary credentials,
``X-Amz-Security-Token``: none of them is an allowed cassette header (``scrub.py``), and
every value joins the scrubber's known credentials.

Endpoint: ``POST https://bedrock-runtime.{region}.amazonaws.com/model/{modelId}/converse-stream``
(``/converse`` when not streamed), the model id percent-encoded as one path segment
(https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html;
the recorded URIs in traffic/pydantic-ai-more/ spell ``:`` as ``%3A``). Signing name
``bedrock`` (the bedrock-runtime service model's ``signingName``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any
from urllib.parse import quote

from harness.params import CallParams
from harness.providers.bedrock.profile import DEFAULT_MODEL

__all__ = [
    "SIGNING_NAME",
    "AwsCredentials",
    "AwsCredentialsError",
    "converse_path",
    "credentials_from_env",
    "require_botocore",
    "sign",
]

#: ``{region}`` is filled from the credentials' region.
SIGNING_NAME = "bedrock"


class AwsCredentialsError(LookupError):
    """A missing credential variable or botocore; ``str()`` is one line naming what to set."""


@dataclass(frozen=True)
class AwsCredentials:
    access_key: str
    secret_key: str
    token: str | None
    region: str

    def __repr__(self) -> str:  # never print a secret
        return f"AwsCredentials(region={self.region!r}, session={'yes' if self.token else 'no'})"


def credentials_from_env(environ: Mapping[str, str] | None = None) -> AwsCredentials:
    """The standard AWS variables, or AwsCredentialsError naming the first one missing."""
    env = os.environ if environ is None else environ

    def value(name: str) -> str:
        return (env.get(name) or "").strip()

    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        if not value(name):
            raise AwsCredentialsError(f"{name} is not set (needed to record bedrock)")
    region = value("AWS_REGION") or value("AWS_DEFAULT_REGION")
    if not region:
        raise AwsCredentialsError(
            "AWS_REGION is not set (needed to record bedrock: the region signs the request)"
        )
    return AwsCredentials(
        value("AWS_ACCESS_KEY_ID"), value("AWS_SECRET_ACCESS_KEY"), value("AWS_SESSION_TOKEN") or None, region
    )


def require_botocore() -> None:
    """AwsCredentialsError (one line) when botocore, the signer, is not installed."""
    try:
        import_module("botocore.auth")
    except ImportError:
        raise AwsCredentialsError(
            "botocore is needed to sign AWS requests (install the 'oracles' extra)"
        ) from None


def converse_path(params: CallParams) -> str:
    """``model/{modelId}/converse-stream`` (or ``/converse``), the model id one encoded path segment."""
    model = quote(params.model or DEFAULT_MODEL, safe="")
    return f"model/{model}/{'converse-stream' if params.stream else 'converse'}"


def sign(
    method: str, url: str, headers: Mapping[str, str], content: bytes, credentials: AwsCredentials
) -> dict[str, str]:
    """``headers`` plus botocore's SigV4 headers (``Authorization``, ``X-Amz-Date``, and
    ``X-Amz-Security-Token`` with a session token), names lower-cased, for exactly this request."""
    require_botocore()
    auth: Any = import_module("botocore.auth")
    awsrequest: Any = import_module("botocore.awsrequest")
    botocredentials: Any = import_module("botocore.credentials")
    request: Any = awsrequest.AWSRequest(method=method, url=url, data=content, headers=dict(headers))
    signer: Any = auth.SigV4Auth(
        botocredentials.Credentials(credentials.access_key, credentials.secret_key, credentials.token),
        SIGNING_NAME,
        credentials.region,
    )
    signer.add_auth(request)
    return {str(k).lower(): str(v) for k, v in request.headers.items()}
