"""What the Python tests share: GStreamer through gi, the photos of
tests/data as GRAY8 rows, and skipping (exit 77) with the reason when
something they need is not there."""
import os
import sys

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
        skip(f"element(s) {', '.join(missing)} not registered in GStreamer {Gst.version_string()} "
             "(GST_PLUGIN_PATH for ours; pngdec is in gst-plugins-good)")


def photo_path(name):
    data_dir = os.environ.get("GCV_TEST_DATA_DIR", os.path.join(os.path.dirname(__file__), ".."))
    return os.path.join(data_dir, "data", name)


def load_gray(Gst, path):
    """The photo as rows of GRAY8 bytes through GStreamer itself (pngdec)."""
    pipe = Gst.parse_launch(f'filesrc location="{path}" ! pngdec ! videoconvert '
                            '! video/x-raw,format=GRAY8 ! appsink name=s')
    sink = pipe.get_by_name("s")
    pipe.set_state(Gst.State.PLAYING)
    sample = sink.emit("pull-sample")
    pipe.set_state(Gst.State.NULL)
    s = sample.get_caps().get_structure(0)
    w, h = s.get_value("width"), s.get_value("height")
    buf = sample.get_buffer()
    raw = buf.extract_dup(0, buf.get_size())
    stride = len(raw) // h
    return [raw[y * stride:y * stride + w] for y in range(h)]
