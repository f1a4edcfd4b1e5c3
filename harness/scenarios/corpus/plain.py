"""Scenarios: plain chat and content parts (text, images, empty and non-ASCII text)."""

# The corpus quotes real model output and tests non-ASCII text on purpose (curly quotes,
# fullwidth punctuation, mathematical letters), so "ambiguous character" warnings are noise here.
# ruff: noqa: RUF001

from __future__ import annotations

from harness.model import (
    ImageFilePart,
    ImageURLPart,
)
from harness.params import CallParams
from harness.scenarios.corpus.common import (
    HTTP_IMAGE_URL,
    RED_PIXEL_PNG,
    STR,
)
from harness.scenarios.dsl import (
    Body,
    assistant,
    call,
    result,
    scenario,
    tool,
    usage,
    user,
)


@scenario("plain", "plain-single-turn")
def plain_single_turn() -> Body:
    """A single user question and nothing else: the smallest request every provider must accept."""
    return CallParams(max_tokens=1024), [user("What is the capital of France?")]


@scenario("plain", "plain-multi-turn", "system-in-params")
def plain_multi_turn() -> Body:
    """Three user/assistant exchanges with a system prompt in params: alternation and system-once."""
    return CallParams(system="You are a concise travel assistant.", max_tokens=1024), [
        user("I'm planning three days in Lisbon. Which neighbourhoods are good to stay in?"),
        assistant(
            "Good bases are Baixa/Chiado (central, walkable), Alfama (historic, hilly) and Príncipe Real (quieter, leafy).",
            stop="stop",
            usage=usage(41, 38),
        ),
        user("Which of those is quietest at night?"),
        assistant(
            "Príncipe Real: it is residential, away from the Bairro Alto bars, and still a short walk from Chiado.",
            stop="stop",
            usage=usage(95, 29),
        ),
        user("How do I get there from the airport?"),
    ]


@scenario("images", "user-multipart", "image-http-url", "image-data-url")
def user_multipart_images() -> Body:
    """A user message interleaving text with an http image URL and a base64 PNG data URL (with an id)."""
    return CallParams(max_tokens=1024), [
        user(
            "Compare these two images.",
            ImageURLPart(url=HTTP_IMAGE_URL),
            "The second one is a single pixel I generated:",
            ImageURLPart(url=RED_PIXEL_PNG, id="img_01"),
        ),
        assistant(
            "The first shows two semi-transparent dice over a checkerboard; the second is one opaque red pixel.",
            stop="stop",
            usage=usage(1187, 27),
        ),
        user("Which of the two uses an alpha channel?"),
    ]


@scenario("images", "assistant-image-file")
def assistant_image_file() -> Body:
    """An assistant message whose parts include a generated image_file artifact, then a follow-up request."""
    return CallParams(), [
        user("Generate an 8x8 red PNG I can use as a placeholder favicon."),
        assistant(
            "Here is the placeholder:",
            ImageFilePart(
                file_path="/home/dev/site/.artifacts/img_0001.png",
                mime_type="image/png",
                byte_size=74,
                sha256="396f6aba97b0b4ac60a22cae643ef2df1676ab98050fa468bbcb1aadb69b9e44",
            ),
            stop="stop",
            usage=usage(22, 1290),
        ),
        user("Great. Now make a blue one of the same size."),
    ]


@scenario("text-empty", "text-whitespace")
def text_empty_and_whitespace() -> Body:
    """Empty and whitespace-only text parts in user and assistant messages, and a whitespace-only user message."""
    return CallParams(), [
        user("", "Please review the diff below.", "   \n\t  "),
        assistant("", "The diff looks correct to me.", "\n\n", stop="stop", usage=usage(18, 9)),
        user("   "),
        assistant("Did you mean to send something else?", stop="stop", usage=usage(31, 9)),
        user("Yes: ship it."),
    ]


@scenario("regression", "text-whitespace")
def regression_blank_text_between_texts() -> Body:
    """Regression audit-traffic blank-text-between-texts: a whitespace-only text part between two texts (a cited answer's paragraph break) joins the text before it, never dropped to glue the words together."""
    return CallParams(), [
        user("Summarise the page.", "\n\n", "Keep the sections apart."),
        assistant(
            "Deployment: ship your agent in one click.", "\n\n", "LangSmith meets the highest standards.",
            stop="stop", usage=usage(40, 14),
        ),
        user("Thanks."),
    ]  # fmt: skip


@scenario("text-non-ascii", "tools", "tools-given", "tool-single")
def text_non_ascii() -> Body:
    """CJK, emoji ZWJ/flag sequences, RTL Arabic/Hebrew, combining marks, astral letters and U+2028 in text, tool args and output."""
    translate = call(
        "call_q2Vx8yTnR4mKd0LpWz7sHbCe", "translate", {"text": "Grüße aus Köln 🍺", "target": "ja"}
    )
    params = CallParams(
        tools=[
            tool(
                "translate",
                "Translate text into a target language.",
                {"text": STR, "target": STR},
                ["text", "target"],
            )
        ]
    )
    return params, [
        user(
            "東京は日本の首都です。要約してください。",
            "Emoji: 👩\u200d💻 🇳🇱 ✅ 🤷🏽\u200d♀️",
            "RTL: مرحبا بالعالم — שלום עולם (mixed with LTR 123).",
            "Combining marks: e\u0301 vs é, Z\u0324\u0354\u0367\u0311\u0313, ñ = n\u0303; astral: 𝔘𝔫𝔦𝔠𝔬𝔡𝔢.",
            "A line\u2028separator and a paragraph\u2029separator stay inside one JSON line.",
        ),
        assistant(
            "要約：東京は日本の首都です。Now translating your greeting — «Grüße» 🍺.",
            translate,
            stop="tool_use",
            usage=usage(212, 64),
        ),
        result(translate, "ケルンからのご挨拶 🍺"),
    ]
