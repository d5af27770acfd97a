#!/usr/bin/env bash
# Puts together, when missing, a Python with the official MCP Python SDK in a folder of its own, and
# prints the path of its launcher: the upstream written with the Python SDK that
# tools/workspace-plugin/test/mcp/reference-servers.spec.ts serves through toolsets (issue 71 §7).
#
# This machine reaches npm and Debian's archive, not PyPI. Debian 12's pydantic is 1.x, too old
# for the SDK, and the SDK (1.28) needs a newer pydantic than Debian 13's 2.10 (FastMCP's TypedDict
# results fail on it). Debian testing has pydantic 2.13 and the SDK's other dependencies, and
# unstable (sid) has the SDK itself (python3-mcp, pure Python). So this downloads python3-mcp from
# sid and everything it needs from testing (its Python and C library included) with apt-get in a
# state of its own, where nothing counts as installed, and unpacks the packages into the folder.
# The system's own packages are not touched, and no root is needed. The launcher runs that Python
# through its own C library's loader. Testing only takes what installs together; should sid's
# python3-mcp come to need packages testing does not have yet, everything is taken from sid.
#
# The folder: $TOOLSETS_PYTHON_MCP_DIR, else ~/.cache/toolsets/python-mcp. About 25 MB to fetch,
# 100 MB unpacked; a few seconds here. Safe to run from several tests at once (one builds, the
# others wait for it).
set -euo pipefail
root="${TOOLSETS_PYTHON_MCP_DIR:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/toolsets/python-mcp}"
launcher="$root/bin/python"
ready() { [ -x "$launcher" ] && "$launcher" -c 'import mcp.server.fastmcp' > /dev/null 2>&1; }
if ready; then echo "$launcher"; exit 0; fi

case "$(uname -m)" in
  x86_64) arch=amd64 triplet=x86_64-linux-gnu loader=ld-linux-x86-64.so.2 ;;
  aarch64) arch=arm64 triplet=aarch64-linux-gnu loader=ld-linux-aarch64.so.1 ;;
  *) echo "ensure-python-mcp: no recipe for $(uname -m) (amd64 and arm64 only)" >&2; exit 1 ;;
esac
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || { echo "ensure-python-mcp: needs apt-get and Debian's archive keyring ($keyring)" >&2; exit 1; }

mkdir -p "$(dirname "$root")"
exec 9> "$root.lock"
flock 9
if ready; then echo "$launcher"; exit 0; fi

work=$(mktemp -d "$root.XXXXXX")
trap 'rm -rf "$work"' EXIT
state="$work/apt"
mkdir -p "$state/etc/preferences.d" "$state/etc/apt.conf.d" "$state/lists/partial" "$state/archives/partial"
: > "$state/status"
cat > "$state/etc/sources.list" << EOF
deb [signed-by=$keyring] http://deb.debian.org/debian testing main
deb [signed-by=$keyring] http://deb.debian.org/debian sid main
EOF
# testing first; sid only for what is named from it on the command line.
printf 'Package: *\nPin: release a=testing\nPin-Priority: 500\n\nPackage: *\nPin: release a=unstable\nPin-Priority: 100\n' > "$state/etc/preferences"
apt_get() {
  apt-get -q -o Debug::NoLocking=1 -o APT::Architecture="$arch" -o APT::Architectures="$arch" \
    -o APT::Sandbox::User="$(id -un)" -o Dir::State::status="$state/status" \
    -o Dir::State::Lists="$state/lists" -o Dir::Cache="$state/cache" -o Dir::Cache::Archives="$state/archives" \
    -o Dir::Etc="$state/etc" -o Dir::Etc::SourceList="$state/etc/sources.list" -o Dir::Etc::SourceParts="$state/etc/none" \
    -o Dir::Etc::Parts="$state/etc/apt.conf.d" -o Dir::Etc::Preferences="$state/etc/preferences" \
    -o Dir::Etc::PreferencesParts="$state/etc/preferences.d" "$@"
}
apt_get update > "$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; exit 1; }
wanted=(python3-mcp)
if ! apt_get install -y --no-install-recommends --download-only "${wanted[@]/%//sid}" >> "$work/apt.log" 2>&1; then
  rm -f "$state/archives/"*.deb
  apt_get install -y --no-install-recommends --download-only -t unstable "${wanted[@]}" >> "$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; exit 1; }
fi

prefix="$work/prefix"
mkdir -p "$prefix" "$work/bin"
for package in "$state/archives/"*.deb; do dpkg-deb -x "$package" "$prefix"; done
python=$(cd "$prefix/usr/bin" && ls python3.[0-9]* | grep -E '^python3\.[0-9]+$' | sort -V | tail -1)
cat > "$work/bin/python" << EOF
#!/bin/sh
# Debian's $python with the MCP SDK, run through the C library it was built against (ensure-python-mcp.sh).
here=\$(dirname "\$(dirname "\$(readlink -f "\$0")")")
lib="\$here/prefix/usr/lib/$triplet"
# Its modules are compiled once, by the first start that imports them, into this folder.
unset PYTHONDONTWRITEBYTECODE
PYTHONHOME="\$here/prefix/usr" PYTHONNOUSERSITE=1 exec "\$lib/$loader" --library-path "\$lib" "\$here/prefix/usr/bin/$python" "\$@"
EOF
chmod +x "$work/bin/python"
# Debian compiles modules when it installs them; here a first start of what an MCP server imports
# (over stdio and over HTTP) compiles them, so that no later start pays for it.
"$work/bin/python" -c 'import mcp.server.fastmcp, mcp.server.streamable_http_manager, uvicorn' > /dev/null 2>&1 || true
rm -rf "$state" "$root"
mv "$work" "$root"
trap - EXIT
ready || { echo "ensure-python-mcp: the Python in $root does not import mcp.server.fastmcp" >&2; exit 1; }
echo "$launcher"
