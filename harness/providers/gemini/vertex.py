"""Gemini's body as Google Vertex AI's generateContent takes it (``harness render --provider gemini --endpoint vertex``).

Vertex AI serves Gemini's wire under its own paths
(https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.publishers.models/generateContent):
``https://{location}-aiplatform.googleapis.com/v1/projects/{project}/locations/{location}/publishers/google/models/{model}:generateContent``
(``:streamGenerateContent?alt=sse`` to stream; ``aiplatform.googleapis.com`` for ``global``), with
an OAuth bearer token instead of an API key. The body is Gemini's: the 84 requests Vertex accepted
in pydantic-ai's recorded test suite (pydantic/pydantic-ai at commit 4fda389, the ``*vertex*``
cassettes of ``tests/models/cassettes/test_google/`` and ``test_multimodal_tool_returns/``;
google-genai's, the same fields as on the Gemini API, function call ids included) pass Gemini's
oracles and rules (``harness calibrate``); the 7 bundled in ``traffic/pydantic-ai-more/`` are
calibrated on every test run.

Where Vertex differs, each a profile fact with its evidence:

- ``VERTEX_ONLY_FIELDS``: Vertex also takes ``labels`` and ``modelArmorConfig``
  (``traffic/pydantic-ai-more/models__test_google__test_google_model_vertex_labels.yaml#0``,
  ``..._model_armor_prompt_template_text_gets_blocked.yaml#1``); the reference adapter sends neither.
- ``ROLE_REQUIRED``: every ``contents[]`` entry names its role (judged by ``harness/rules/vertex.py``,
  evidence there); the reference adapter always names it.
- ``serves``: Vertex's ``publishers/google/models`` serves Gemini models; Gemma, which the Gemini
  API serves by name (``gemma-3-27b-it``), is deployed on Vertex from Model Garden to an endpoint of
  one's own (https://cloud.google.com/vertex-ai/generative-ai/docs/open-models/use-gemma), so a Gemma
  model rendered for Vertex is a warning.
- ``gs://`` file URIs: Vertex fetches them (200 in pydantic/pydantic-ai at commit 4fda389,
  ``tests/models/cassettes/test_google/test_google_url_input[ImageUrl (gs)].yaml#0``), and answers
  400 for a URL robots.txt keeps it from
  (``traffic/pydantic-ai-more/models__test_multimodal_tool_returns__test_model_sees_multiple_images[google_vertex].yaml#1``,
  classified by ``harness/traffic/explained.py``: not visible in the body).
"""

from __future__ import annotations

from typing import Any

from harness.params import CallParams
from harness.providers.gemini.request import model_name

__all__ = ["ROLE_REQUIRED", "VERTEX_ONLY_FIELDS", "serves", "to_endpoint", "vertex_url"]

#: Request fields Vertex takes beside the Gemini API's (``gemini-vertex-request-fields`` allowance).
VERTEX_ONLY_FIELDS = ("labels", "modelArmorConfig")
#: Vertex refuses a ``contents[]`` entry without ``role`` (``harness/rules/vertex.py``).
ROLE_REQUIRED = True


def serves(model: str) -> bool:
    """Whether Vertex's ``publishers/google/models`` serves ``model`` (Gemma is Model Garden's)."""
    return not model.removeprefix("models/").startswith("gemma-")


def vertex_url(model: str, stream: bool, *, project: str = "{project}", location: str = "{location}") -> str:
    """The Vertex generateContent URL (``global`` is served by the host without a region prefix)."""
    host = "aiplatform.googleapis.com" if location == "global" else f"{location}-aiplatform.googleapis.com"
    method = "streamGenerateContent?alt=sse" if stream else "generateContent"
    return (
        f"https://{host}/v1/projects/{project}/locations/{location}/publishers/google/models/"
        f"{model.removeprefix('models/')}:{method}"
    )


def to_endpoint(body: dict[str, Any], params: CallParams) -> tuple[dict[str, Any], list[str], list[str]]:
    """Gemini's body for Vertex (unchanged: no field the reference adapter sends is refused there),
    the warnings (a model Vertex does not serve under ``publishers/google``) and a note on the URL."""
    model = model_name(params)
    warnings = (
        []
        if serves(model)
        else [
            f"vertex-model-not-served: Vertex AI serves {model} from a Model Garden endpoint of your own, "
            "not under publishers/google/models"
        ]
    )
    return body, warnings, [f"vertex: POST {vertex_url(model, params.stream is True)}"]
