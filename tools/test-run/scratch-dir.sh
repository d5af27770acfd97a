#!/usr/bin/env bash
# Prints a new folder for `npm test`'s scratch files on a tmpfs (/dev/shm) when the machine has one
# with room to spare, or nothing (the tests then use TMPDIR as it is). The tests write tens of
# thousands of files there and delete them again (workspace copies, create-nx-workspace workspaces,
# npm installs of the packed packages, a fresh clone); on the ext4 disk of a 2-core CI machine that
# cost several times the kernel CPU it costs in memory: an adoption workspace's `npm install` of the
# packed packages, five runs each side by side, 9–11 system CPU-s on /tmp, 3.2–3.5 on /dev/shm
# (docs/contributing.md). A run keeps about 2 GiB there at most (measured with `du` through a run);
# TOOLSETS_TEST_TMPFS=off keeps everything in TMPDIR, and TOOLSETS_TEST_TMPFS=<dir> names another
# tmpfs. The caller removes the folder when the run ends.
set -uo pipefail
choice="${TOOLSETS_TEST_TMPFS:-/dev/shm}"
[ "$choice" = "off" ] && exit 0
# Room: the run's most plus a margin, and never more than a quarter of what the tmpfs has free.
need_kib=$((8 * 1024 * 1024))
[ -d "$choice" ] && [ -w "$choice" ] || exit 0
[ "$(stat -f -c %T "$choice" 2>/dev/null)" = "tmpfs" ] || exit 0
free_kib=$(df -Pk "$choice" | awk 'NR == 2 { print $4 }')
[ -n "$free_kib" ] && [ "$free_kib" -ge "$need_kib" ] || exit 0
# Memory to back it: a tmpfs's pages are the machine's memory.
available_kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
[ -n "$available_kib" ] && [ "$available_kib" -ge $((need_kib * 2)) ] || exit 0
mktemp -d "$choice/toolsets-test-XXXXXX"
