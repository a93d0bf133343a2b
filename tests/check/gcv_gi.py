"""What the Python tests share: gi with the GStreamer and GstCudaVideo
typelibs (or exit 77, the skip, saying what is missing), the elements a
test needs, the photos of tests/data as GRAY8 rows (decoded here, so that
the tests run on any GStreamer release), and the environment for
gst-launch-1.0 runs with the plugin of the build."""
import os
import shutil
import struct
import sys
import zlib


def skip(why):
    print("skip:", why)
    sys.exit(77)


def gst_and_typelib():
    """(Gst, GstCudaVideo), Gst initialised (with [], not None: GStreamer
    1.28's typelib refuses None with Debian's PyGObject 3.42)."""
    try:
        import gi
        gi.require_version("Gst", "1.0")
        gi.require_version("GstCudaVideo", "1.0")
        from gi.repository import Gst, GstCudaVideo
    except (ImportError, ValueError) as e:
        skip(f"no GStreamer gi bindings or no GstCudaVideo-1.0 typelib (GI_TYPELIB_PATH): {e}")
    Gst.init([])
    return Gst, GstCudaVideo


def require_elements(Gst, *names, why="GST_PLUGIN_PATH?"):
    """Skips, naming them and the release, when element factories are not
    registered (the plugin not found, or a GStreamer without the plugin
    set that has them)."""
    missing = [n for n in names if Gst.ElementFactory.find(n) is None]
    if missing:
        skip(f"no {', '.join(missing)} in {Gst.version_string()} ({why})")


def launch_env():
    """(gst-launch-1.0, its environment): the plugin of the build found
    through GST_PLUGIN_PATH as well as meson's GST_PLUGIN_PATH_1_0."""
    launch = shutil.which("gst-launch-1.0")
    if launch is None:
        skip("no gst-launch-1.0 (Debian: gstreamer1.0-tools)")
    env = dict(os.environ)
    if "GST_PLUGIN_PATH_1_0" in env and "GST_PLUGIN_PATH" not in env:
        env["GST_PLUGIN_PATH"] = env["GST_PLUGIN_PATH_1_0"]
    return launch, env


def source_dir():
    """The source tree's root (tests/.. from GCV_TEST_DATA_DIR, else from here)."""
    return os.path.join(os.environ.get("GCV_TEST_DATA_DIR", os.path.join(os.path.dirname(__file__), "..")), "..")


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


class Failures(list):
    def check(self, cond, msg):
        if not cond:
            self.append(msg)
        return cond

    def exit(self, passed):
        if self:
            print("FAIL:\n  " + "\n  ".join(self[:30]))
            sys.exit(1)
        print("PASS:", passed)
        sys.exit(0)
