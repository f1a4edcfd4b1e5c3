"""Provider-neutral stream machinery: SSE decoding (``sse``), the parser base and its part
accumulator (``base``), driving a parser from bytes (``drive``) and the runtime events
(``events``). The parsers themselves live in ``harness.providers.<id>.stream``."""
