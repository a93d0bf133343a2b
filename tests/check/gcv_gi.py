"""What the Python tests of the motion metas share: gi with the GStreamer
and GstCudaVideo typelibs (or exit 77, the skip, saying what is missing),
the elements a test needs, and the environment for gst-launch-1.0 runs
with the plugin of the build."""
import os
import shutil
import sys


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
    missing = [n for n in names if Gst.ElementFactory.find(n) is None]
    if missing:
        skip(f"no {', '.join(missing)} ({why})")


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
