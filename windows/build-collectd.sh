#!/bin/bash
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# Cross-build collectd 5.12 for Windows (x86_64-w64-mingw32) from Debian's
# source packages, then the project's winperf.dll against it.
#
#   windows/build-collectd.sh [BUILD_DIR]      (default: build/windows)
#
# Steps (each one is skipped when its result is already in BUILD_DIR, so a
# second run reuses the collectd build and only rebuilds winperf.dll):
#   1. sources: `apt-get source --download-only collectd libyaml protobuf-c
#      libmicrohttpd` (a deb-src entry for the machine's own Debian mirror
#      is added when missing);
#   2. libyaml, protobuf-c's runtime and libmicrohttpd, static, from
#      Debian's sources (the last two for write_prometheus);
#   3. gnulib for mingw from Debian's `gnulib` package (gnulib-tool), as
#      libgnu.dll, the module list of collectd's own build.sh;
#   4. a dlopen shim (windows/dlshim) as libdl.a;
#   5. collectd with windows/patches/*.patch and windows/service/
#      collectd-service.c as its Windows main (the service), plugins
#      logfile, write_graphite, network, csv and write_prometheus;
#   6. winperf.dll and winperf.exe: the project configured with
#      --host=x86_64-w64-mingw32 --with-collectd-include=... --enable-plugin.
# Result: BUILD_DIR/dist/ holds collectd.exe, the plugin DLLs, winperf.dll,
# winperf.exe, the runtime DLLs they import and types.db.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
B=${1:-$TOP/build/windows}
mkdir -p "$B"
B=$(cd "$B" && pwd)
HOST=x86_64-w64-mingw32
CC=$HOST-gcc
JOBS=${JOBS:-2}
PREFIX=$B/prefix # libyaml, libdl, gnulib headers for the cross build
T0=$(date +%s)

log() { printf '[%4ds] %s\n' $(($(date +%s) - T0)) "$*"; }
die() {
  echo "build-collectd.sh: $*" >&2
  exit 1
}
# Nothing of the caller's native compiler settings may leak in.
unset CFLAGS CPPFLAGS LDFLAGS LIBS MAKEFLAGS MFLAGS MAKELEVEL PKG_CONFIG_PATH

# The programs this runs (scripts/programs.txt; scripts/install-deps.sh
# --windows installs them): a missing one stops here, naming its package.
top_srcdir=$TOP
NEED_FAIL=need_fail_die
# shellcheck source-path=SCRIPTDIR source=../tests/lib/need.sh
. "$TOP/tests/lib/need.sh"
need x86_64-w64-mingw32-gcc x86_64-w64-mingw32-objdump x86_64-w64-mingw32-ar \
  x86_64-w64-mingw32-windmc x86_64-w64-mingw32-windres \
  gnulib-tool autoreconf automake libtoolize pkg-config flex bison make patch python3 \
  protoc-c

# ------------------------------------------------------------ 1. sources
# The deb-src entry copies the URI of the machine's own Debian archive entry
# (the one carrying the release's main component), so no mirror is named here.
ensure_deb_src() {
  if apt-cache showsrc collectd 2>/dev/null | grep -q '^Package: collectd'; then
    return 0
  fi
  local codename uri keyring f
  codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
  uri=""
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    uri=$(awk -v s="$codename" '
      /^$/ { if (deb && suite && main && u != "") { print u; exit } deb = suite = main = 0; u = "" }
      /^Types:/ { deb = ($0 ~ /[ \t]deb([ \t]|$)/) }
      /^URIs:/ { u = $2 }
      /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) suite = 1 }
      /^Components:/ { for (i = 2; i <= NF; i++) if ($i == "main") main = 1 }
      END { if (deb && suite && main && u != "") print u }' "$f" | head -1)
    [ -n "$uri" ] && break
  done
  if [ -z "$uri" ]; then
    uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      awk -v s="$codename" '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { if ($(i + 1) == s) { print $i; exit } } }')
  fi
  [ -n "$uri" ] || die "no Debian '$codename' archive in the apt sources to derive a deb-src entry from"
  keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  [ "$(id -u)" -eq 0 ] || die "adding a deb-src entry needs root (or add one for $codename main yourself)"
  log "adding deb-src $codename main from the machine's archive entry"
  {
    echo "Types: deb-src"
    echo "URIs: $uri"
    echo "Suites: $codename"
    echo "Components: main"
    [ -f "$keyring" ] && echo "Signed-By: $keyring"
  } >/etc/apt/sources.list.d/collectd-winperf-src.sources
  apt-get update -q >/dev/null
}

mkdir -p "$B/src"
# Each source package once (only its upstream tarball is needed: Debian's
# patch tarball, e.g. collectd's, may be missing on the mirror).
for pkg in collectd libyaml protobuf-c libmicrohttpd; do
  ls "$B"/src/"${pkg}"_*.orig.tar.* >/dev/null 2>&1 && continue
  ensure_deb_src
  log "apt-get source --download-only $pkg"
  (cd "$B/src" && apt-get source --download-only "$pkg" >"apt-$pkg.log" 2>&1 || true)
done
orig_tar() { # the upstream tarball of source package $1, or die
  local t
  t=$(ls "$B"/src/"$1"_*.orig.tar.* 2>/dev/null | head -1)
  [ -n "$t" ] || die "$1's orig tarball did not arrive (see $B/src/apt-$1.log)"
  echo "$t"
}
CD_TAR=$(orig_tar collectd)
case $CD_TAR in */collectd_5.12*) ;; *) die "$CD_TAR is not collectd 5.12" ;; esac
YAML_TAR=$(orig_tar libyaml)
PROTOBUF_C_TAR=$(orig_tar protobuf-c)
MHD_TAR=$(orig_tar libmicrohttpd)
log "sources: $(basename "$CD_TAR") $(basename "$YAML_TAR") $(basename "$PROTOBUF_C_TAR") $(basename "$MHD_TAR")"

# ------------------------------------------------------------ 2. libyaml
# Static, so winperf.dll carries it (the library only: its tests and
# examples are skipped); YAML_DECLARE_STATIC keeps yaml.h from
# declaring dllimport (set in the .pc file for consumers).
if [ ! -f "$PREFIX/lib/libyaml.a" ]; then
  log "libyaml: configure and build"
  rm -rf "$B/libyaml"
  mkdir -p "$B/libyaml"
  tar -xf "$YAML_TAR" -C "$B/libyaml" --strip-components=1
  (cd "$B/libyaml" &&
    { [ -x configure ] || autoreconf -fi; } &&
    ./configure --host=$HOST --prefix="$PREFIX" --disable-shared --enable-static \
      CPPFLAGS=-DYAML_DECLARE_STATIC &&
    make -C src -j"$JOBS" && make -C src install && make -C include install &&
    make install-pkgconfigDATA) >"$B/libyaml.log" 2>&1 ||
    die "libyaml build failed: see $B/libyaml.log"
  sed -i 's/^Cflags: \(.*\)$/Cflags: \1 -DYAML_DECLARE_STATIC/' "$PREFIX/lib/pkgconfig/yaml-0.1.pc"
  rm -f "$PREFIX/lib/libyaml.la"
fi

# ------------------------------------- 2b. protobuf-c and libmicrohttpd
# write_prometheus' two libraries, static like libyaml (linked into
# write_prometheus.dll, nothing more to ship): protobuf-c's C runtime only
# (--disable-protoc: its compiler is C++ and runs on the build host, where
# Debian's protobuf-c-compiler provides protoc-c of the same version,
# 1.4.1); libmicrohttpd without HTTPS (no GnuTLS for mingw here; a scrape
# is plain HTTP as on Linux) on Windows threads (--with-threads=auto:
# this configure checks for Windows threads only then, and picks them on
# mingw).
static_lib() { # NAME TARBALL LOG TARGETS CONFIGURE-ARGS...: build, install into PREFIX
  local name=$1 tar=$2 logf=$3 dir=$B/$1
  local targets=$4
  shift 4
  log "$name: configure and build"
  rm -rf "$dir"
  mkdir -p "$dir"
  tar -xf "$tar" -C "$dir" --strip-components=1
  # TARGETS: the library's make commands (eval'd: only what is installed
  # is built, not its tests, examples or documentation).
  (cd "$dir" && ./configure --host=$HOST --prefix="$PREFIX" --disable-shared \
    --enable-static "$@" && eval "$targets") >"$logf" 2>&1 ||
    die "$name build failed: see $logf"
  # libtool will not put a static library into a DLL: the linker gets the
  # archives themselves (step 5), so no .la may send libtool looking.
  rm -f "$PREFIX"/lib/lib"$name".la
}
if [ ! -f "$PREFIX/lib/libprotobuf-c.a" ]; then
  static_lib protobuf-c "$PROTOBUF_C_TAR" "$B/protobuf-c.log" \
    'make -j"$JOBS" && make install' --disable-protoc
fi
if [ ! -f "$PREFIX/lib/libmicrohttpd.a" ]; then
  static_lib microhttpd "$MHD_TAR" "$B/libmicrohttpd.log" \
    'make -C src/microhttpd -j"$JOBS" && make -C src/microhttpd install &&
     make -C src/include install && make install-pkgconfigDATA' \
    --disable-https --disable-doc --disable-examples --disable-curl \
    --disable-nls --with-threads=auto
fi

# ------------------------------------------------------------- 3. gnulib
# The module list of collectd 5.12's build.sh (build_cygwin), plus the
# modules its test dependencies used to pull in and collectd needs (socket
# calls, setenv, lstat, ...: without them collectd.exe does not link once
# the tests are left out); gnulib is built as a DLL because collectd.exe
# and every plugin link it.
GNULIB=$B/gnulib
if [ ! -f "$GNULIB/gllib/libgnu.dll" ]; then
  if [ ! -f "$GNULIB/configure" ]; then
    log "gnulib-tool --create-testdir"
    rm -rf "$GNULIB"
    gnulib-tool --create-testdir --without-tests --source-base=lib --dir="$GNULIB" \
      canonicalize-lgpl fcntl-h fnmatch getsockopt gettimeofday nanosleep \
      netdb net_if poll recv regex sendto setlocale strtok_r sys_resource \
      sys_socket sys_stat sys_wait time_r \
      accept bind close connect fcntl fdopen fstat ftruncate getcwd-lgpl \
      getdtablesize getpagesize inet_pton ioctl listen lstat open perror \
      pipe-posix putenv setenv setsockopt sleep socket strerror \
      strerror_r-posix symlink unsetenv usleep \
      getaddrinfo recvfrom >"$B/gnulib-tool.log" 2>&1 ||
      die "gnulib-tool failed: see $B/gnulib-tool.log"
  fi
  log "gnulib: configure and build"
  (cd "$GNULIB" &&
    ./configure --host=$HOST LIBS="-lws2_32 -lpthread" &&
    make -C gllib -j"$JOBS" &&
    cd gllib &&
    $CC -shared -o libgnu.dll -Wl,--whole-archive libgnu.a -Wl,--no-whole-archive \
      -Wl,--out-implib,libgnu.dll.a -lws2_32 -lpthread &&
    rm -f libgnu.a) >"$B/gnulib.log" 2>&1 || die "gnulib build failed: see $B/gnulib.log"
fi
GNULIB_DIR=$GNULIB/gllib

# ------------------------------------------------------------- 4. dlshim
if [ ! -f "$PREFIX/lib/libdl.a" ] || [ "$HERE/dlshim/dlfcn.c" -nt "$PREFIX/lib/libdl.a" ]; then
  log "dlopen shim"
  mkdir -p "$PREFIX/lib" "$PREFIX/include" "$B/dlshim"
  cp "$HERE/dlshim/dlfcn.h" "$PREFIX/include/"
  $CC -O2 -Wall -Wextra -Werror -c "$HERE/dlshim/dlfcn.c" -o "$B/dlshim/dlfcn.o"
  rm -f "$PREFIX/lib/libdl.a"
  $HOST-ar rcs "$PREFIX/lib/libdl.a" "$B/dlshim/dlfcn.o"
fi

# ----------------------------------------------------------- 5. collectd
CD=$B/collectd
# .patched holds the checksums of the patches applied: another set of
# patches (one added or changed) unpacks collectd anew.
patch_sums=$(cat "$HERE"/patches/*.patch | sha256sum | cut -d' ' -f1)
if [ -f "$CD/.patched" ] && [ "$(cat "$CD/.patched")" != "$patch_sums" ]; then
  log "collectd: the patches changed since it was unpacked: anew"
  rm -rf "$CD"
fi
if [ ! -f "$CD/.patched" ]; then
  log "collectd: unpack and patch"
  rm -rf "$CD"
  mkdir -p "$CD"
  tar -xf "$CD_TAR" -C "$CD" --strip-components=1
  for p in "$HERE"/patches/*.patch; do
    [ -f "$p" ] || continue
    patch -d "$CD" -p1 <"$p" >>"$B/patch.log" 2>&1 || die "patch $(basename "$p") failed: see $B/patch.log"
  done
  echo "$patch_sums" >"$CD/.patched"
fi
# collectd.exe's Windows main is the project's own (windows/service/: the
# console program plus the Windows service), copied over collectd's
# cmd_windows.c, its parts (svc_*.c, svc.h, which it includes) and the
# Event Log message IDs (svc_messages.h, from messages.mc by windmc) next
# to it, again whenever one changes (make then relinks).
MC=$B/messages
mkdir -p "$MC"
if [ ! -f "$MC/messages.h" ] || [ "$HERE/service/messages.mc" -nt "$MC/messages.h" ]; then
  $HOST-windmc -h "$MC" -r "$MC" "$HERE/service/messages.mc" >"$B/windmc.log" 2>&1 ||
    die "windmc failed: see $B/windmc.log"
fi
svc_changed=no
cmp -s "$HERE/service/collectd-service.c" "$CD/src/daemon/cmd_windows.c" || svc_changed=yes
for f in "$HERE"/service/svc*.[ch]; do
  cmp -s "$f" "$CD/src/daemon/$(basename "$f")" || svc_changed=yes
done
cmp -s "$MC/messages.h" "$CD/src/daemon/svc_messages.h" || svc_changed=yes
if [ "$svc_changed" = yes ]; then
  cp "$HERE/service/collectd-service.c" "$CD/src/daemon/cmd_windows.c"
  cp "$HERE"/service/svc*.[ch] "$CD/src/daemon/"
  cp "$MC/messages.h" "$CD/src/daemon/svc_messages.h"
  rm -f "$CD/.built"
fi
# collectd's configure arguments: another set (a plugin added) configures
# the unpacked tree again (.configured holds their checksum).
# write_prometheus: the static libraries of step 2b (MICROHTTPD_LIBS: its
# link check needs Winsock after the static library) and the build host's
# protoc-c, which generates prometheus.pb-c.c. LIBS names gnulib's
# directory itself: the libprotobuf-c check links with its own LDFLAGS only.
CD_CONFIGURE_ARGS=("--host=$HOST"
  --prefix=C:/ProgramData/collectd --sysconfdir=C:/ProgramData/collectd
  --localstatedir=C:/ProgramData/collectd
  --disable-all-plugins --enable-logfile
  --enable-write_graphite --enable-network --enable-csv
  --enable-write_prometheus --with-libmicrohttpd="$PREFIX"
  --with-libprotobuf-c="$PREFIX" MICROHTTPD_LIBS="-lmicrohttpd -lws2_32"
  PROTOC_C="$(command -v protoc-c)"
  --without-libgcrypt --with-fp-layout=nothing
  --disable-werror c_cv_have_strtok_r_default=yes
  CFLAGS="-O2 -include $GNULIB/gnulib_config.h -I$GNULIB_DIR -I$PREFIX/include"
  LDFLAGS="-L$GNULIB_DIR -L$PREFIX/lib" LIBS="-L$GNULIB_DIR -lgnu -lws2_32 -lpthread")
configure_sum=$(printf '%s\n' "${CD_CONFIGURE_ARGS[@]}" | sha256sum | cut -d' ' -f1)
if [ -f "$CD/Makefile" ] && [ "$(cat "$CD/.configured" 2>/dev/null)" != "$configure_sum" ]; then
  log "collectd: its configure arguments changed: configure again"
  rm -f "$CD/Makefile" "$CD/.built"
fi
if [ ! -f "$CD/.built" ]; then
  if [ ! -f "$CD/Makefile" ]; then
    log "collectd: autoreconf and configure"
    # gnulib's config.h without its package identity (PACKAGE_NAME "dummy"
    # would clash with collectd's and configure's own); it defines restrict.
    # Nor its "#define uid_t int": collectd.h typedefs uid_t itself on WIN32.
    sed '/^#define \(PACKAGE\|VERSION\)/d; /^#define uid_t int$/d' "$GNULIB/config.h" >"$GNULIB/gnulib_config.h"
    # -lws2_32 -lpthread: configure looks for inet_ntop and nanosleep by
    # linking (Winsock and winpthreads have them). -include gnulib's
    # config.h: this gnulib's replacement headers refuse to be included
    # without it (configure's own test programs too). --disable-werror:
    # gnulib's and collectd's config.h both define a few HAVE_ macros.
    # c_cv_have_strtok_r_default: that check compiles with -Werror, which
    # the differing HAVE_DECL_STRERROR_R of the two config.h fail; gnulib
    # (module strtok_r) provides it anyway. --with-fp-layout:
    # the double layout check runs a program, impossible when cross
    # compiling; x86-64 needs no conversion ("nothing").
    # Compiled-in defaults point at the MSI's data directory, so a bare
    # collectd.exe finds C:/ProgramData/collectd/collectd.conf.
    # configure.ac reads GNULIB_DIR from the environment (win32 branch).
    # shellcheck disable=SC2097,SC2098
    (cd "$CD" && { [ -x configure ] || autoreconf -fi; } &&
      GNULIB_DIR="$GNULIB_DIR" ./configure "${CD_CONFIGURE_ARGS[@]}") >"$B/collectd-configure.log" 2>&1 ||
      die "collectd configure failed: see $B/collectd-configure.log"
    grep -q '^ *write_prometheus *\. *\. *\. *yes' "$B/collectd-configure.log" ||
      die "collectd configure: write_prometheus not enabled (its summary in $B/collectd-configure.log)"
    # collectd.h includes gnulib's config.h as gnulib_config.h on WIN32
    # (what build.sh does).
    cp "$GNULIB/gnulib_config.h" "$CD/src/gnulib_config.h"
    # collectd's own config.h also gets "#define uid_t int" (AC_TYPE_UID_T),
    # which turns collectd.h's "typedef int uid_t;" into "typedef int int;"
    # in files that include config.h first.
    sed -i '/^#define uid_t int$/d' "$CD/src/config.h"
    # libtool's wrapper program for collectd.exe must not get CFLAGS (the
    # forced gnulib header would make it need libgnu): build.sh does this.
    sed -i 's%\$LTCC \$LTCFLAGS\(.*cwrapper.*\)%$LTCC \1%' "$CD/libtool"
    echo "$configure_sum" >"$CD/.configured"
  fi
  log "collectd: make -j$JOBS"
  # Only the daemon and the plugins: `make all` also builds helper
  # libraries with no Windows port (libmount). network and csv build
  # with windows/patches/ (the `interface` macro, fcntl locks); network
  # has no Sign/Encrypt (--without-libgcrypt: no libgcrypt for mingw here)
  # and links iphlpapi (if_nametoindex), which its Makefile.am does not
  # know on Windows.
  # write_prometheus.dll gets the static libraries of step 2b through the
  # linker itself (libtool puts no static library into a DLL); libtool puts
  # -Wl, flags after its own libraries, so Winsock, which libmicrohttpd.a
  # needs, goes the same way to follow it.
  (cd "$CD" && make -j"$JOBS" collectd.exe &&
    make -j"$JOBS" logfile.la write_graphite.la csv.la &&
    make -j"$JOBS" network.la network_la_LIBADD=-liphlpapi &&
    make -j"$JOBS" write_prometheus.la write_prometheus_la_LIBADD="-Wl,$PREFIX/lib/libprotobuf-c.a -Wl,$PREFIX/lib/libmicrohttpd.a -Wl,-lws2_32") >"$B/collectd-make.log" 2>&1 ||
    die "collectd build failed: see $B/collectd-make.log"
  touch "$CD/.built"
fi
log "collectd.exe built"

# ------------------------------------------- collectd headers for plugins
# The layout of Debian's collectd-dev (/usr/include/collectd/core/...), which
# the plugin's includes and configure's --with-collectd-include expect:
# headers of src/{daemon,utils} under collectd/core/, liboconfig under
# collectd/liboconfig/, config.h and gnulib_config.h under collectd/core/,
# every quoted include rewritten to its full collectd/core/... path as
# Debian does (a bare "config.h" would find the project's own).
INC=$B/collectd-include
if [ ! -f "$INC/.done" ] || [ "$CD/.built" -nt "$INC/.done" ]; then
  log "collectd headers -> $INC"
  rm -rf "$INC"
  /usr/bin/python3 - "$CD/src" "$INC" <<'PY'
import os, re, sys
src, inc = sys.argv[1], sys.argv[2]
def dest(rel):  # header path relative to src/ -> include path
    return ("collectd/" if rel.startswith("liboconfig/") else "collectd/core/") + rel
headers = {}
for sub in ("daemon", "utils", "liboconfig"):
    for root, _, files in os.walk(os.path.join(src, sub)):
        for f in files:
            if f.endswith(".h"):
                rel = os.path.relpath(os.path.join(root, f), src)
                headers[rel] = dest(rel)
for f in ("config.h", "gnulib_config.h"):
    headers[f] = "collectd/core/" + f
pat = re.compile(r'^(\s*#\s*include\s+)"([^"]+)"', re.M)
for rel, out in headers.items():
    here = os.path.dirname(rel)
    def fix(m):
        name = m.group(2)
        # the compiler's own search order for collectd: the header's
        # directory, then src/, then src/daemon/
        for cand in (os.path.normpath(os.path.join(here, name)), name,
                     os.path.join("daemon", name)):
            if cand in headers:
                return '%s"%s"' % (m.group(1), headers[cand])
        return m.group(0)  # a system or generated header: leave it
    with open(os.path.join(src, rel)) as fh:
        text = pat.sub(fix, fh.read())
    path = os.path.join(inc, out)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)
PY
  touch "$INC/.done"
fi

# ------------------------------------------ 6. winperf.dll and winperf.exe
# The project's own autotools build for mingw. Three settings differ from
# the Linux plugin and are passed to make for winperf.la only: a Windows DLL
# cannot leave collectd's symbols undefined, so it links collectd.exe's
# import library (-lcollectd, which collectd's build writes); libtool needs
# -no-undefined to build a DLL at all; collectd.h includes headers only
# gnulib provides on Windows (sys/wait.h, ...), so winperf.c is compiled
# with gnulib's include directory and linked with libgnu, as collectd's own
# plugins are.
# The project build belongs to one source tree (scripts/release.sh builds a
# release tarball's with the same BUILD_DIR): another tree starts it anew.
P=$B/project
if [ -f "$P/Makefile" ] && [ "$(cat "$P/.srcdir" 2>/dev/null)" != "$TOP" ]; then
  log "project: configured for $(cat "$P/.srcdir" 2>/dev/null || echo another tree), now $TOP: anew"
  rm -rf "$P"
fi
mkdir -p "$P"
if [ ! -f "$P/Makefile" ]; then
  [ -x "$TOP/configure" ] || (cd "$TOP" && ./autogen.sh)
  log "project: configure --host=$HOST --enable-plugin"
  (cd "$P" && PKG_CONFIG_LIBDIR="$PREFIX/lib/pkgconfig" PKG_CONFIG_PATH='' \
    "$TOP/configure" --host=$HOST --enable-plugin \
    --with-collectd-include="$INC/collectd" CPPFLAGS="-I$INC") \
    >"$B/project-configure.log" 2>&1 || die "project configure failed: see $B/project-configure.log"
  echo "$TOP" >"$P/.srcdir"
fi
# A Makefile.am/.inc changed since the last run: let make regenerate the
# Makefile first, else mkvar would capture the regeneration's output.
(cd "$P" && make -s Makefile) >"$B/project-regen.log" 2>&1 ||
  die "project Makefile regeneration failed: see $B/project-regen.log"
mkvar() { # the value a Makefile variable has, as make sees it
  (cd "$P" && make -s --no-print-directory -f Makefile -f - print-var VAR="$1") <<'MK'
print-var: ; @echo '$($(VAR))'
MK
}
# gnulib's replacement headers refuse to be included before its config.h:
# force it first, as collectd's own build does for its plugins (a plugin
# file may include <pthread.h>, which pulls them in, before collectd.h).
PLUGIN_CPPFLAGS="$(mkvar winperf_la_CPPFLAGS) -include $GNULIB/gnulib_config.h -I$GNULIB_DIR"
PLUGIN_LIBADD="$(mkvar winperf_la_LIBADD) -L$CD -lcollectd -L$GNULIB_DIR -lgnu"
# libtool will not put a static library into a Windows DLL; the linker
# itself will, so libyaml.a goes to it directly.
PLUGIN_LIBADD=${PLUGIN_LIBADD/-lyaml/-Wl,$PREFIX/lib/libyaml.a}
PLUGIN_LDFLAGS="$(mkvar winperf_la_LDFLAGS) -no-undefined"
# The CountersFile's include/exclude regexes (src/config/card_keys.c, in
# libwpconfig, which winperf.exe links too, and src/plugin/cardinality.c,
# in libwpplugin): mingw has no <regex.h>, gnulib's regex module has
# (windows/test-regex.sh checks it under Wine).
WPPLUGIN_CPPFLAGS="$(mkvar libwpplugin_la_CPPFLAGS) -include $GNULIB/gnulib_config.h -I$GNULIB_DIR"
WPCONFIG_CPPFLAGS="$(mkvar libwpconfig_la_CPPFLAGS) -include $GNULIB/gnulib_config.h -I$GNULIB_DIR"
CLI_LDADD="$(mkvar winperf_LDADD) -L$GNULIB_DIR -lgnu"
log "project: make -j$JOBS (winperf.dll, winperf.exe, the test provider)"
(cd "$P" && make -j"$JOBS" winperf_la_CPPFLAGS="$PLUGIN_CPPFLAGS" \
  libwpplugin_la_CPPFLAGS="$WPPLUGIN_CPPFLAGS" \
  libwpconfig_la_CPPFLAGS="$WPCONFIG_CPPFLAGS" winperf_LDADD="$CLI_LDADD" \
  winperf_la_LIBADD="$PLUGIN_LIBADD" \
  winperf_la_LDFLAGS="$PLUGIN_LDFLAGS") >"$B/project-make.log" 2>&1 ||
  die "project build failed: see $B/project-make.log"
[ -f "$P/.libs/winperf.dll" ] || die "no winperf.dll in $P/.libs (see $B/project-make.log)"

# ---------------------------------------------------------------- dist/
# Everything the MSI ships, plus the DLLs the programs import that are not
# part of Windows (found in the mingw-w64 sysroot).
D=$B/dist
rm -rf "$D"
mkdir -p "$D/plugins"
cp "$CD/.libs/collectd.exe" "$D/" 2>/dev/null || cp "$CD/collectd.exe" "$D/"
for p in logfile write_graphite network csv write_prometheus; do
  cp "$CD/.libs/$p.dll" "$D/plugins/"
done
cp "$P/.libs/winperf.dll" "$D/plugins/"
if [ -f "$P/.libs/winperf.exe" ]; then cp "$P/.libs/winperf.exe" "$D/"; else cp "$P/winperf.exe" "$D/"; fi
cp "$GNULIB_DIR/libgnu.dll" "$D/"
cp "$CD/src/types.db" "$D/"
# The Event Log's message file (EventMessageFile of the source "collectd"):
# a DLL of resources only, the messages of windows/service/messages.mc.
$HOST-windres "$MC/messages.rc" -o "$MC/messages.o" &&
  $CC -shared -nostdlib -Wl,--entry=0 -o "$D/collectd-events.dll" "$MC/messages.o" ||
  die "collectd-events.dll failed"
SYSROOT_DLLS="/usr/$HOST/lib /usr/lib/gcc/$HOST/$($CC -dumpversion | cut -d. -f1)-win32 /usr/lib/gcc/$HOST/$($CC -dumpversion)"
imports() { $HOST-objdump -p "$1" | sed -n 's/^\s*DLL Name: //p'; }
changed=1
while [ "$changed" -eq 1 ]; do
  changed=0
  for f in "$D"/*.exe "$D"/*.dll "$D"/plugins/*.dll; do
    for dll in $(imports "$f"); do
      [ -f "$D/$dll" ] && continue
      for dir in $SYSROOT_DLLS; do
        if [ -f "$dir/$dll" ]; then
          cp "$dir/$dll" "$D/"
          changed=1
          break
        fi
      done
    done
  done
done
log "dist: $(cd "$D" && find . -type f | sort | tr '\n' ' ')"
log "done in $(($(date +%s) - T0)) s"
