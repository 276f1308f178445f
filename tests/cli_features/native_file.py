"""The native file's compressed clips: its CCLP section, read as docs/native-format.md lays it out."""

import struct


class Reader:
    """Little-endian fields of a byte string, read in order."""

    def __init__(self, data, o=0):
        self.d, self.o = data, o

    def take(self, fmt):
        v = struct.unpack_from("<" + fmt, self.d, self.o)
        self.o += struct.calcsize("<" + fmt)
        return v if len(v) > 1 else v[0]

    def skip(self, n):
        if self.o + n > len(self.d):
            raise ValueError("past the end")
        self.o += n

    def string(self):
        n = self.take("I")
        s = self.d[self.o:self.o + n].decode("utf-8", "replace")
        self.skip(n)
        return s


def native_compressed_clips(path):
    """{clip name: bytes of its CCLP record} over every skin, or raises ValueError."""
    data = open(path, "rb").read()
    r = Reader(data)
    magic, version, _flags, sections, length = r.take("4sIIIQ")
    if magic != b"MRRW" or length != len(data):
        raise ValueError(f"not a native file (magic {magic!r}, length {length} of {len(data)})")
    out = {}
    for _ in range(sections):
        tag, _fl, n = r.take("4sIQ")
        start = r.o
        if tag == b"CCLP":
            c = Reader(data[start:start + n])
            for _skin in range(c.take("Q")):
                for _clip in range(c.take("Q")):
                    first = c.o
                    c.string()  # key
                    name = c.string()
                    c.take("q")  # duration
                    times = c.take("Q")
                    c.skip(8 * times)
                    joints = c.take("Q")
                    c.skip(joints)
                    for _ch in range(3 * joints):
                        c.skip(3)  # bits[3]
                        form = c.take("B")  # 0, 1 keyed; 2 segmented
                        c.skip(24)  # min[3], step[3]
                        if form == 2:
                            c.skip(12)  # extent[3]
                            c.skip(11 * c.take("Q"))  # segments
                        c.skip(2 * c.take("Q"))
                        c.skip(c.take("Q"))
                    out[name] = c.o - first
            if c.o != n:
                raise ValueError(f"CCLP: {n - c.o} bytes left after the documented fields")
        r.o = start + n
    return out
