"""Bounded gzip decompression: a 3 MB bomb must not become gigabytes in memory."""

from __future__ import annotations

import zlib

from harness.inputs.errors import InputError
from harness.inputs.limits import ENV, MIB, Limits, current

__all__ = ["gunzip"]

_STEP = 1024 * 1024


def gunzip(
    data: bytes, *, source: str, field: str = "body", line: int | None = None, limits: Limits | None = None
) -> bytes:
    """Decompress gzip (or zlib) ``data``; capped in size and, beyond 1 MiB of output, in ratio."""
    lim = current(limits)
    cap = lim.max_decompressed_bytes
    ratio_cap = max(MIB, len(data) * lim.max_decompress_ratio)
    decoder = zlib.decompressobj(wbits=47)  # 32 + 15: gzip or zlib header, detected
    out: list[bytes] = []
    total = 0
    pending = data
    try:
        while True:
            chunk = decoder.decompress(pending, _STEP)
            total += len(chunk)
            if total > cap:
                raise InputError(
                    source,
                    line,
                    field,
                    f"decompresses to more than {cap} bytes (raise {ENV['max_decompressed_bytes']})",
                )
            if total > ratio_cap:
                raise InputError(
                    source,
                    line,
                    field,
                    f"decompresses more than {lim.max_decompress_ratio}x its size "
                    f"(a compression bomb? raise {ENV['max_decompress_ratio']})",
                )
            out.append(chunk)
            pending = decoder.unconsumed_tail
            if decoder.eof or (not pending and not chunk):
                break
    except zlib.error as exc:
        raise InputError(source, line, field, f"corrupt gzip data ({exc})") from None
    if not decoder.eof:
        raise InputError(source, line, field, "truncated gzip data")
    return b"".join(out)
