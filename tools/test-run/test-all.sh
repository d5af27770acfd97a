#!/usr/bin/env bash
# `npm test`: everything CI runs, in four lanes side by side once every build is done:
# - the timing-sensitive end-to-end suites (apps/e2e/test/timing: drain, rolling restart, stall and
#   memory bounds), at normal priority, so they get the CPU they need when they need it;
# - the long suites: e2e's and code mode's targets, one at a time;
# - the workspace copies, the adoption workspaces and the packed packages (with the packs they need), one at a time;
# - every other project's lint, typecheck, tests and contract, two at a time.
# The Nx lanes run at low priority. All four must pass.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"

nx sync:check || exit 1
# Every build first: the lanes below then run none of their targets' dependencies
# (--exclude-task-dependencies). Nx restores a cached build by rewriting its dist folder, so a lane
# that ran builds would rewrite libs/core/dist under the timing suites' servers while they start
# (one clean run lost two drain tests to a module missing mid-restore).
nx run-many -t build --outputStyle=static || exit 1

logs=$(mktemp -d "${TMPDIR:-/tmp}/toolsets-lanes-XXXXXX")
trap 'rm -rf "$logs"' EXIT
# Named as Nx names the target, so its summary lands where CI's closing line reads it.
NX_TASK_TARGET_PROJECT=e2e NX_TASK_TARGET_TARGET=test-timing jest -c apps/e2e/jest.timing.config.cjs > "$logs/timing" 2>&1 &
timing_pid=$!

# Each Nx lane keeps its own workspace data (project graph, task database), so none waits on another's lock.
# The long work in two lanes of one target at a time, beside the rest at two: e2e's suites with code
# mode's (the two longest Jest projects of their own), and the plugin's workspace copies, adoptions and
# packed packages (with the packs they need). Four CPU-bound targets at once, as with one long lane at
# two, but the three lanes end together instead of the long one running alone for its last minutes
# (measured on clean clones: docs/contributing.md).
long_suites=e2e,@toolsets/code-mode
data="${NX_WORKSPACE_DATA_DIRECTORY:-$PWD/.nx/workspace-data}"
NX_WORKSPACE_DATA_DIRECTORY="$data-suites" \
  nice -n 10 nx run-many -t test lint typecheck contract -p "$long_suites" \
  --exclude-task-dependencies --parallel=1 --outputStyle=static > "$logs/suites" 2>&1 &
suites_pid=$!
NX_WORKSPACE_DATA_DIRECTORY="$data-copies" \
  nice -n 10 nx run-many -t adoption-packs test-packages e2e-workspace e2e-adoption -p e2e,@toolsets/workspace-plugin \
  --exclude-task-dependencies --parallel=1 --outputStyle=static > "$logs/copies" 2>&1 &
copies_pid=$!

nice -n 10 nx run-many -t lint typecheck test contract --exclude="$long_suites" --exclude-task-dependencies --parallel=2 --outputStyle=static
rest=$?

wait "$suites_pid"
suites=$?
wait "$copies_pid"
copies=$?
echo
echo "The long suites (${long_suites}, beside the rest):"
cat "$logs/suites"
echo
echo "The workspace copies, adoptions and packed packages (beside the rest):"
cat "$logs/copies"
wait "$timing_pid"
timing=$?
echo
echo "e2e:test-timing (beside the rest):"
cat "$logs/timing"
[ "$rest" -eq 0 ] && [ "$suites" -eq 0 ] && [ "$copies" -eq 0 ] && [ "$timing" -eq 0 ]
