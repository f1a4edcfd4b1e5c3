"""Scenarios: tools the provider runs itself (web search, code execution, tool search) and citations.

The blocks are the providers' own shapes, as recorded (ids and encrypted payloads shortened,
synthetic): Anthropic's ``server_tool_use`` / ``web_search_tool_result`` and a
``web_search_result_location`` citation
(traffic/pydantic-ai/models__test_anthropic__test_anthropic_web_search_tool_stream.yaml), a
Responses ``web_search_call`` and ``url_citation``
(traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_model_web_search_tool.yaml),
Gemini's ``executableCode`` / ``codeExecutionResult`` parts and grounding chunks
(traffic/pydantic-ai/models__google__test_code_execution__test_receive_history_from_another_provider.yaml).
Each history is rendered for every provider: its own provider gets the blocks back byte-exact,
every other one degrades them with a named warning (the cross-provider continuations).
"""

from __future__ import annotations

import json

from pydantic import JsonValue

from harness.model import ServerToolCallPart, ServerToolResultPart, SourcePart, TextPart
from harness.params import CallParams, ServerToolSpec
from harness.scenarios.corpus.common import STR
from harness.scenarios.dsl import AssistantPart, Body, assistant, call, result, scenario, t, tool, usage, user

_QUERY: dict[str, JsonValue] = {"query": "top world news today"}
_ANTHROPIC_CALL: dict[str, JsonValue] = {
    "type": "server_tool_use",
    "id": "srvtoolu_01WsNews4Top3",
    "name": "web_search",
    "input": _QUERY,
}
_ANTHROPIC_RESULT: dict[str, JsonValue] = {
    "type": "web_search_tool_result",
    "tool_use_id": "srvtoolu_01WsNews4Top3",
    "content": [
        {
            "type": "web_search_result",
            "url": "https://news.example.org/summit",
            "title": "Leaders meet at the summit",
            "encrypted_content": "EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y2Y",
            "page_age": None,
        }
    ],
}
_ANTHROPIC_CITATION: dict[str, JsonValue] = {
    "type": "web_search_result_location",
    "url": "https://news.example.org/summit",
    "title": "Leaders meet at the summit",
    "cited_text": "European leaders held a high-stakes summit on Monday.",
    "encrypted_index": "Eo8BCioIAhgBIiQ3YTAwMjY1Mi1mZjM5",
}
_ANTHROPIC_WEB_SEARCH = ServerToolSpec(
    kind="web_search",
    provider="anthropic",
    name="web_search",
    max_uses=3,
    allowed_domains=["news.example.org"],
    raw={
        "type": "web_search_20250305",
        "name": "web_search",
        "max_uses": 3,
        "allowed_domains": ["news.example.org"],
    },
)


def _anthropic_web_search() -> list[AssistantPart]:
    parts: list[AssistantPart] = [
        ServerToolCallPart(
            call_id="srvtoolu_01WsNews4Top3",
            tool_name="web_search",
            provider="anthropic",
            input_json=json.dumps(_QUERY),
            raw=_ANTHROPIC_CALL,
        ),
        ServerToolResultPart(
            call_id="srvtoolu_01WsNews4Top3",
            tool_name="web_search",
            provider="anthropic",
            status="success",
            raw=_ANTHROPIC_RESULT,
        ),
        t("Here is the top story. "),
        t("European leaders held a high-stakes summit on Monday."),
        SourcePart(
            source_type="url",
            url="https://news.example.org/summit",
            title="Leaders meet at the summit",
            cited_text="European leaders held a high-stakes summit on Monday.",
            provider="anthropic",
            raw=_ANTHROPIC_CITATION,
        ),
    ]
    return parts


@scenario("server-tools", "sources", "cross-provider")
def server_tools_web_search_anthropic() -> Body:
    """Anthropic's web search, its result and a citation, then a follow-up: byte-exact to Anthropic, degraded (warned) anywhere else."""
    parts = _anthropic_web_search()
    return CallParams(server_tools=[_ANTHROPIC_WEB_SEARCH]), [
        user("Give me the top news in the world today."),
        assistant(*parts, stop="stop", usage=usage(2100, 96)),
        user("Tell me more about the first one."),
    ]


_WS_ITEM: dict[str, JsonValue] = {
    "type": "web_search_call",
    "id": "ws_68c3a1f0b4e08197a2d1c9f0e3b7a6d5",
    "status": "completed",
    "action": {"type": "search", "query": "weather in San Francisco today"},
}
_URL_CITATION: dict[str, JsonValue] = {
    "type": "url_citation",
    "url": "https://weather.example.com/sf",
    "title": "San Francisco weather",
    "start_index": 0,
    "end_index": 24,
}


@scenario("server-tools", "sources", "cross-provider")
def server_tools_web_search_responses() -> Body:
    """A Responses web_search_call item and an output_text with a url_citation annotation: the item and the annotation go back to OpenAI as they came."""
    spec = ServerToolSpec(kind="web_search", provider="openai-responses", raw={"type": "web_search"})
    reply = "It is 18°C and foggy now. Expect sun later."
    message = assistant(
        ServerToolCallPart(
            call_id="ws_68c3a1f0b4e08197a2d1c9f0e3b7a6d5",
            tool_name="web_search",
            provider="openai-responses",
            input_json=json.dumps(_WS_ITEM["action"]),
            raw=_WS_ITEM,
        ),
        ServerToolResultPart(
            call_id="ws_68c3a1f0b4e08197a2d1c9f0e3b7a6d5",
            tool_name="web_search",
            provider="openai-responses",
            status="success",
        ),
        TextPart(text=reply, item_id="msg_68c3a1f4c2d88197b1e0a9f8d7c6b5a4"),
        SourcePart(
            source_type="url",
            url="https://weather.example.com/sf",
            title="San Francisco weather",
            start_index=0,
            end_index=24,
            provider="openai-responses",
            raw=_URL_CITATION,
        ),
        stop="stop",
        usage=usage(900, 40),
    )
    return CallParams(server_tools=[spec]), [
        user("What's the weather in San Francisco today?"),
        message,
        user("And tomorrow?"),
    ]


_CODE: dict[str, JsonValue] = {"executableCode": {"language": "PYTHON", "code": "print(3 * 12390)"}}
_OUTCOME: dict[str, JsonValue] = {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "37170\n"}}
_CHUNK: dict[str, JsonValue] = {
    "web": {"uri": "https://math.example.net/products", "title": "math.example.net"}
}


@scenario("server-tools", "sources", "cross-provider")
def server_tools_code_execution_gemini() -> Body:
    """Gemini's code execution parts and a grounding source: back to Gemini as its own parts; the source has no request place anywhere (warned)."""
    spec = ServerToolSpec(kind="code_execution", provider="gemini", raw={"codeExecution": {}})
    return CallParams(server_tools=[spec]), [
        user("How much is 3 * 12390?"),
        assistant(
            ServerToolCallPart(
                call_id="",
                tool_name="code_execution",
                provider="gemini",
                input_json=json.dumps({"code": "print(3 * 12390)", "language": "PYTHON"}),
                raw=_CODE,
            ),
            ServerToolResultPart(
                call_id="", tool_name="code_execution", provider="gemini", status="success", raw=_OUTCOME
            ),
            "3 * 12390 = 37170.",
            SourcePart(
                source_type="url",
                url="https://math.example.net/products",
                title="math.example.net",
                provider="gemini",
                raw=_CHUNK,
            ),
            stop="stop",
            usage=usage(300, 60),
        ),
        user("Multiply that by 2."),
    ]


@scenario("server-tools", "tools", "tools-given", "cross-provider")
def server_tools_beside_a_client_call() -> Body:
    """A server tool's call and result beside a client tool call in one turn: only the client call gets a tool result; the server blocks are never sent as one."""
    weather = tool("get_weather", "Current weather for a city.", {"city": STR}, ["city"])
    paris = call("toolu_01Wx7Pa2Ri3Sx4Yz", "get_weather", {"city": "Paris"})
    parts = _anthropic_web_search()[:2]
    return CallParams(tools=[weather], server_tools=[_ANTHROPIC_WEB_SEARCH]), [
        user("Search today's news, then get the weather in Paris."),
        assistant(*parts, paris, stop="tool_use", usage=usage(1800, 70)),
        result(paris, "18°C, light rain"),
    ]


_NOVA_CALL: dict[str, JsonValue] = {
    "toolUse": {
        "input": {"snippet": "1234 * 5678"},
        "name": "nova_code_interpreter",
        "toolUseId": "tooluse_dV5ehBNfl1hUE-UTM9cIww",
        "type": "server_tool_use",
    }
}
_NOVA_RESULT: dict[str, JsonValue] = {
    "toolResult": {
        "content": [{"json": {"exitCode": 0, "isError": False, "stdErr": "", "stdOut": "7006652"}}],
        "status": "success",
        "toolUseId": "tooluse_dV5ehBNfl1hUE-UTM9cIww",
        "type": "nova_code_interpreter_result",
    }
}
_NOVA_CITATION: dict[str, JsonValue] = {
    "title": "Multiplication table",
    "source": "https://math.example.net/products",
    "sourceContent": [{"text": "1234 times 5678 is 7006652"}],
    "location": {"web": {"url": "https://math.example.net/products", "domain": "math.example.net"}},
}


@scenario("server-tools", "sources", "cross-provider")
def server_tools_code_interpreter_bedrock() -> Body:
    """Bedrock Nova's code interpreter (a toolUse of type server_tool_use and its toolResult) and a web citation: the blocks back to Bedrock byte-exact, never a client call; degraded (warned) elsewhere."""
    spec = ServerToolSpec(
        kind="code_execution", provider="bedrock", raw={"systemTool": {"name": "nova_code_interpreter"}}
    )
    return CallParams(server_tools=[spec]), [
        user("What is 1234 * 5678?"),
        assistant(
            ServerToolCallPart(
                call_id="tooluse_dV5ehBNfl1hUE-UTM9cIww",
                tool_name="nova_code_interpreter",
                provider="bedrock",
                input_json=json.dumps({"snippet": "1234 * 5678"}),
                raw=_NOVA_CALL,
            ),
            ServerToolResultPart(
                call_id="tooluse_dV5ehBNfl1hUE-UTM9cIww",
                tool_name="nova_code_interpreter",
                provider="bedrock",
                status="success",
                raw=_NOVA_RESULT,
            ),
            "1234 * 5678 = 7006652.",
            SourcePart(
                source_type="url",
                url="https://math.example.net/products",
                title="Multiplication table",
                cited_text="1234 times 5678 is 7006652",
                provider="bedrock",
                raw=_NOVA_CITATION,
            ),
            stop="stop",
            usage=usage(1002, 59),
        ),
        user("Now multiply that by 2."),
    ]


_COHERE_SOURCE: dict[str, JsonValue] = {
    "id": "get_weather_9gpb31r7h7mj:0",
    "tool_output": {"content": "Sunny, 22C in Paris"},
    "type": "tool",
}


def _cohere_citation(start: int, end: int, text: str) -> SourcePart:
    raw: dict[str, JsonValue] = {
        "end": end,
        "sources": [_COHERE_SOURCE],
        "start": start,
        "text": text,
        "type": "TEXT_CONTENT",
    }
    return SourcePart(
        source_type="document",
        id="get_weather_9gpb31r7h7mj:0",
        cited_text=text,
        start_index=start,
        end_index=end,
        provider="cohere",
        raw=raw,
    )


@scenario("sources", "tools", "tools-given", "cross-provider")
def sources_cohere_tool_citations() -> Body:
    """Cohere's citations of a tool's output on its answer (as recorded in cassettes/cohere/, tool_choice auto): sources after the text they cite; no provider's request has a place for them (source-not-sent)."""
    weather = tool("get_weather", "Current weather for a city.", {"city": STR}, ["city"])
    paris = call("get_weather_9gpb31r7h7mj", "get_weather", {"city": "Paris"})
    return CallParams(tools=[weather]), [
        user("What's the weather in Paris?"),
        assistant(
            "I will use the 'get_weather' tool to find the weather in Paris.",
            paris,
            stop="tool_use",
            usage=usage(1500, 30),
        ),
        result(paris, "Sunny, 22C in Paris"),
        assistant(
            "The weather in Paris is currently sunny and 22C.",
            _cohere_citation(34, 39, "sunny"),
            _cohere_citation(44, 48, "22C."),
            stop="stop",
            usage=usage(1533, 36),
        ),
        user("And in Rome?"),
    ]
