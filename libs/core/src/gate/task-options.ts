import { TaskOptionError } from '../errors/task-option.error';
import type { ViolationSite } from '../errors/contract-violation';
import { describeEntry } from '../helpers/describe-value';
import { DEFAULT_TASK_POLL_INTERVAL_MS, DEFAULT_TASK_TTL_MS, MAX_TASK_TTL_MS, type CompiledTaskOptions } from '../metadata/tool-task';

const KNOWN = new Set(['support', 'ttlMs', 'pollIntervalMs', 'idempotent', 'askFirst', 'inlineMs']);

/** `@Tool({ task })` checked, with its defaults; a violation when it cannot run as declared. */
export function compileTaskOptions(site: ViolationSite, task: unknown): CompiledTaskOptions | TaskOptionError {
  const options = typeof task === 'string' ? { support: task } : task;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    return new TaskOptionError(site, `is ${describeEntry(task)}`, "set `task: 'optional'` (a task for clients that support tasks, a blocking result for the others), `task: 'required'`, or `task: { support, ttlMs, pollIntervalMs, idempotent }`.");
  }
  const { support, ttlMs, pollIntervalMs, idempotent } = options as Record<string, unknown>;
  if (support !== 'optional' && support !== 'required') {
    return new TaskOptionError(site, `has support ${describeEntry(support)}`, "set `support: 'optional'` or `support: 'required'` (leave `task` out for a tool that never runs as a task).");
  }
  if (ttlMs !== undefined && !isWhole(ttlMs, 1000, MAX_TASK_TTL_MS)) {
    return new TaskOptionError(site, `has ttlMs ${describeEntry(ttlMs)}`, `give a whole number of milliseconds from 1,000 to ${MAX_TASK_TTL_MS.toLocaleString('en-US')} (thirty days): how long the task and its result are kept.`);
  }
  if (pollIntervalMs !== undefined && !isWhole(pollIntervalMs, 10, 3_600_000)) {
    return new TaskOptionError(site, `has pollIntervalMs ${describeEntry(pollIntervalMs)}`, 'give a whole number of milliseconds from 10 to 3,600,000: how often clients should poll tasks/get.');
  }
  const ttl = (ttlMs as number | undefined) ?? DEFAULT_TASK_TTL_MS;
  const poll = (pollIntervalMs as number | undefined) ?? DEFAULT_TASK_POLL_INTERVAL_MS;
  const problem = laterProblem(site, options as Record<string, unknown>, ttl, poll);
  if (problem) return problem;
  const inlineMs = (options as Record<string, unknown>)['inlineMs'];
  return { support, ttlMs: ttl, pollIntervalMs: poll, idempotent: idempotent === true, askFirst: (options as Record<string, unknown>)['askFirst'] === true, inlineMs: (inlineMs as number | undefined) ?? 0 };
}

/** What is wrong once each number is in range: the two together, `idempotent`, unknown keys. */
function laterProblem(site: ViolationSite, options: Record<string, unknown>, ttl: number, poll: number): TaskOptionError | undefined {
  if (poll >= ttl) {
    return new TaskOptionError(site, `polls every ${poll} ms but keeps the task only ${ttl} ms`, 'make pollIntervalMs smaller than ttlMs, or the task expires before the client polls it.');
  }
  if (options.inlineMs !== undefined && !isWhole(options.inlineMs, 0, 10_000)) {
    return new TaskOptionError(site, `has inlineMs ${describeEntry(options.inlineMs)}`, 'give a whole number of milliseconds from 0 to 10,000: how long a call may wait for its task to finish and answer with the result itself.');
  }
  if (poll <= (typeof options.inlineMs === 'number' ? options.inlineMs : 0)) {
    return new TaskOptionError(site, `waits ${String(options.inlineMs)} ms for an inline answer but polls every ${poll} ms`, 'make inlineMs shorter than pollIntervalMs: past a poll interval a task answers the client as soon as polling would.');
  }
  if (options.askFirst !== undefined && typeof options.askFirst !== 'boolean') {
    return new TaskOptionError(site, `has askFirst ${describeEntry(options.askFirst)}`, 'set `askFirst: true` when the tool asks its questions before it becomes a task (it calls `task.start()` once it has its answers), or leave it out.');
  }
  if (options.idempotent !== undefined && typeof options.idempotent !== 'boolean') {
    return new TaskOptionError(site, `has idempotent ${describeEntry(options.idempotent)}`, 'set `idempotent: true` when running the tool twice does no harm (it may then run again if its worker dies), or leave it out.');
  }
  const unknown = Object.keys(options).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) {
    return new TaskOptionError(site, `has ${unknown.map((key) => `'${key}'`).join(', ')}, which it does not know`, 'use only support, ttlMs, pollIntervalMs, idempotent, askFirst and inlineMs.');
  }
  return undefined;
}

function isWhole(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}
