import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import { guestPrelude, wrappedProgram } from './guest-prelude';
import { InterpreterModule } from './quickjs-module';
import { DEFAULT_LIMITS, type SandboxLimits } from './sandbox-limits';
import { CALLER_GONE, limitFailure, type InnerCallAnswer, type RunFailure, type SandboxHost, type SandboxOutcome } from './sandbox-outcome';

/** A module whose memory a program grew by more than this is replaced after it, so the worker gives the memory back. */
const REPLACE_AFTER_GROWTH_BYTES = 8 * 1024 * 1024;

/**
 * Runs a model's JavaScript program in QuickJS compiled to WebAssembly: an interpreter with its
 * own heap, in which nothing of the host exists but two functions (the inner call and the log),
 * wrapped by the prelude as `api` and `console`. Each program gets a new runtime and context,
 * disposed at its end, so nothing it computes survives into the next. It keeps one WebAssembly
 * module, loaded on the first run. It runs on the thread that calls it: `Sandbox` gives it a
 * worker thread of its own, so a program that computes inside one native operation (where the
 * interpreter's CPU check never comes) stalls only that worker, which is then stopped.
 */
export class QuickJsRunner {
  private module?: Promise<InterpreterModule>;

  constructor(private readonly defaults: Partial<SandboxLimits> = {}) {}

  /** Loads the interpreter's module if it is not loaded (at start, and after one was replaced), so a run's clock never counts it. */
  async warm(memoryBytes = this.defaults.memoryBytes ?? DEFAULT_LIMITS.memoryBytes): Promise<void> {
    const loaded = this.module && (await this.module);
    if (loaded?.memoryBytes !== memoryBytes) this.module = InterpreterModule.load(memoryBytes);
    await this.module;
  }

  /** Bytes of WebAssembly memory the runner holds now: its module's memory, or 0 before one is loaded and after one was let go. */
  async heldBytes(): Promise<number> {
    return this.module ? (await this.module).memory.buffer.byteLength : 0;
  }

  /** Runs `program`; once `cancel` aborts, the program ends `stopped` where it is and makes no further inner call. */
  async run(program: string, host: SandboxHost, limits: Partial<SandboxLimits> = {}, cancel?: AbortSignal): Promise<SandboxOutcome> {
    const bounds: SandboxLimits = { ...DEFAULT_LIMITS, ...this.defaults, ...limits };
    await this.warm(bounds.memoryBytes);
    const interpreter = await this.module!;
    const run = new ProgramRun(interpreter, host, bounds);
    cancel?.addEventListener('abort', () => run.cancel(), { once: true });
    try {
      return await run.start(program);
    } finally {
      // A module whose runtime would not dispose cleanly is not trusted with the next program; one
      // a program grew is replaced, so the worker does not keep the largest program's memory.
      if (!run.dispose() || interpreter.failedGrowths > 0 || interpreter.grownBytes > REPLACE_AFTER_GROWTH_BYTES) this.module = undefined;
    }
  }
}

/** How a program ends that awaits what nothing can settle: it threw nothing, so it is not answered as a throw. */
const NOTHING_PENDING: RunFailure = {
  kind: 'stopped',
  message: 'The program was stopped: it waits for a promise that nothing can settle (no inner call is running and no other work is pending). Await only api calls and promises they settle.',
};

/** One program's run: its runtime, its context, its clock and its inner calls. */
class ProgramRun {
  private readonly runtime: QuickJSRuntime;
  private readonly vm: QuickJSContext;
  private readonly started = performance.now();
  private cpuSpent = 0;
  private sliceStart?: number;
  private calls = 0;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly deferreds = new Set<QuickJSDeferredPromise>();
  private readonly logs: string[] = [];
  private logBytes = 0;
  private logsTruncated = false;
  private readonly abort = new AbortController();
  private stop!: (failure: RunFailure) => void;
  private readonly stopped = new Promise<RunFailure>((resolve) => (this.stop = resolve));
  private failure?: RunFailure;
  private settled = false;
  /** The host's own stack overflowed inside the interpreter: its module is not used again. */
  private hostFault = false;

  /** The memory's failed growths before this program ran: one more means the program ran out of memory. */
  private readonly growthsBefore: number;

  constructor(
    private readonly interpreter: InterpreterModule,
    private readonly host: SandboxHost,
    private readonly limits: SandboxLimits,
  ) {
    this.growthsBefore = interpreter.failedGrowths;
    this.runtime = interpreter.module.newRuntime();
    // No count-based limit: the module's memory cap is the bound (see InterpreterModule).
    this.runtime.setMemoryLimit(-1);
    this.runtime.setMaxStackSize(limits.stackBytes);
    this.runtime.setInterruptHandler(() => this.overCpu());
    this.vm = this.runtime.newContext();
  }

  async start(program: string): Promise<SandboxOutcome> {
    if (Buffer.byteLength(program) > this.limits.programBytes) return this.outcome({ failure: limitFailure('programBytes', `is ${Buffer.byteLength(program)} bytes, over ${this.limits.programBytes}`) });
    this.defineHost();
    const wall = setTimeout(() => this.end(limitFailure('wallMs', `did not finish within ${this.limits.wallMs} ms`)), this.limits.wallMs);
    try {
      return await this.evaluate(program);
    } catch (error) {
      if (error instanceof SandboxHostFault) return this.outcome({ failure: this.failure! });
      throw error;
    } finally {
      clearTimeout(wall);
      this.abort.abort();
    }
  }

  private async evaluate(program: string): Promise<SandboxOutcome> {
    const prelude = this.slice(() => this.vm.evalCode(guestPrelude(this.host.namespaces), 'prelude.js'));
    if (prelude.error) return this.outcome({ failure: this.failureOf(prelude.error) });
    prelude.value.dispose();
    const evaluated = this.slice(() => this.vm.evalCode(wrappedProgram(program), 'program.js'));
    if (evaluated.error) return this.outcome({ failure: this.failureOf(evaluated.error) });
    const result = this.vm.resolvePromise(evaluated.value);
    evaluated.value.dispose();
    this.pump();
    const ended = await Promise.race([result.then((settled) => ({ settled })), this.stopped.then((failure) => ({ failure }))]);
    this.settled = true;
    // Ended early: nothing pumps the guest again, so its promise never settles; the context's disposal frees it.
    if ('failure' in ended) return this.outcome({ failure: ended.failure });
    if (ended.settled.error) return this.outcome({ failure: this.failureOf(ended.settled.error) });
    const json = this.vm.getString(ended.settled.value);
    ended.settled.value.dispose();
    if (Buffer.byteLength(json) > this.limits.resultBytes) return this.outcome({ failure: limitFailure('resultBytes', `returned ${Buffer.byteLength(json)} bytes of JSON, over ${this.limits.resultBytes}`) });
    return this.outcome({ value: JSON.parse(json) as unknown });
  }

  /** The caller went away: end the program where it is (the interrupt handler stops a computing guest at its next check). */
  cancel(): void {
    this.end(CALLER_GONE);
  }

  /** Whether to stop the guest now: it has ended (any limit), or computed past cpuMs (the interpreter asks every so many operations). */
  private overCpu(): boolean {
    if (this.failure) return true;
    if (this.sliceStart === undefined || this.cpuSpent + (performance.now() - this.sliceStart) <= this.limits.cpuMs) return false;
    this.end(limitFailure('cpuMs', `ran longer than ${this.limits.cpuMs} ms of computing`));
    return true;
  }

  /** Disposes the context and runtime; false when the runtime would not (a handle was left alive). */
  dispose(): boolean {
    if (this.hostFault) return false;
    try {
      for (const deferred of this.deferreds) deferred.dispose();
      this.deferreds.clear();
      this.vm.dispose();
      this.runtime.dispose();
      return true;
    } catch {
      return false;
    }
  }

  /** The two host functions the prelude wraps: the inner call, and the log. */
  private defineHost(): void {
    const call = this.vm.newFunction('__toolsetsCall', (namespace, tool, args) => this.innerCall(this.vm.getString(namespace), this.vm.getString(tool), this.vm.getString(args)));
    const log = this.vm.newFunction('__toolsetsLog', (text) => void this.log(this.vm.getString(text)));
    this.vm.setProp(this.vm.global, '__toolsetsCall', call);
    this.vm.setProp(this.vm.global, '__toolsetsLog', log);
    call.dispose();
    log.dispose();
  }

  /** An inner call: a promise in the guest, settled with the host's JSON answer once the call ends. */
  private innerCall(namespace: string, tool: string, argsJson: string): QuickJSHandle | { error: QuickJSHandle } {
    if (++this.calls > this.limits.maxCalls) this.end(limitFailure('maxCalls', `made more than ${this.limits.maxCalls} inner calls`));
    // A program that has ended gets an exception at once, so a loop making calls stops where it is.
    if (this.failure) return { error: this.vm.newError(this.failure.message) };
    const deferred = this.vm.newPromise();
    this.deferreds.add(deferred);
    void this.answer(namespace, tool, argsJson).then((answer) => {
      if (this.failure || this.settled) return;
      const text = this.vm.newString(JSON.stringify(answer));
      deferred.resolve(text);
      text.dispose();
      this.deferreds.delete(deferred);
      deferred.dispose();
      this.pump();
    });
    return deferred.handle;
  }

  /** The host's answer, in a slot of the concurrency cap; never throws. */
  private async answer(namespace: string, tool: string, argsJson: string): Promise<InnerCallAnswer> {
    if (this.inFlight >= this.limits.maxConcurrentCalls) await new Promise<void>((resume) => this.waiting.push(resume));
    this.inFlight++;
    try {
      return await this.host.call(namespace, tool, JSON.parse(argsJson) as unknown, this.abort.signal);
    } catch {
      return { error: { name: 'InternalError', message: 'The inner call failed on the server.' } };
    } finally {
      this.inFlight--;
      this.waiting.shift()?.();
    }
  }

  private log(text: string): void {
    if (this.logsTruncated) return;
    const bytes = Buffer.byteLength(text) + 1;
    if (this.logBytes + bytes > this.limits.logBytes) {
      this.logsTruncated = true;
      return;
    }
    this.logBytes += bytes;
    this.logs.push(text);
  }

  /** Runs the guest's pending jobs (the continuations of settled promises), on the CPU clock. */
  private pump(): void {
    if (this.failure || this.settled) return;
    let jobs: ReturnType<QuickJSRuntime['executePendingJobs']>;
    try {
      jobs = this.slice(() => this.runtime.executePendingJobs());
    } catch {
      return;
    }
    if (jobs.error) {
      const failure = this.failureOf(jobs.error);
      this.end(failure);
    }
    // Nothing running, nothing to resume, nothing queued: a program that awaits what nothing will settle.
    if (!this.failure && this.inFlight === 0 && this.waiting.length === 0) {
      setImmediate(() => {
        if (!this.failure && !this.settled && this.inFlight === 0 && this.waiting.length === 0 && !this.runtime.hasPendingJob()) {
          // A job the runtime could not queue for want of memory breaks the chain that awaited it.
          this.end(this.ranOutOfMemory() ? this.memoryFailure() : NOTHING_PENDING);
        }
      });
    }
  }

  /**
   * Guest code runs only inside a slice: the interrupt handler counts its time against cpuMs. A
   * host exception escaping the interpreter (its native stack overflowed) ends the program as a
   * stack failure, thrown as the guest error handle `failureOf` reads.
   */
  private slice<T>(work: () => T): T {
    this.sliceStart = performance.now();
    try {
      return work();
    } catch (error) {
      this.hostFault = true;
      this.end(limitFailure('stackBytes', `recursed deeper than the server's own stack allows (${error instanceof Error ? error.name : 'host error'})`));
      throw new SandboxHostFault();
    } finally {
      this.cpuSpent += performance.now() - this.sliceStart;
      this.sliceStart = undefined;
    }
  }

  private end(failure: RunFailure): void {
    if (this.failure) return;
    this.failure = failure;
    this.stop(failure);
  }

  /** A thrown guest value as a failure: a limit where the interpreter's own error says so, else the program's error. */
  private failureOf(handle: QuickJSHandle): RunFailure {
    const dumped = this.vm.dump(handle) as { name?: string; message?: string } | string | undefined;
    handle.dispose();
    if (this.failure) return this.failure;
    // The allocator was refused memory during this program: whatever was thrown (an InternalError, or `null`), it ran out.
    if (this.ranOutOfMemory()) return this.memoryFailure();
    const name = typeof dumped === 'object' && dumped?.name ? String(dumped.name) : 'Error';
    const message = typeof dumped === 'object' && dumped ? String(dumped.message ?? '') : String(dumped);
    if (/out of memory/i.test(message)) return this.memoryFailure();
    if (/stack overflow/i.test(message)) return limitFailure('stackBytes', `recursed deeper than its ${this.limits.stackBytes}-byte stack`);
    if (/interrupted/i.test(message)) return limitFailure('cpuMs', `ran longer than ${this.limits.cpuMs} ms of computing`);
    return { kind: 'thrown', name, message };
  }

  /** Whether the module's memory refused to grow while this program ran (see InterpreterModule). */
  private ranOutOfMemory(): boolean {
    return this.interpreter.failedGrowths > this.growthsBefore;
  }

  private memoryFailure(): RunFailure {
    return limitFailure('memoryBytes', `used more than ${this.limits.memoryBytes} bytes of memory`);
  }

  private outcome(end: { value: unknown } | { failure: RunFailure }): SandboxOutcome {
    this.settled = true;
    const common = { logs: this.logs, logsTruncated: this.logsTruncated, calls: Math.min(this.calls, this.limits.maxCalls), cpuMs: Math.round(this.cpuSpent), wallMs: Math.round(performance.now() - this.started) };
    return 'failure' in end ? { ok: false, failure: end.failure, ...common } : { ok: true, value: end.value, ...common };
  }
}

/** Thrown out of a slice whose guest code broke the host's own stack; the run's failure says which limit. */
class SandboxHostFault extends Error {}

