import type { Server as NodeHttpServer } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { Logger } from '../../../server/logging/logger';
import type { ServingLimits } from '../../serving-limits';
import type { ConnectionTracker } from './connection-tracker';
import { cutMessage } from './cut-answers';
import type { RequestTracker } from './request-tracker';

/** What the drain reads of the listener's connections to pick the moment it closes. */
export type ListenerActivity = Pick<ConnectionTracker, 'size' | 'sinceLastArrival' | 'idleInBalancer'>;

/** The drain: readiness first, then stop accepting, answer what is in flight, let idle connections expire. */
export async function drain(
  http: NodeHttpServer,
  connections: ConnectionTracker,
  requests: RequestTracker,
  limits: ServingLimits,
  logger: Logger,
  endStreams: () => void,
): Promise<void> {
  requests.startDraining();
  connections.endGrace();
  if (limits.drainDelayMs > 0) await sleep(limits.drainDelayMs);
  // Session listeners (2025-era GET streams) never end by themselves: end them, not the calls in flight.
  endStreams();
  // net.Server's close stops accepting only; http.Server's would also cut idle keep-alive
  // connections at once, resetting requests that are already on their way over them.
  let stopped!: Promise<void>;
  const closeListener = () => {
    stopped = new Promise<void>((resolve) => NetServer.prototype.close.call(http, () => resolve()));
  };
  const half = { drainQuietMs: limits.drainQuietMs, drainTimeoutMs: Math.max(1, Math.floor(limits.drainTimeoutMs / 2)) };
  let moment = await atQuietMoment(connections, half, (outcome) => outcome !== 'never_quiet' && closeListener());
  if (moment === 'never_quiet') {
    // Load that never pauses (clients calling back to back on kept-alive connections, connections
    // still opening): every answer now closes its connection, so the load falls away, while the
    // listener keeps accepting (a connection queued at its close would be reset) until quiet.
    requests.closeConnections();
    moment = await atQuietMoment(connections, half, closeListener);
  }
  if (moment === 'never_quiet') logger.warn(`stopped accepting connections after DRAIN_TIMEOUT_MS although they kept arriving: some may have been reset`);
  if (moment === 'no_idle') logger.warn('stopped accepting connections without idle ones in the balancer: it may have had new connections on their way');
  // Only now: closing connections earlier makes a balancer open new ones, which the listener's
  // close would reset with their requests already sent.
  requests.closeConnections();
  // Nothing in front of this server holds its connections (DRAIN_QUIET_MS=0: the dev loop, a test):
  // each closes once idle instead of at its keep-alive time, which would hold the exit that long.
  if (limits.drainQuietMs === 0) connections.closeWhenIdle();
  const timeout = sleep(limits.drainTimeoutMs).then(() => 'timeout' as const);
  if ((await Promise.race([requests.whenIdle().then(() => connections.whenEmpty()), timeout])) === 'timeout') {
    // Answered, not just cut: a client whose request stream ends without an answer waits out its own timeout.
    const cut = await requests.answerEachCut(cutMessage(limits.drainTimeoutMs));
    if (cut > 0) logger.warn(`${cut} request(s) still running at DRAIN_TIMEOUT_MS (${limits.drainTimeoutMs} ms) were answered "Shutting down" (-32000) and stopped`);
  }
  http.closeAllConnections();
  await stopped;
}

/** How the wait for a quiet moment ended: found, quiet without idle connections in the balancer, or never quiet. */
export type QuietMoment = 'found' | 'no_idle' | 'never_quiet';

/** How long the drain waits, once quiet, for a moment when the balancer holds idle connections to this replica. */
const IDLE_MOMENT_WAIT_MS = 2_000;
/** Idle connections that make a new one unlikely in the next moment (one may be taking a request already). */
const IDLE_CONNECTIONS_WANTED = 2;
/** How long ago a connection's last answer must have ended for the balancer to hold it idle (it may lag behind under load). */
const ANSWER_SETTLED_MS = 25;
/** The longest poll phase after which the listener may close: connections the kernel queued during it are not yet accepted. */
const QUICK_POLL_MS = 1;

/**
 * Runs `close` at a moment when no connection can be on its way: closing a listener resets the
 * connections the kernel has established but the server has not yet accepted, with their requests
 * already sent, and neither a client nor a balancer can retry those POSTs. So it waits until
 * - no connection has arrived for `drainQuietMs` (at most `drainTimeoutMs`): a burst has ended;
 * - the balancer holds idle connections to this replica (at most IDLE_MOMENT_WAIT_MS once quiet):
 *   it opens a new connection only when it has no idle one;
 * - the check phase right after a quick poll phase: what the kernel queued before it was accepted
 *   in it (libuv accepts the whole queue), and little time was left for more.
 * With `drainQuietMs` 0 (nothing in front of the server) only the last applies.
 * Says which condition it gave up on, if any; `close` is told too, and runs in that same phase.
 */
export async function atQuietMoment(
  connections: ListenerActivity,
  limits: Pick<ServingLimits, 'drainQuietMs' | 'drainTimeoutMs'>,
  close: (outcome: QuietMoment) => void,
): Promise<QuietMoment> {
  const started = Date.now();
  let quietSince: number | undefined;
  for (;;) {
    // Timers phase (the sleep below), then a poll phase, then the check phase.
    const beforePoll = performance.now();
    await new Promise<void>((resolve) => setImmediate(resolve));
    const now = Date.now();
    const quickPoll = performance.now() - beforePoll <= QUICK_POLL_MS;
    const quiet = connections.sinceLastArrival() >= limits.drainQuietMs;
    quietSince = quiet ? (quietSince ?? now) : undefined;
    const idle = connections.idleInBalancer(ANSWER_SETTLED_MS) >= Math.min(IDLE_CONNECTIONS_WANTED, connections.size);
    let outcome: QuietMoment | undefined;
    // A quiet period of 0 says no balancer is in front to wait for (the dev loop, a test): close at once.
    if (quickPoll && quiet) outcome = idle || limits.drainQuietMs === 0 ? 'found' : now - quietSince! >= IDLE_MOMENT_WAIT_MS ? 'no_idle' : undefined;
    if (!outcome && now - started >= limits.drainTimeoutMs) outcome = 'never_quiet';
    if (outcome) {
      close(outcome);
      return outcome;
    }
    await sleep(2);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
