"""Gemini's wire on Google Vertex AI: where Vertex's generateContent differs from the Gemini API's.

The body is Gemini's (``harness.rules.gemini`` and the Gemini oracles judge it, with the
``gemini-vertex-request-fields`` allowance for the fields only Vertex takes, ``labels`` and
``modelArmorConfig``). What the recordings and the issue threads show Vertex does differently,
each a fact with its evidence (the profile side is ``harness/providers/gemini/vertex.py``):

- every ``contents[]`` entry names its ``role`` (``user`` or ``model``): Vertex answers 400
  "Please use a valid role: user, model." where the Gemini API takes a missing role as the user's
  (BerriAI/litellm#32731: "Vertex (unlike Google AI Studio) requires the field";
  gethnet/litellm-connector-copilot#64 quotes Vertex's 400). Every one of the 84 requests Vertex
  accepted in pydantic-ai's recorded test suite names it (pydantic/pydantic-ai at commit 4fda389,
  the ``*vertex*`` cassettes of ``tests/models/cassettes/``; 7 of them are bundled in
  ``traffic/pydantic-ai-more/``).

Only for requests routed to a Vertex host (``Route.endpoint == "vertex"``): a Gemini API body
without a role is accepted, so this is never applied to a body whose endpoint is unknown.
"""

from __future__ import annotations

from typing import Any

from harness.oracles.normalise import normalise_body
from harness.rules.base import Rule, RuleFinding, as_dict, as_list

__all__ = ["VERTEX_RULES", "check_vertex"]

_ROLES = ("user", "model")


def _role(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    return [
        CONTENT_ROLE.finding(
            f"contents/{i}/role",
            "Please use a valid role: user, model.",
            {"role": as_dict(content).get("role")},
            "Vertex AI answers 400 for the whole request (the Gemini API would read the entry as the user's)",
        )
        for i, content in enumerate(as_list(body.get("contents")))
        if as_dict(content).get("role") not in _ROLES
    ]


CONTENT_ROLE = Rule(
    "vertex-content-role",
    ("gemini:vertex",),
    "reject",
    "on Vertex AI every `contents[]` entry has `role` `user` or `model`",
    (
        "https://github.com/BerriAI/litellm/issues/32731 (Vertex, unlike Google AI Studio, requires contents[].role)",
        "https://github.com/gethnet/litellm-connector-copilot/issues/64 (Vertex 400: Please use a valid role: user, model.)",
        "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content (role: user or model)",
    ),
    _role,
)

VERTEX_RULES: tuple[Rule, ...] = (CONTENT_ROLE,)


def check_vertex(body: dict[str, Any]) -> list[RuleFinding]:
    """The Vertex-only rules on a Gemini body sent to a Vertex host (read as Gemini's parser reads it)."""
    body = normalise_body("gemini", body)
    return [f for rule in VERTEX_RULES for f in rule.check("gemini", body, None)]
