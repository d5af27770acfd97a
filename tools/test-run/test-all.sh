#!/usr/bin/env bash
# `npm test`: everything CI runs, in three lanes side by side once every build is done:
# - the timing-sensitive end-to-end suites (apps/e2e/test/timing: drain, rolling restart, stall and
#   memory bounds), at normal priority, so they get the CPU they need when they need it;
# - the long lane, started first because it decides when the run ends: the end-to-end suites, the
#   workspace copies, the adoption workspaces and the packed packages (with the packs they need),
#   and the workspace plugin's own tests;
# - one ESLint run over the whole tree (`npm run lint`: each file with the eslint.config.mjs nearest
#   to it, as each project's own lint target reads it), then every other project's typecheck, tests
#   and contract.
# The two Nx lanes run at low priority. All three must pass.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"

nx sync:check || exit 1
logs=$(mktemp -d "${TMPDIR:-/tmp}/toolsets-lanes-XXXXXX")
# The tests' scratch files (workspace copies, adoption workspaces, npm installs of packed packages,
# the packing clone) on a tmpfs where the machine has one with room, in a folder of this
# run's own, removed at the end (tools/test-run/scratch-dir.sh). Jest's transform cache stays where
# it was, so a warm one is kept between runs.
export TOOLSETS_JEST_CACHE_DIRECTORY="${TOOLSETS_JEST_CACHE_DIRECTORY:-${TMPDIR:-/tmp}/jest_$(id -u)}"
scratch=$(bash tools/test-run/scratch-dir.sh $$)
# No tmpfs with room: a folder of this run's own in TMPDIR all the same, so what the tests leave
# there (the packing clone, named after the checkout) goes with the run.
[ -n "$scratch" ] || scratch=$(mktemp -d "${TMPDIR:-/tmp}/toolsets-test-XXXXXX")
[ -n "$scratch" ] && export TMPDIR="$scratch"
trap 'rm -rf "$logs" ${scratch:+"$scratch"}' EXIT
# The Debian packages some tests run (nginx, Chromium, redis-server), installed while the builds run
# when missing, one after another, and waited for before any test starts: test files that each
# installed their own at once, side by side, failed on dpkg's lock (tools/test-run/apt-turn.sh).
bash tools/test-run/ensure-debian-packages.sh > "$logs/installs" 2>&1 &
installs_pid=$!
# Every build first: the lanes below then run none of their targets' dependencies
# (--exclude-task-dependencies). Nx restores a cached build by rewriting its dist folder, so a lane
# that ran builds would rewrite libs/core/dist under the timing suites' servers while they start
# (one clean run lost two drain tests to a module missing mid-restore).
nx run-many -t build --outputStyle=static || exit 1
wait "$installs_pid"
cat "$logs/installs"

# Named as Nx names the target, so its summary lands where CI's closing line reads it.
NX_TASK_TARGET_PROJECT=e2e NX_TASK_TARGET_TARGET=test-timing jest -c apps/e2e/jest.timing.config.cjs > "$logs/timing" 2>&1 &
timing_pid=$!

# Each Nx lane keeps its own workspace data (project graph, task database), so the two never wait on one lock.
# Two of the long lane's targets at a time, not three: each brings Jest workers and child processes
# of its own, and on 2 cores a dozen CPU-bound processes at once cost about 65 CPU-seconds more
# (measured on clean clones: 10 m 32 s at 3, 9 m 59 s at 2, docs/contributing.md).
long_projects=e2e,@toolsets/workspace-plugin
NX_WORKSPACE_DATA_DIRECTORY="${NX_WORKSPACE_DATA_DIRECTORY:-$PWD/.nx/workspace-data}-long" \
  nice -n 10 nx run-many -t test test-packages e2e-workspace e2e-adoption adoption-packs typecheck contract -p "$long_projects" \
  --exclude-task-dependencies --parallel=2 --outputStyle=static > "$logs/long" 2>&1 &
long_pid=$!

# One ESLint process instead of a lint target a project: 21 CPU-s where the 19 targets took 73
# (each started ESLint, TypeScript's parser and the plugins anew; docs/contributing.md).
nice -n 10 npm run -s lint
lint=$?
nice -n 10 nx run-many -t typecheck test contract --exclude="$long_projects" --exclude-task-dependencies --parallel=2 --outputStyle=static
rest=$?

wait "$long_pid"
long=$?
echo
echo "The long lane (${long_projects}, beside the rest):"
cat "$logs/long"
wait "$timing_pid"
timing=$?
echo
echo "e2e:test-timing (beside the rest):"
cat "$logs/timing"
[ "$lint" -eq 0 ] && [ "$rest" -eq 0 ] && [ "$long" -eq 0 ] && [ "$timing" -eq 0 ]
