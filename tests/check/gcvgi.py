"""What the Python tests share: GStreamer through gi, the photos of
tests/data as GRAY8 rows, and skipping (exit 77) with the reason when
something they need is not there."""
import os
import struct
import sys
import zlib

SKIP = 77


def skip(why):
    print("skip:", why)
    sys.exit(SKIP)


def gst():
    """Gst, initialised; skips without GStreamer's gi bindings."""
    try:
        import gi
        gi.require_version("Gst", "1.0")
        from gi.repository import Gst
    except (ImportError, ValueError) as e:
        skip(f"no GStreamer gi bindings: {e}")
    # an empty argv, not None: the typelib of GStreamer 1.28 marks it
    # non-nullable, and PyGObject 3.42 (Debian 12) then refuses None
    Gst.init([])
    return Gst


def require(Gst, *factories):
    """Skips, naming them, when element factories are not registered (the
    plugin not found, or a GStreamer without gst-plugins-good)."""
    missing = [f for f in factories if Gst.ElementFactory.find(f) is None]
    if missing:
        skip(f"element(s) {', '.join(missing)} not registered in {Gst.version_string()} "
             "(GST_PLUGIN_PATH for ours; pngdec, jpegdec, ... are in gst-plugins-good)")


def photo_path(name):
    data_dir = os.environ.get("GCV_TEST_DATA_DIR", os.path.join(os.path.dirname(__file__), ".."))
    return os.path.join(data_dir, "data", name)


def load_gray(path):
    """The photo (8-bit RGB or RGBA PNG, not interlaced) as rows of GRAY8
    bytes, decoded here with zlib: no pngdec (gst-plugins-good), so that the
    tests run on any GStreamer.  Luma is BT.601's integer approximation,
    (77 R + 150 G + 29 B + 128) >> 8; the tests need real content, not a
    particular conversion."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise ValueError(f"{path}: only 8-bit RGB / RGBA, not interlaced")
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind, cur = line[0], bytearray(line[1:])
        for i in range(stride):
            a = cur[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                cur[i] = (cur[i] + a) & 255
            elif kind == 2:
                cur[i] = (cur[i] + b) & 255
            elif kind == 3:
                cur[i] = (cur[i] + ((a + b) >> 1)) & 255
            elif kind == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes((77 * cur[x] + 150 * cur[x + 1] + 29 * cur[x + 2] + 128) >> 8
                          for x in range(0, stride, bpp)))
        prev = cur
    return rows
