#!/usr/bin/env bash
# Prints a new folder for `npm test`'s scratch files on a tmpfs (/dev/shm) when the machine has one
# with room to spare, or nothing (the tests then use TMPDIR as it is). The tests write and delete
# tens of thousands of files there (workspace copies, create-nx-workspace workspaces, npm installs of
# the packed packages, a fresh clone), and on this 2-core machine's ext4 disk the kernel's share of
# that work was both larger and erratic: system CPU of the adoption lane alone, alternating, two runs
# each, 32 and 61 CPU-s on /tmp against 28 and 26 on /dev/shm; of the workspace-copy lane 30 and 39
# against 27 and 29 (docs/contributing.md). A whole run kept 1.4 GiB there at most (`du` every 5 s).
# TOOLSETS_TEST_TMPFS=off keeps everything in TMPDIR; TOOLSETS_TEST_TMPFS=<dir> names another tmpfs.
# Usage: scratch-dir.sh <pid of the run>. The caller removes the folder when the run ends; a run
# killed before it could (SIGKILL, a lost session) leaves it behind, and a tmpfs holds it in memory
# until the machine restarts, so each new run first removes the folders whose run is gone.
set -uo pipefail
owner="${1:?usage: scratch-dir.sh <pid of the run the folder is for>}"
choice="${TOOLSETS_TEST_TMPFS:-/dev/shm}"
[ "$choice" = "off" ] && exit 0
# Room: about three times the most a run kept there.
need_kib=$((4 * 1024 * 1024))
[ -d "$choice" ] && [ -w "$choice" ] || exit 0
[ "$(stat -f -c %T "$choice" 2>/dev/null)" = "tmpfs" ] || exit 0
free_kib=$(df -Pk "$choice" | awk 'NR == 2 { print $4 }')
[ -n "$free_kib" ] && [ "$free_kib" -ge "$need_kib" ] || exit 0
# Memory to back it: a tmpfs's pages are the machine's memory.
available_kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
[ -n "$available_kib" ] && [ "$available_kib" -ge $((need_kib * 2)) ] || exit 0
for left in "$choice"/toolsets-test-*; do
  [ -d "$left" ] || continue
  run=$(cat "$left/.run-pid" 2>/dev/null)
  if [ -n "$run" ]; then
    [ -d "/proc/$run" ] && continue
  else
    # No run recorded: one being made this moment, or older than this script. Only an hour on.
    [ -n "$(find "$left" -maxdepth 0 -mmin +60)" ] || continue
  fi
  rm -rf "$left"
done
dir=$(mktemp -d "$choice/toolsets-test-XXXXXX") || exit 0
echo "$owner" > "$dir/.run-pid"
echo "$dir"
