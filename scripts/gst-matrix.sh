#!/usr/bin/env bash
# Builds and tests gst-cuda-video against other GStreamer releases than the
# system's.  For each VERSION it builds (once, cached by version) a minimal
# GStreamer prefix from GStreamer's sources: the core, gst-plugins-base (app,
# videotestsrc, videoconvert/videoscale, videorate, playback, typefind,
# rawparse) and gst-plugins-bad (nvcodec with gstreamer-cuda-1.0, the video
# parsers, unixfd and the analytics library where the release has them), with
# GObject introspection for the Python tests.  Then it configures and builds
# the project against that prefix, runs its test suite with only that
# prefix's plugins and typelibs, and prints one results line per release:
#
#   gst-matrix: 1.26.9 cuda=disabled: build ok, tests 22 ok, 0 failed, 14 skipped
#
#   scripts/gst-matrix.sh [options] VERSION...
#
# Options:
#   --source PATH   where GStreamer's sources come from, one of
#                   - a git repository of the monorepo (GitHub
#                     GStreamer/gstreamer) holding the tag VERSION,
#                   - a monorepo source tree of that release (with
#                     subprojects/gstreamer, ...) or a tarball of one,
#                   - a directory with the release tarballs
#                     gstreamer-VERSION.tar.xz, gst-plugins-base-VERSION.tar.xz,
#                     gst-plugins-bad-VERSION.tar.xz (gstreamer.freedesktop.org),
#                   or any of these with %v standing for VERSION.
#                   Default: $GST_MATRIX_SOURCE.  Not needed once a prefix is
#                   cached.
#   --prefixes DIR  the prefix cache: DIR/VERSION (default:
#                   $GST_MATRIX_PREFIXES, else ~/.cache/gst-cuda-video/gst-prefix)
#   --cuda          build the project with -Dcuda=enabled (default
#                   -Dcuda=disabled: the CPU suite)
#   --meson-option OPT  one more project meson setup option (repeatable), e.g.
#                   --meson-option=-Dcuda-arch=90
#   --prefix-only   build the prefixes and stop
#   --no-tests      build the project, do not run its tests
#   --rebuild       build the prefix again even if cached
# Environment: MESON (a meson for GStreamer's builds; default: the system's if
# new enough, else Debian bookworm-backports' meson, fetched with apt-get
# download into the prefix cache), JOBS (ninja -j, default 2).
#
# The project's build directory is build-gst-VERSION[-cuda] in the repository
# root, with the logs of its configure, build and test (gst-matrix-*.log)
# and meson's own test log.  Each prefix gets an env.sh that
# puts it first at run time (source PREFIX/env.sh) and says how to build
# against it; see docs/releases.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

source_spec=${GST_MATRIX_SOURCE:-}
prefixes=${GST_MATRIX_PREFIXES:-${XDG_CACHE_HOME:-$HOME/.cache}/gst-cuda-video/gst-prefix}
cuda=disabled
project_options=()
prefix_only=false
run_tests=true
rebuild=false
versions=()
jobs=${JOBS:-2}

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --source) source_spec=$2; shift ;;
    --source=*) source_spec=${1#*=} ;;
    --prefixes) prefixes=$2; shift ;;
    --prefixes=*) prefixes=${1#*=} ;;
    --cuda) cuda=enabled ;;
    --meson-option) project_options+=("$2"); shift ;;
    --meson-option=*) project_options+=("${1#*=}") ;;
    --prefix-only) prefix_only=true ;;
    --no-tests) run_tests=false ;;
    --rebuild) rebuild=true ;;
    -h|--help) usage ;;
    -*) echo "gst-matrix: unknown option $1" >&2; usage 2 >&2 ;;
    *) versions+=("$1") ;;
  esac
  shift
done
[ ${#versions[@]} -gt 0 ] || { echo "gst-matrix: no VERSION given" >&2; usage 2 >&2; }
mkdir -p "$prefixes"
prefixes=$(cd "$prefixes" && pwd)

log() { echo "gst-matrix: $*" >&2; }

version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

# A meson at least $1 for GStreamer's own builds.  Debian 12's is 1.0.1;
# 1.24 needs 1.1, 1.26 and 1.28 need 1.4.  bookworm-backports has 1.7.0,
# unpacked privately so that the system's meson (which builds the project and
# CI) stays as it is.
meson_cmd=()
find_meson() {
  local need=$1 have
  if [ -n "${MESON:-}" ]; then read -r -a meson_cmd <<< "$MESON"; return; fi
  have=$(meson --version 2>/dev/null || echo 0)
  if version_ge "$have" "$need"; then meson_cmd=(meson); return; fi
  local dir
  dir=$(ls -d "$prefixes"/meson-* 2>/dev/null | sort -V | tail -n1 || true)
  if [ -z "$dir" ]; then
    log "meson $have is older than $need: fetching bookworm-backports' meson into $prefixes"
    local tmp; tmp=$(mktemp -d)
    if ! (cd "$tmp" && apt-get download -qq -t bookworm-backports meson >/dev/null 2>&1); then
      log "could not download meson from bookworm-backports: add"
      log "  deb http://deb.debian.org/debian bookworm-backports main"
      log "to the apt sources and run apt-get update, or set MESON to a meson >= $need"
      rm -rf "$tmp"; exit 1
    fi
    local deb; deb=$(ls "$tmp"/meson_*.deb)
    local v; v=$(dpkg-deb -f "$deb" Version); v=${v%%-*}
    dir="$prefixes/meson-$v"
    dpkg-deb -x "$deb" "$dir"
    rm -rf "$tmp"
  fi
  meson_cmd=(env "PYTHONPATH=$dir/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}" python3 "$dir/usr/bin/meson")
  have=$("${meson_cmd[@]}" --version)
  version_ge "$have" "$need" || { log "$dir has meson $have, older than $need"; exit 1; }
}

# Unpacks the three subprojects of release $1 into directory $2 as
# $2/gstreamer, $2/gst-plugins-base, $2/gst-plugins-bad.
unpack_sources() {
  local v=$1 dest=$2 spec=${source_spec//%v/$1} m
  [ -n "$spec" ] || { log "$v: no prefix cached and no --source given"; return 1; }
  mkdir -p "$dest"
  if [ -d "$spec" ] && git -C "$spec" rev-parse --git-dir >/dev/null 2>&1 \
     && git -C "$spec" rev-parse -q --verify "refs/tags/$v^{commit}" >/dev/null; then
    log "$v: sources from tag $v of $spec ($(git -C "$spec" rev-parse "$v^{commit}"))"
    # bad's docs cache and the ChangeLogs are not needed and may be absent
    # from a mirror (named one by one: a wildcard makes git read every blob)
    local paths=() excludes=(":!subprojects/gst-plugins-bad/docs/plugins/gst_plugins_cache.json")
    for m in gstreamer gst-plugins-base gst-plugins-bad; do
      paths+=("subprojects/$m"); excludes+=(":!subprojects/$m/ChangeLog")
    done
    # (git names blobs of other subprojects that a mirror lacks: said, not fatal)
    git -C "$spec" archive "$v" -- "${paths[@]}" "${excludes[@]}" > "$dest/sources.tar" \
      2> >(grep -v "^error: invalid object .* for 'subprojects/gst-\(libav\|plugins-good\|plugins-ugly\|devtools\|editing-services\|python\|rtsp-server\|docs\)" >&2) \
      || { log "$v: git archive failed"; return 1; }
    tar -xf "$dest/sources.tar" -C "$dest" && rm "$dest/sources.tar"
    for m in gstreamer gst-plugins-base gst-plugins-bad; do mv "$dest/subprojects/$m" "$dest/$m"; done
  elif [ -d "$spec/subprojects/gstreamer" ]; then
    log "$v: sources from the tree $spec"
    for m in gstreamer gst-plugins-base gst-plugins-bad; do cp -a "$spec/subprojects/$m" "$dest/$m"; done
  elif [ -d "$spec" ] && [ -f "$spec/gstreamer-$v.tar.xz" ]; then
    log "$v: sources from the release tarballs in $spec"
    for m in gstreamer gst-plugins-base gst-plugins-bad; do
      tar -xf "$spec/$m-$v.tar.xz" -C "$dest"
      mv "$dest/$m-$v" "$dest/$m"
    done
  elif [ -f "$spec" ]; then
    log "$v: sources from the tarball $spec"
    tar -xf "$spec" -C "$dest"
    local top; top=$(find "$dest" -maxdepth 3 -type d -path '*/subprojects/gstreamer' | head -n1)
    [ -n "$top" ] || { log "$spec holds no subprojects/gstreamer"; return 1; }
    for m in gstreamer gst-plugins-base gst-plugins-bad; do mv "$(dirname "$top")/$m" "$dest/$m"; done
  else
    log "$v: $spec is neither a git repository with tag $v, a source tree, release tarballs nor a tarball"
    return 1
  fi
  local got; got=$(sed -n "s/^ *version *: *'\([0-9.]*\)'.*/\1/p" "$dest/gstreamer/meson.build" | head -n1)
  [ "$got" = "$v" ] || { log "$v: the sources are GStreamer $got, not $v"; return 1; }
}

# -Dname=value for each "name=value" that is one of meson's own options
# (auto_features) or whose option the module's options file declares
# (options come and go between releases).
module_options() {
  local dir=$1 file o; shift
  file="$dir/meson.options"; [ -f "$file" ] || file="$dir/meson_options.txt"
  for o in "$@"; do
    case ${o%%=*} in
      auto_features) echo "-D$o" ;;
      *) if grep -q "option *( *'${o%%=*}'" "$file"; then echo "-D$o"; fi ;;
    esac
  done
}

# Builds module $2 of release $1 from $3 into prefix $4 (once: a stamp in
# the prefix says it is installed, so that a build that stopped resumes).
build_module() {
  local v=$1 m=$2 src=$3 prefix=$4 opts
  local common=(tests=disabled examples=disabled introspection=enabled doc=disabled nls=disabled)
  case $m in
    gstreamer)
      opts=("${common[@]}" benchmarks=disabled check=enabled tools=enabled libunwind=disabled
            libdw=disabled bash-completion=disabled ptp-helper=disabled) ;;
    gst-plugins-base)
      opts=("${common[@]}" auto_features=disabled app=enabled videotestsrc=enabled
            videoconvertscale=enabled videoconvert=enabled videoscale=enabled videorate=enabled
            typefind=enabled playback=enabled rawparse=enabled tools=enabled) ;;
    gst-plugins-bad)
      opts=("${common[@]}" auto_features=disabled nvcodec=enabled videoparsers=enabled
            unixfd=enabled analytics=enabled) ;;
  esac
  mapfile -t opts < <(module_options "$src/$m" "${opts[@]}")
  local stamp="$prefix/.installed-$m"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${opts[*]}" ]; then
    log "$v: $m already installed"
    return 0
  fi
  log "$v: building $m (${opts[*]})"
  local b="$src/build-$m"
  PKG_CONFIG_PATH="$prefix/lib/pkgconfig" "${meson_cmd[@]}" setup "$b" "$src/$m" \
    --prefix "$prefix" --libdir lib --buildtype release "${opts[@]}" > "$src/$m-setup.log" 2>&1 \
    || { tail -n 30 "$src/$m-setup.log" >&2; return 1; }
  # ninja install re-runs that meson: keep its environment
  PKG_CONFIG_PATH="$prefix/lib/pkgconfig" ninja -C "$b" -j "$jobs" > "$src/$m-build.log" 2>&1 \
    || { tail -n 30 "$src/$m-build.log" >&2; return 1; }
  PKG_CONFIG_PATH="$prefix/lib/pkgconfig" "${meson_cmd[@]}" install -C "$b" --no-rebuild \
    > "$src/$m-install.log" 2>&1 || { tail -n 30 "$src/$m-install.log" >&2; return 1; }
  echo "${opts[*]}" > "$stamp"
}

write_env() {
  local prefix=$1
  cat > "$prefix/env.sh" <<'EOF'
# source me: runs GStreamer from this prefix instead of the system's.
# To build against it: PKG_CONFIG_PATH="$GST_PREFIX/lib/pkgconfig" meson setup ...
GST_PREFIX=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export GST_PREFIX
export PATH="$GST_PREFIX/bin:$PATH"
export LD_LIBRARY_PATH="$GST_PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export GI_TYPELIB_PATH="$GST_PREFIX/lib/girepository-1.0${GI_TYPELIB_PATH:+:$GI_TYPELIB_PATH}"
export GST_PLUGIN_SYSTEM_PATH_1_0="$GST_PREFIX/lib/gstreamer-1.0"
export GST_PLUGIN_SYSTEM_PATH="$GST_PLUGIN_SYSTEM_PATH_1_0"
export GST_PLUGIN_SCANNER_1_0="$GST_PREFIX/libexec/gstreamer-1.0/gst-plugin-scanner"
export GST_PLUGIN_SCANNER="$GST_PLUGIN_SCANNER_1_0"
# one registry per prefix and machine: a registry of another release is not reused
export GST_REGISTRY_1_0="${TMPDIR:-/tmp}/gst-registry-$(basename "$GST_PREFIX")-$(id -u).bin"
export GST_REGISTRY="$GST_REGISTRY_1_0"
EOF
}

# Builds (or finds cached) the prefix of release $1.
ensure_prefix() {
  local v=$1 prefix="$prefixes/$1"
  if [ -f "$prefix/.complete" ] && ! $rebuild; then
    log "$v: cached prefix $prefix"
    return 0
  fi
  [ -n "$source_spec" ] || { log "$v: no prefix cached in $prefixes and no --source given"; return 1; }
  local need=1.0
  version_ge "$v" 1.23 && need=1.1
  version_ge "$v" 1.25 && need=1.4
  find_meson "$need"
  $rebuild && rm -rf "$prefix"
  rm -rf "$prefixes/src-$v".*
  local src; src=$(mktemp -d "$prefixes/src-$v.XXXXXX")
  unpack_sources "$v" "$src" || { rm -rf "$src"; return 1; }
  local start=$SECONDS m
  for m in gstreamer gst-plugins-base gst-plugins-bad; do
    build_module "$v" "$m" "$src" "$prefix" || { log "$v: $m failed; logs in $src"; return 1; }
  done
  write_env "$prefix"
  printf 'GStreamer %s built %s in %d s with %s\n' "$v" "$(date -u +%Y-%m-%dT%H:%MZ)" \
    $((SECONDS - start)) "$("${meson_cmd[@]}" --version | sed 's/^/meson /')" > "$prefix/.complete"
  rm -rf "$src"
  log "$v: prefix ready in $prefix ($((SECONDS - start)) s, $(du -sh "$prefix" | cut -f1))"
}

# Configures, builds and tests the project against prefix $1; prints the
# results line.
test_project() {
  local v=$1 prefix="$prefixes/$1" b="build-gst-$1" result
  [ "$cuda" = enabled ] && b="$b-cuda"
  (
    cd "$root"
    # shellcheck disable=SC1091
    source "$prefix/env.sh"
    export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
    local opts=(-Dcuda=$cuda "${project_options[@]}") setup_log
    setup_log=$(mktemp)
    if [ -f "$b/build.ninja" ]; then
      meson setup --reconfigure "$b" "${opts[@]}" > "$setup_log" 2>&1
    else
      rm -rf "$b"; meson setup "$b" "${opts[@]}" > "$setup_log" 2>&1
    fi || { cat "$setup_log" >&2; rm -f "$setup_log"; echo "configure FAILED"; exit 0; }
    mv "$setup_log" "$b/gst-matrix-setup.log"
    ninja -C "$b" -j "$jobs" > "$b/gst-matrix-build.log" 2>&1 \
      || { echo "build FAILED (see $b/gst-matrix-build.log)"; exit 0; }
    $run_tests || { echo "build ok, tests not run"; exit 0; }
    rm -f "$b/meson-logs/testlog.json"
    meson test -C "$b" --no-rebuild --num-processes "$jobs" --print-errorlogs > "$b/gst-matrix-test.log" 2>&1 \
      || true
    python3 - "$b/meson-logs/testlog.json" <<'PY'
import json, os, sys
log = sys.argv[1]
if not os.path.isfile(log):
    print("build ok, tests did not run"); sys.exit()
counts = {}
failed = []
for line in open(log):
    if line.strip():
        r = json.loads(line)
        counts[r["result"]] = counts.get(r["result"], 0) + 1
        if r["result"] in ("FAIL", "TIMEOUT", "ERROR", "UNEXPECTEDPASS"):
            failed.append(r["name"])
ok = counts.get("OK", 0) + counts.get("EXPECTEDFAIL", 0)
print(f"build ok, tests {ok} ok, {len(failed)} failed, {counts.get('SKIP', 0)} skipped"
      + (f" ({', '.join(failed)})" if failed else ""))
PY
  )
}

status=0
results=()
for v in "${versions[@]}"; do
  if ! ensure_prefix "$v"; then
    results+=("$v: prefix build FAILED"); status=1; continue
  fi
  $prefix_only && { results+=("$v: prefix $prefixes/$v"); continue; }
  result=$(test_project "$v")
  [[ "$result" == "build ok, tests"*", 0 failed"* || "$result" == "build ok, tests not run" ]] || status=1
  results+=("$v cuda=$cuda: $result")
done
for r in "${results[@]}"; do echo "gst-matrix: $r"; done
exit $status
