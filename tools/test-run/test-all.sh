#!/usr/bin/env bash
# `npm test`: everything CI runs. The timing-sensitive end-to-end suites (apps/e2e/test/timing:
# drain, rolling restart, stall and memory bounds) run beside the one Nx run-many of every other
# target, which runs at low priority so those suites get the CPU they need when they need it; they
# used to run after it, alone, with one core idle most of that time. The apps they start are built
# first. Both must pass.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"

nx sync:check || exit 1
# Every build (and the packed packages) first: the run-many below then runs none of its targets'
# dependencies (--exclude-task-dependencies). Nx restores a cached build by rewriting its dist
# folder, so a run-many that ran builds would rewrite libs/core/dist under the timing suites'
# servers while they start (one clean run lost two drain tests to a module missing mid-restore).
nx run-many -t build adoption-packs --outputStyle=static || exit 1

timing_log=$(mktemp "${TMPDIR:-/tmp}/toolsets-timing-XXXXXX")
trap 'rm -f "$timing_log"' EXIT
# Named as Nx names the target, so its summary lands where CI's closing line reads it.
NX_TASK_TARGET_PROJECT=e2e NX_TASK_TARGET_TARGET=test-timing jest -c apps/e2e/jest.timing.config.cjs > "$timing_log" 2>&1 &
timing_pid=$!

nice -n 10 nx run-many -t lint typecheck test test-packages e2e-workspace e2e-adoption contract --exclude-task-dependencies --parallel=4 --outputStyle=static
run_many=$?

wait "$timing_pid"
timing=$?
echo
echo "e2e:test-timing (beside the run-many):"
cat "$timing_log"
[ "$run_many" -eq 0 ] && [ "$timing" -eq 0 ]
