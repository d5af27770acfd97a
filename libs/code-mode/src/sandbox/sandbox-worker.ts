import { parentPort } from 'node:worker_threads';
import { ProgramChecker } from '../typecheck/program-checker';
import { QuickJsRunner } from './quickjs-runner';
import type { SandboxLimits } from './sandbox-limits';
import { CALLER_GONE, limitFailure, type InnerCallAnswer, type SandboxFailure, type SandboxOutcome } from './sandbox-outcome';
import type { FromWorker, ProgramCheck, ToWorker } from './sandbox-messages';

/**
 * A sandbox worker thread: type-checks one program at a time, then runs it in QuickJS, its inner
 * calls sent to the server thread as messages and answered the same way. It holds nothing of the
 * server: no credentials, no toolsets, no sockets, only the program, the declarations, the tool
 * names and the answers.
 */
const port = parentPort!;
const runner = new QuickJsRunner();
const waiting = new Map<number, (answer: InnerCallAnswer) => void>();
let nextCall = 0;
const send = (message: FromWorker) => port.postMessage(message);
/** The run in progress and how to cancel it (a worker runs one program at a time). */
let current: { runId: number; cancel: AbortController } | undefined;

/** Checkers by declarations digest, the most recently used last; a few views' worth, each holding its parsed declarations. */
const checkers = new Map<string, ProgramChecker>();
const KEPT_CHECKERS = 4;

/**
 * The checker for these declarations; a new one checks a program of nothing first, so it has parsed
 * and checked the declarations (once, the server's cost) before any program's check is timed.
 */
function checkerFor(check: ProgramCheck): ProgramChecker {
  let checker = checkers.get(check.key);
  if (checker) checkers.delete(check.key);
  else {
    checker = new ProgramChecker(check.declarations);
    checker.check('return 0;');
  }
  checkers.set(check.key, checker);
  if (checkers.size > KEPT_CHECKERS) checkers.delete(checkers.keys().next().value!);
  return checker;
}

/** The program as the interpreter runs it, or the outcome that ends it at the type check; the check's time comes off the wall limit. */
function checked(program: string, check: ProgramCheck | undefined, checker: ProgramChecker | undefined, limits: SandboxLimits): { program: string; limits: SandboxLimits } | SandboxOutcome {
  if (!check || !checker) return { program, limits };
  const ended = (failure: SandboxFailure, wallMs = 0): SandboxOutcome => ({ ok: false, failure, logs: [], logsTruncated: false, calls: 0, cpuMs: 0, wallMs });
  const bytes = Buffer.byteLength(program);
  if (bytes > limits.programBytes) return ended(limitFailure('programBytes', `is ${bytes} bytes, over ${limits.programBytes}`));
  const started = performance.now();
  const result = checker.check(program);
  const spent = Math.round(performance.now() - started);
  if (!result.ok) return ended({ kind: 'typecheck', problems: result.problems }, spent);
  // The source was held to programBytes above; what runs adds the prelude (a search program's catalog) to its output.
  return { program: (check.prelude ?? '') + result.javascript, limits: { ...limits, wallMs: Math.max(1, limits.wallMs - spent), programBytes: Number.MAX_SAFE_INTEGER } };
}

port.on('message', (message: ToWorker) => void receive(message));

async function receive(message: ToWorker): Promise<void> {
  if (message.type === 'answer') {
    waiting.get(message.callId)?.(message.answer);
    waiting.delete(message.callId);
    return;
  }
  if (message.type === 'cancel') {
    if (current?.runId === message.runId) current.cancel.abort();
    return;
  }
  const { runId, namespaces } = message;
  const cancel = new AbortController();
  current = { runId, cancel };
  const checker = message.check && checkerFor(message.check);
  send({ type: 'checking', runId });
  const ready = checked(message.program, message.check, checker, message.limits);
  if ('ok' in ready) return finish(runId, ready);
  await runner.warm();
  if (cancel.signal.aborted) return finish(runId, { ok: false, failure: CALLER_GONE, logs: [], logsTruncated: false, calls: 0, cpuMs: 0, wallMs: 0 });
  send({ type: 'running', runId });
  const host = {
    namespaces,
    call: (namespace: string, tool: string, args: unknown) =>
      new Promise<InnerCallAnswer>((resolve) => {
        const callId = ++nextCall;
        waiting.set(callId, resolve);
        send({ type: 'call', runId, callId, namespace, tool, argsJson: JSON.stringify(args) });
      }),
  };
  finish(runId, await runner.run(ready.program, host, ready.limits, cancel.signal));
}

function finish(runId: number, outcome: SandboxOutcome): void {
  if (current?.runId === runId) current = undefined;
  send(outcome.ok ? { type: 'outcome', runId, outcome: { ...outcome, value: null }, valueJson: JSON.stringify(outcome.value) } : { type: 'outcome', runId, outcome });
}

// Ready once the interpreter's module is loaded and TypeScript has parsed its standard library (a
// check against nothing): no run's clock counts either, and each check costs its own text.
new ProgramChecker('').check('return 0;');
void runner.warm().then(() => send({ type: 'ready' }));
