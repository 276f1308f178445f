"""Whether a file `marrow render` wrote is a well-formed, non-empty PNG, and its size."""

import os
import struct
import zlib


def png_problem(path):
    """None for a well-formed, non-empty PNG, else what is wrong."""
    if not os.path.exists(path):
        return "not written"
    data = open(path, "rb").read()
    if len(data) < 8 or data[:8] != b"\x89PNG\r\n\x1a\n":
        return f"no PNG signature ({len(data)} bytes: {data[:8]!r})"
    o, idat, ihdr = 8, b"", None
    while o + 8 <= len(data):
        n, kind = struct.unpack_from(">I4s", data, o)
        body = data[o + 8:o + 8 + n]
        if len(body) != n or o + 12 + n > len(data):
            return f"chunk {kind!r} truncated"
        (crc,) = struct.unpack_from(">I", data, o + 8 + n)
        if crc != zlib.crc32(kind + body) & 0xFFFFFFFF:
            return f"chunk {kind!r} has a bad CRC"
        if ihdr is None and kind != b"IHDR":
            return f"first chunk is {kind!r}, not IHDR"
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        o += 12 + n
    if ihdr is None:
        return "no IHDR"
    w, h, depth, colour, _c, _f, interlace = ihdr
    if w <= 0 or h <= 0:
        return f"IHDR size {w}x{h}"
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(colour)
    if channels is None:
        return f"colour type {colour}"
    try:
        raw = zlib.decompress(idat)
    except zlib.error as e:
        return f"IDAT does not inflate: {e}"
    if interlace == 0 and len(raw) != h * (1 + (w * channels * depth + 7) // 8):
        return f"IDAT holds {len(raw)} bytes, {w}x{h} needs {h * (1 + (w * channels * depth + 7) // 8)}"
    return None


def png_size(path):
    with open(path, "rb") as f:
        d = f.read(24)
    return struct.unpack(">II", d[16:24])
