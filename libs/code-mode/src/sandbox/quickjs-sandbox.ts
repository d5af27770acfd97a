import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { DEFAULT_LIMITS, type SandboxLimits } from './sandbox-limits';
import type { FromWorker, ToWorker } from './sandbox-messages';
import { CALLER_GONE, limitFailure, type RunFailure, type SandboxFailure, type SandboxHost, type SandboxOutcome } from './sandbox-outcome';
import type { RunOptions, Sandbox } from './sandbox';

export interface SandboxOptions {
  /** Worker threads running programs, each one program at a time; default 2 (`CODE_MODE_WORKERS`). */
  workers?: number;
  /** Programs waiting for a worker at once; one more is answered `busy` (`CODE_MODE_QUEUE`, default 16). */
  queue?: number;
  /** Programs one caller may have running or waiting at once; one more is answered `busy` (`CODE_MODE_PER_CALLER`, default 2). */
  perCaller?: number;
  /** Limits for every program, under each run's own. */
  limits?: Partial<SandboxLimits>;
  /**
   * A worker that has run no program for this long is stopped, and its memory (its interpreter,
   * its type checker's standard library and catalogs: 100–200 MB) goes back to the system; the
   * next program starts another (`CODE_MODE_WORKER_IDLE_MS`, default 5 minutes).
   */
  idleMs?: number;
}

/** How long a worker may sit without a program before it is stopped, unless `idleMs` says otherwise. */
const DEFAULT_IDLE_MS = 5 * 60_000;

/** A worker thread and the run it is busy with. */
interface Slot {
  worker: Worker;
  ready: Promise<void>;
  /** Taken by a run from the moment it is chosen (before its worker is ready), until its outcome. */
  busy: boolean;
  run?: ActiveRun;
  /** Armed while the worker is free: it stops the worker once it has been free for `idleMs`. */
  idle?: NodeJS.Timeout;
}

interface ActiveRun {
  runId: number;
  host: SandboxHost;
  limits: SandboxLimits;
  resolve: (outcome: SandboxOutcome) => void;
  calls: AbortController;
  started: number;
  /** When its caller went away (performance.now()), if it did: it is stopped by force if it has not ended FORCE_GRACE_MS later. */
  cancelledAt?: number;
  /** Before its own type check: its worker readies the declarations' checker (bounded by wallMs alone); `started` is reset when its check begins. */
  preparing: boolean;
  /** Not yet running: in its type check (bounded by checkMs and the worker's heap) or loading the interpreter; its CPU time counts from the run. */
  checking: boolean;
  elu: EventLoopUtilization;
  watchdog: NodeJS.Timeout;
}

/** What a `busy` answer tells the caller to wait before it tries again. */
const BUSY_RETRY_MS = 2_000;
/** How a program ends that the server stops, or never starts, because it is shutting down. */
const SHUTTING_DOWN: RunFailure = { kind: 'stopped', message: 'The program was stopped: the server is shutting down. Run it again in a moment.' };
/** How much longer than cpuMs a worker may stay busy before it is stopped by force: the interpreter's own check comes first whenever it can. */
const FORCE_GRACE_MS = 250;
const WATCH_EVERY_MS = 25;

/**
 * Runs programs in QuickJS (WebAssembly, its own heap) on worker threads: the server's thread only
 * passes messages, so a program that stalls its interpreter stalls one worker, never the server.
 * The interpreter ends a program past any limit itself; a worker still busy `FORCE_GRACE_MS` past
 * the CPU limit (a program computing inside one native operation, where the interpreter does not
 * check), or past the wall limit, is terminated and replaced, and that program ends with the limit.
 */
export class QuickJsSandbox implements Sandbox {
  private readonly slots: Slot[] = [];
  /** Programs waiting for a worker, each with its caller: woken round-robin by caller (see wakeNext). */
  private readonly queue: { wake: () => void; caller: string | undefined }[] = [];
  /** When each caller with programs running or waiting last got a worker (a count of runs started): who waits longest goes next. */
  private readonly servedAt = new Map<string, number>();
  private runsStarted = 0;
  /** Programs running or waiting, by caller. */
  private readonly byCaller = new Map<string, number>();
  private nextRun = 0;
  private closed = false;

  constructor(private readonly options: SandboxOptions = {}) {}

  /** Worker threads alive now: started on demand, stopped when idle (`idleMs`) or past a limit. */
  get workerCount(): number {
    return this.slots.length;
  }

  async run(program: string, host: SandboxHost, limits: Partial<SandboxLimits> = {}, options: RunOptions = {}): Promise<SandboxOutcome> {
    if (this.closed) return notRun(SHUTTING_DOWN);
    const caller = options.caller;
    if (caller !== undefined && (this.byCaller.get(caller) ?? 0) >= this.perCaller) {
      return notRun({ kind: 'busy', retryAfterMs: BUSY_RETRY_MS, message: `This caller already has ${this.perCaller} program(s) running or waiting (CODE_MODE_PER_CALLER): run this one when one of them has ended.` });
    }
    if (caller !== undefined) this.byCaller.set(caller, (this.byCaller.get(caller) ?? 0) + 1);
    try {
      return await this.runFor(program, host, { ...DEFAULT_LIMITS, ...this.options.limits, ...limits }, options);
    } finally {
      if (caller !== undefined) {
        const left = this.byCaller.get(caller)! - 1;
        if (left === 0) {
          this.byCaller.delete(caller);
          this.servedAt.delete(caller);
        }
        else this.byCaller.set(caller, left);
      }
    }
  }

  private async runFor(program: string, host: SandboxHost, limits: SandboxLimits, { check, signal, caller }: RunOptions): Promise<SandboxOutcome> {
    const queued = performance.now();
    if (!this.hasFreeSlot() && this.queue.length >= this.queueBound) {
      return notRun({ kind: 'busy', retryAfterMs: BUSY_RETRY_MS, message: `${this.queue.length} programs are already waiting for a worker (CODE_MODE_QUEUE): retry in a few seconds.` });
    }
    // Time spent waiting for a worker counts against the wall limit: past it the program is answered without running.
    const waitedTooLong = AbortSignal.timeout(limits.wallMs);
    const slot = await this.freeSlot(signal ? AbortSignal.any([signal, waitedTooLong]) : waitedTooLong, caller);
    if (!slot) return notRun(this.closed ? SHUTTING_DOWN : signal?.aborted ? CALLER_GONE : limitFailure('wallMs', `waited ${limits.wallMs} ms for a worker without starting`));
    const bounds: SandboxLimits = { ...limits, wallMs: Math.max(1, Math.round(limits.wallMs - (performance.now() - queued))) };
    await slot.ready;
    if (this.closed) return notRun(SHUTTING_DOWN);
    if (signal?.aborted) {
      this.release(slot);
      return notRun(CALLER_GONE);
    }
    return new Promise<SandboxOutcome>((resolve) => {
      const runId = ++this.nextRun;
      const run: ActiveRun = {
        runId,
        host,
        limits: bounds,
        resolve: (outcome) => {
          clearInterval(run.watchdog);
          run.calls.abort();
          slot.run = undefined;
          this.freed(slot);
          resolve(outcome);
          this.wakeNext();
        },
        calls: new AbortController(),
        started: performance.now(),
        preparing: true,
        checking: true,
        elu: slot.worker.performance.eventLoopUtilization(),
        watchdog: setInterval(() => this.watch(slot, run), WATCH_EVERY_MS),
      };
      slot.run = run;
      this.post(slot, { type: 'run', runId, program, namespaces: { ...host.namespaces }, limits: bounds, ...(check && { check }) });
      signal?.addEventListener('abort', () => this.cancel(slot, run), { once: true });
    });
  }

  /** The run's caller went away: its inner calls abort, none starts again, and the worker ends the program (or is stopped, past the grace). */
  private cancel(slot: Slot, run: ActiveRun): void {
    if (slot.run !== run || run.cancelledAt !== undefined) return;
    run.cancelledAt = performance.now();
    run.calls.abort();
    this.post(slot, { type: 'cancel', runId: run.runId });
  }

  /** Marks the slot free, and arms its idle stop: a worker free for `idleMs` is stopped and its memory given back. */
  private freed(slot: Slot): void {
    slot.busy = false;
    clearTimeout(slot.idle);
    slot.idle = setTimeout(() => {
      if (slot.busy || !this.slots.includes(slot)) return;
      this.slots.splice(this.slots.indexOf(slot), 1);
      slot.worker.removeAllListeners('exit');
      void slot.worker.terminate();
    }, this.options.idleMs ?? DEFAULT_IDLE_MS).unref();
  }

  /** Frees a slot taken for a run that never started, and lets the next waiting run have it. */
  private release(slot: Slot): void {
    this.freed(slot);
    this.wakeNext();
  }

  /**
   * Takes no more programs (those waiting for a worker are refused at once), gives the running
   * ones up to `graceMs` to end, then stops every worker: a program still running ends `stopped`.
   */
  async close(graceMs = 0): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.splice(0)) waiting.wake();
    const deadline = performance.now() + graceMs;
    while (this.slots.some((slot) => slot.busy) && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(WATCH_EVERY_MS, deadline - performance.now())));
    }
    await Promise.all(this.slots.splice(0).map((slot) => this.stopSlot(slot, SHUTTING_DOWN)));
  }

  /**
   * Wakes one waiting program for the worker just freed: the one whose caller got a worker least
   * recently (a caller with none yet first), the earliest among equals. One caller's queued
   * programs then take turns with everyone else's instead of going first because they came first.
   */
  private wakeNext(): void {
    if (this.queue.length === 0) return;
    let next = 0;
    let oldest = Infinity;
    this.queue.forEach((waiting, index) => {
      const served = waiting.caller === undefined ? -1 : (this.servedAt.get(waiting.caller) ?? -1);
      if (served < oldest) [next, oldest] = [index, served];
    });
    this.queue.splice(next, 1)[0]!.wake();
  }

  /** A worker for the next run, once one is free; undefined if `signal` aborts first (the caller went away while it waited) or the sandbox closes. */
  private async freeSlot(signal?: AbortSignal, caller?: string): Promise<Slot | undefined> {
    for (;;) {
      if (this.closed || signal?.aborted) return undefined;
      const slot = this.slots.find((candidate) => !candidate.busy) ?? (this.slots.length < this.capacity() ? this.startSlot() : undefined);
      if (slot) {
        slot.busy = true;
        clearTimeout(slot.idle);
        if (caller !== undefined) this.servedAt.set(caller, ++this.runsStarted);
        return slot;
      }
      await new Promise<void>((resume) => {
        const onAbort = () => {
          const index = this.queue.indexOf(waiting);
          if (index >= 0) this.queue.splice(index, 1);
          resume();
        };
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resume();
        };
        const waiting = { wake, caller };
        this.queue.push(waiting);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
  }

  private capacity(): number {
    return this.options.workers ?? 2;
  }

  private get queueBound(): number {
    return this.options.queue ?? 16;
  }

  private get perCaller(): number {
    return this.options.perCaller ?? 2;
  }

  private hasFreeSlot(): boolean {
    return this.slots.some((slot) => !slot.busy) || this.slots.length < this.capacity();
  }

  private startSlot(): Slot {
    const heapMb = Math.max(64, Math.floor((this.options.limits?.checkMemoryBytes ?? DEFAULT_LIMITS.checkMemoryBytes) / (1024 * 1024)));
    const worker = new Worker(workerScript(), { resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16 } });
    worker.unref();
    let ready!: () => void;
    const slot: Slot = { worker, busy: false, ready: new Promise<void>((resolve) => (ready = resolve)) };
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'ready') return ready();
      const run = slot.run;
      if (!run || message.runId !== run.runId) return;
      if (message.type === 'checking') {
        run.preparing = false;
        run.started = performance.now();
        return;
      }
      if (message.type === 'running') {
        run.checking = false;
        run.elu = slot.worker.performance.eventLoopUtilization();
        return;
      }
      if (message.type === 'outcome') return run.resolve(message.outcome.ok && message.valueJson !== undefined ? { ...message.outcome, value: JSON.parse(message.valueJson) as unknown } : message.outcome);
      // A program whose caller went away makes no further call, whatever its worker is still doing.
      if (run.cancelledAt !== undefined) return this.post(slot, { type: 'answer', callId: message.callId, answer: { error: { name: 'Stopped', message: CALLER_GONE.message } } });
      void run.host.call(message.namespace, message.tool, JSON.parse(message.argsJson) as unknown, run.calls.signal).then(
        (answer) => slot.run === run && this.post(slot, { type: 'answer', callId: message.callId, answer }),
        () => slot.run === run && this.post(slot, { type: 'answer', callId: message.callId, answer: { error: { name: 'InternalError', message: 'The inner call failed on the server.' } } }),
      );
    });
    worker.on('error', () =>
      slot.run?.checking
        ? void this.replace(slot, 'checkMemoryBytes', 'took more memory to type-check than a worker has, and was stopped')
        : void this.replace(slot, 'memoryBytes', 'stopped its worker (it ran out of the memory a worker has)'),
    );
    worker.on('exit', () => void this.replace(slot, 'memoryBytes', 'stopped its worker'));
    this.slots.push(slot);
    return slot;
  }

  /** Ends the slot's run with `limit` if its worker is still busy past the limit's force point. */
  private watch(slot: Slot, run: ActiveRun): void {
    if (slot.run !== run) return;
    if (run.cancelledAt !== undefined && performance.now() - run.cancelledAt > FORCE_GRACE_MS) return void this.stopSlot(slot, CALLER_GONE);
    if (run.preparing) {
      if (performance.now() - run.started > run.limits.wallMs + FORCE_GRACE_MS) {
        void this.stopSlot(slot, limitFailure('wallMs', `did not start within ${run.limits.wallMs} ms (its worker was still readying the type checker for these declarations), and was stopped`));
      }
      return;
    }
    if (run.checking && performance.now() - run.started > run.limits.checkMs) {
      return void this.stopSlot(slot, limitFailure('checkMs', `did not finish type-checking within ${run.limits.checkMs} ms, and was stopped`));
    }
    const busyMs = run.checking ? 0 : slot.worker.performance.eventLoopUtilization(run.elu).active;
    if (busyMs > run.limits.cpuMs + FORCE_GRACE_MS) void this.stopSlot(slot, limitFailure('cpuMs', `ran longer than ${run.limits.cpuMs} ms of computing, and was stopped by force`));
    else if (performance.now() - run.started > run.limits.wallMs + FORCE_GRACE_MS) void this.stopSlot(slot, limitFailure('wallMs', `did not finish within ${run.limits.wallMs} ms, and was stopped by force`));
  }

  /** Terminates the slot's worker, ending its run with `failure`; the slot is replaced on the next run. */
  private async stopSlot(slot: Slot, failure: SandboxFailure): Promise<void> {
    const run = slot.run;
    // close() takes the slots out before stopping them.
    if (this.slots.includes(slot)) this.slots.splice(this.slots.indexOf(slot), 1);
    slot.worker.removeAllListeners('exit');
    run?.resolve(forced(run, failure));
    await slot.worker.terminate();
    this.wakeNext();
  }

  private async replace(slot: Slot, limit: keyof SandboxLimits, what: string): Promise<void> {
    if (!this.slots.includes(slot)) return;
    await this.stopSlot(slot, limitFailure(limit, what));
  }

  private post(slot: Slot, message: ToWorker): void {
    slot.worker.postMessage(message);
  }
}


/** The outcome of a run that never started. */
function notRun(failure: RunFailure): SandboxOutcome {
  return { ok: false, failure, logs: [], logsTruncated: false, calls: 0, cpuMs: 0, wallMs: 0 };
}

function forced(run: ActiveRun, failure: SandboxFailure): SandboxOutcome {
  return {
    ok: false,
    failure,
    logs: [],
    logsTruncated: false,
    calls: 0,
    cpuMs: Math.round(performance.now() - run.started),
    wallMs: Math.round(performance.now() - run.started),
  };
}

/**
 * The built worker beside this file (`dist/sandbox/sandbox-worker.js`); run from source (a test
 * that maps `@toolsets/code-mode` to `src`), the library's built one. Build the library first.
 */
function workerScript(): string {
  const candidates = [join(__dirname, 'sandbox-worker.js'), join(__dirname, '../../dist/sandbox/sandbox-worker.js')];
  const script = candidates.find((candidate) => existsSync(candidate));
  if (!script) throw new Error(`${candidates[1]} is missing: build @toolsets/code-mode (npx nx run @toolsets/code-mode:build); the sandbox runs programs on that worker.`);
  return script;
}
