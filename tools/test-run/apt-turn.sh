# Sourced by tools/*/ensure-*.sh before they install a Debian package: waits for this machine's
# other installers, then sets APT_GET. Test files run side by side, and two that each found their
# tool missing ran apt-get at once: the second failed on dpkg's lock ("Could not get lock
# /var/lib/dpkg/lock-frontend. It is held by process … (apt-get)"), and its tests with it. Here
# they take turns on one lock file, held until the sourcing script exits, and apt-get waits up to
# 10 minutes for any other holder of dpkg's lock (an unattended upgrade). A script re-checks for
# its tool after its turn comes: the installer before it may have installed it.
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
# One fixed path whatever TMPDIR a test sets; opened for reading, so a lock file another user made works too.
lock=/tmp/toolsets-apt.lock
[ -e "$lock" ] || { : > "$lock" && chmod 666 "$lock"; } 2>/dev/null || true
exec 9<"$lock"
flock 9
APT_GET="$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600"
