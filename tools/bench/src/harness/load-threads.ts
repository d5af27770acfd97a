import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LoadGo, LoadJob, LoadReport } from './load-worker';
import { processCpuMicros, processRssBytes } from './process-cpu';

/**
 * Load-generator threads for `workers` concurrent clients. One JavaScript thread driving 8 SDK
 * clients ran at 100 % of a core while the server had idle time: the level measured how that one
 * event loop interleaved with the answers, not what the server costs. On two threads the cores
 * themselves are the bottleneck, shared by the clients and the server, so a server that costs less
 * CPU per call leaves more to the clients and shows as more calls per second.
 */
export const LOAD_THREADS = (workers: number) => Math.min(workers, 2);

export interface LoadResult {
  perSecond: number;
  latencies: number[];
  /** The server process's CPU time over the measured window, per call answered in it. */
  cpuMicrosPerCall: number;
  /** The server process's resident set size when the window ended. */
  rssBytes: number;
}

/** Threads that generate closed-loop load; they live until `close`, so their client code stays compiled. */
export class LoadThreads {
  readonly #threads: Worker[] = [];

  /** `era` puts every client in one era; without it, even clients speak 2026-07-28 and odd ones 2025. */
  async run(url: string, workers: number, serverPid: number, warmupMs: number, measureMs: number, era?: LoadJob['era']): Promise<LoadResult> {
    const count = LOAD_THREADS(workers);
    while (this.#threads.length < count) this.#threads.push(new Worker(join(__dirname, 'load-worker.js')));
    const threads = this.#threads.slice(0, count);
    // Each thread connects its clients (even indices speak 2026-07-28, odd ones 2025) and says ready.
    await Promise.all(
      threads.map((thread, t) => {
        const job: LoadJob = { url, clients: Array.from({ length: workers }, (_, i) => i).filter((i) => i % count === t), ...(era && { era }) };
        const ready = next<string>(thread);
        thread.postMessage(job);
        return ready;
      }),
    );
    const reports = threads.map((thread) => next<LoadReport>(thread));
    const begin = Date.now();
    const go: LoadGo = { measureFrom: begin + warmupMs, end: begin + warmupMs + measureMs };
    for (const thread of threads) thread.postMessage(go);
    const cpuAtWindow = new Promise<number>((resolve) => setTimeout(() => resolve(processCpuMicros(serverPid)), warmupMs));
    const done = await Promise.all(reports);
    const cpuAtEnd = processCpuMicros(serverPid);
    const rssBytes = processRssBytes(serverPid);
    // The CPU window runs from the warm-up's end to the last answer; so do the calls it is divided by.
    const inWindow = done.reduce((sum, r) => sum + r.completed - r.completedBeforeWindow, 0);
    const latencies = done.flatMap((r) => r.latencies);
    return { perSecond: latencies.length / (measureMs / 1000), latencies, cpuMicrosPerCall: (cpuAtEnd - (await cpuAtWindow)) / inWindow, rssBytes };
  }

  async close(): Promise<void> {
    await Promise.all(this.#threads.splice(0).map((thread) => thread.terminate()));
  }
}

/** The thread's next message, or its error. */
function next<T>(thread: Worker): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    thread.once('error', onError);
    thread.once('message', (message: T) => {
      thread.off('error', onError);
      resolve(message);
    });
  });
}
