#!/usr/bin/env python3
"""Writes docs/elements.md from the code: each element's doc block
(SECTION:element-* comment in gst/*.c) and gst-inspect-1.0's view of its pads
and properties.  Run after building:

    scripts/gen-docs.py [--output FILE] [--check REFERENCE] [build-dir]

build-dir defaults to build/, FILE to docs/elements.md.  With --check the
text is compared with REFERENCE (written to FILE too when --output is
given): exit 0 when equal, 1 with a diff when not, 77 (skipped) where it
cannot be compared: a build without gstreamer-cuda-1.0 (its cuda* elements
lack the memory:CUDAMemory pad templates the committed file shows), no
gst-inspect-1.0, or another GStreamer release than --release X.Y, the one
the committed file was made with (gst-inspect-1.0's layout differs between
releases; writing refuses then).  The build's meson targets do the same:
`meson compile -C build update-docs` and `meson test -C build --suite docs`."""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
default_output = os.path.join(root, "docs", "elements.md")
SKIP = 77


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build", nargs="?", default=os.path.join(root, "build"),
                    help="the meson build directory (default: build/)")
    ap.add_argument("--output", "-o", default=None,
                    help="where to write (default: docs/elements.md; with --check: nowhere)")
    ap.add_argument("--check", metavar="REFERENCE", default=None,
                    help="compare with REFERENCE instead of writing docs/elements.md")
    ap.add_argument("--update-command", default=None,
                    help="the command --check tells to run when REFERENCE is out of date")
    ap.add_argument("--release", metavar="X.Y", default=None,
                    help="the GStreamer release the committed file was made with: another one "
                    "skips --check and refuses writing")
    ap.add_argument("--force", action="store_true",
                    help="write docs/elements.md even from a build without gstreamer-cuda-1.0 "
                    "or with another release than --release")
    return ap.parse_args()


def have_gst_cuda(build):
    """Whether the build has gstreamer-cuda-1.0 (its config.h says), None if unknown."""
    try:
        text = open(os.path.join(build, "config.h")).read()
    except OSError:
        return None
    m = re.search(r"^#define GCV_HAVE_GST_CUDA (\d+)", text, re.M)
    return None if m is None else m.group(1) != "0"


def inspect_env(build):
    """Only the build's plugin, a private registry, untranslated output."""
    env = dict(os.environ)
    plugins = os.path.join(build, "gst")
    registry = os.path.join(build, "gst-registry-docs.bin")
    for suffix in ("", "_1_0"):
        env["GST_PLUGIN_PATH" + suffix] = plugins
        env["GST_PLUGIN_SYSTEM_PATH" + suffix] = ""
        env["GST_REGISTRY" + suffix] = registry
    env.pop("GST_REGISTRY_UPDATE", None)
    env["LC_ALL"] = "C.UTF-8"
    env.pop("LANGUAGE", None)
    return env


def gst_release(env):
    """The X.Y of the GStreamer gst-inspect-1.0 runs with, None if unknown."""
    try:
        r = subprocess.run(["gst-inspect-1.0", "--version"], env=env, capture_output=True, text=True)
    except OSError:
        return None
    m = re.search(r"^GStreamer (\d+\.\d+)\.", r.stdout, re.M)
    return m.group(1) if m else None


def other_release(build, release):
    """Why the docs cannot be made here when the GStreamer found is not
    @release (None when it is, or when no --release was given)."""
    if release is None or shutil.which("gst-inspect-1.0") is None:
        return None
    found = gst_release(inspect_env(build))
    if found == release:
        return None
    return (f"gst-inspect-1.0 runs with GStreamer {found or 'of an unknown release'}, and the committed "
            f"file was made with GStreamer {release}: gst-inspect-1.0's output differs between releases, "
            "so they are compared only there")


def doc_blocks():
    """(section name, title, markdown body) of every element doc block."""
    out = []
    for name in sorted(os.listdir(os.path.join(root, "gst"))):
        if not name.endswith(".c"):
            continue
        text = open(os.path.join(root, "gst", name)).read()
        for m in re.finditer(r"/\*\*\n \* SECTION:element-(\S+)\n(.*?)\*/", text, re.S):
            lines = [re.sub(r"^ \* ?", "", l) for l in m.group(2).splitlines()]
            title = next((l[len("@title: "):] for l in lines if l.startswith("@title:")), m.group(1))
            body = [l for l in lines if not l.startswith("@")]
            md, in_code = [], False
            for l in body:
                if l.startswith("|["):
                    md.append("```sh")
                    in_code = True
                elif l.startswith("]|"):
                    md.append("```")
                    rest = l[2:].strip()
                    if rest:
                        md.append(rest)
                    in_code = False
                else:
                    md.append("##" + l if l.startswith("## ") else l)
            out.append((m.group(1), title, "\n".join(md).strip()))
    return out


def inspect(element, env):
    r = subprocess.run(["gst-inspect-1.0", element], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"gst-inspect-1.0 {element} failed ({r.returncode}):\n{r.stderr}{r.stdout}")
    keep, section = [], None
    for line in r.stdout.splitlines():
        if line and not line.startswith(" "):
            section = line.rstrip(":")
        if section in ("Pad Templates", "Element Properties"):
            keep.append(line.rstrip())
    return "\n".join(keep)


def generate(build):
    env = inspect_env(build)
    parts = ["# Element reference", "",
             "Generated by `scripts/gen-docs.py` from the doc blocks in `gst/*.c` and",
             "`gst-inspect-1.0`; edit the code, not this file.", "",
             "Launch lines that read `out/media/...`: make the media with",
             "`scripts/make-example-media.sh`, and run them from the source tree's root.", ""]
    for section, title, body in doc_blocks():
        parts += [f"## {title}", "", body, ""]
        for el in title.replace(" ", "").split("/"):
            parts += [f"### `gst-inspect-1.0 {el}` (pads and properties)", "", "```",
                      inspect(el, env), "```", ""]
    return "\n".join(parts)


def write(path, text):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def check(text, reference, output, update_command, build):
    try:
        with open(reference) as f:
            ref = f.read()
    except OSError as e:
        ref = ""
        print(f"cannot read {reference}: {e}")
    if ref == text:
        print(f"{reference} is up to date")
        return 0
    print(f"{reference} is out of date: the code (as built) differs from it.")
    if output:
        print(f"The code as built gives {output}.")
    diff = list(difflib.unified_diff(ref.splitlines(), text.splitlines(),
                                     "committed", "generated", n=3, lineterm=""))
    print("\n".join(diff[:60]))
    if len(diff) > 60:
        print(f"... ({len(diff) - 60} more diff lines)")
    print("\nIf the change is intended, regenerate the committed file with:\n  " +
          (update_command or f"scripts/gen-docs.py {build}"))
    return 1


args = parse_args()
gst_cuda = have_gst_cuda(args.build)
if args.check:
    why = None
    if gst_cuda is None:
        why = f"{args.build} has no config.h saying whether gstreamer-cuda-1.0 is used"
    elif not gst_cuda:
        why = ("this build has no gstreamer-cuda-1.0 (gst-cuda disabled or not found), so the "
               "cuda* elements' pad templates lack video/x-raw(memory:CUDAMemory); the committed "
               f"{args.check} describes the full build")
    elif shutil.which("gst-inspect-1.0") is None:
        why = "gst-inspect-1.0 is not in PATH"
    else:
        why = other_release(args.build, args.release)
    if why:
        print("SKIP: " + why)
        sys.exit(SKIP)
    text = generate(args.build)
    if args.output:
        write(args.output, text)
    sys.exit(check(text, args.check, args.output, args.update_command, args.build))

output = args.output or default_output
if os.path.realpath(output) == os.path.realpath(default_output) and not gst_cuda and not args.force:
    sys.exit(f"{args.build} is not a build with gstreamer-cuda-1.0: its cuda* elements lack the "
             "memory:CUDAMemory pad templates, and docs/elements.md describes the full build "
             "(use such a build, or pass --force)")
why = other_release(args.build, args.release)
if why and not args.force:
    sys.exit(f"not writing {output}: {why} (pass --force to write it anyway)")
text = generate(args.build)
write(output, text)
print("wrote " + (os.path.relpath(output, root) if output == default_output else output))
