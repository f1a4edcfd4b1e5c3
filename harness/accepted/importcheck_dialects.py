"""import-check's accepted differences for Bedrock and the OpenAI-compatible dialects (part of the registry).

See ``harness.accepted.importcheck``.
"""

from __future__ import annotations

from harness.accepted.predicates import value_is
from harness.contract.accepted import Accepted

__all__ = ["IMPORTCHECK_DIALECTS"]

IMPORTCHECK_DIALECTS: tuple[Accepted, ...] = (
    Accepted(
        "bedrock-tool-choice-auto",
        judges=("import-check",),
        provider="bedrock",
        where="toolConfig.toolChoice",
        diff="missing",
        when=(value_is({"auto": {}}),),
        kind="equivalent",
        why="toolChoice {auto: {}} is the Converse default when tools are given; we send none for auto",
        evidence=(
            (
                "traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_retry.yaml#0 (sent); "
                "traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_iter_stream.yaml#0 "
                "(absent)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "bedrock-empty-system",
        judges=("import-check",),
        provider="bedrock",
        where="system",
        diff="missing",
        when=(value_is([]),),
        kind="equivalent",
        why="an empty system list says nothing; we omit system when there is no system text",
        evidence=(
            (
                "traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_thinking_part_anthropic.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "bedrock-empty-inference-config",
        judges=("import-check",),
        provider="bedrock",
        where="inferenceConfig",
        diff="missing",
        when=(value_is({}),),
        kind="equivalent",
        why="an empty inferenceConfig sets nothing; we omit it when no setting is given",
        evidence=(
            (
                "traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_thinking_part_anthropic.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "cerebras-tool-choice-auto",
        judges=("import-check",),
        provider="cerebras",
        where="tool_choice",
        diff="missing",
        when=(value_is("auto"),),
        kind="equivalent",
        why=(
            "tool_choice 'auto' is the default when tools are given (the dialect follows the Chat "
            "Completions schema); we send none for tool_choice None"
        ),
        evidence=(
            (
                "recorded auto accepted: "
                "traffic/pydantic-ai-more/models__test_openai__test_openai_model_cerebras_provider_qwen_3_coder.yaml#0; "
                "Cerebras API reference (inference-docs.cerebras.ai): tool_choice defaults to auto when "
                "tools are present"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "zai-thinking-type-enabled",
        judges=("import-check",),
        provider="zai",
        where="thinking.type",
        diff="extra",
        when=(value_is("enabled"),),
        kind="equivalent",
        why=(
            "a thinking object without type is thinking enabled, the default of GLM-4.7 and the GLM-5 "
            "series (the models of every recorded zai request; GLM-4.6's default is hybrid); the importer "
            "reads it as thinking on and our adapter always states the type: the same request"
        ),
        evidence=(
            (
                "type absent accepted: "
                "traffic/pydantic-ai-more/models__test_zai__test_zai_model_simple.yaml#0 (glm-4.7); type "
                "enabled accepted: "
                "traffic/pydantic-ai-more/models__test_zai__test_zai_thinking_stream.yaml#0 (glm-4.7); "
                "docs.z.ai/guides/capabilities/thinking-mode: thinking is activated by default in GLM-5.1, "
                "GLM-5 and GLM-4.7"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
)
