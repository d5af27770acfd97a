// A load-generator thread of load-threads.ts: for each job, its MCP clients call `hello` in a closed loop.
// The thread lives for the whole scenario, so the client code it runs stays compiled between windows.
import { parentPort } from 'node:worker_threads';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface LoadJob {
  url: string;
  /** Global indices of this thread's clients: even ones speak 2026-07-28, odd ones are the 2025-era client. */
  clients: number[];
  /** Every client of one era instead (`modern`: the SDK v2 client pinned to 2026-07-28; `legacy`: the v1 client). */
  era?: 'modern' | 'legacy';
}

/** Sent by the parent once every thread is connected: epoch milliseconds, so all threads share one window. */
export interface LoadGo {
  measureFrom: number;
  end: number;
}

export interface LoadReport {
  /** Calls that started and ended inside the measured window, and their latencies (ms). */
  latencies: number[];
  /** Calls answered before the window opened, and in all. */
  completedBeforeWindow: number;
  completed: number;
}

type CallTool = (params: { name: string; arguments: Record<string, unknown> }) => Promise<unknown>;

async function connect(url: string, index: number, era: LoadJob['era']): Promise<{ call: CallTool; close(): Promise<void> }> {
  if (era === 'modern' || (era === undefined && index % 2 === 0)) {
    const client = new Client({ name: 'load', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return { call: (p) => client.callTool(p), close: () => client.close() };
  }
  const client = new LegacyClient({ name: 'load-2025', version: '1' });
  await client.connect(new LegacyHttpTransport(new URL(url)));
  return { call: (p) => client.callTool(p), close: () => client.close() };
}

async function run({ url, clients: indices, era }: LoadJob): Promise<void> {
  const clients = await Promise.all(indices.map((index) => connect(url, index, era)));
  // The previous window's garbage is collected outside this one (the bench runs with --expose-gc, which threads share).
  (globalThis as { gc?: () => void }).gc?.();
  const go = await new Promise<LoadGo>((resolve) => {
    pending = resolve;
    parentPort!.postMessage('ready');
  });
  const report: LoadReport = { latencies: [], completedBeforeWindow: 0, completed: 0 };
  await Promise.all(
    clients.map(async ({ call }) => {
      while (Date.now() < go.end) {
        const start = Date.now();
        const startPrecise = performance.now();
        await call({ name: 'hello', arguments: { name: 'load' } });
        const done = Date.now();
        report.completed++;
        if (done < go.measureFrom) report.completedBeforeWindow++;
        else if (start >= go.measureFrom && done <= go.end) report.latencies.push(performance.now() - startPrecise);
      }
    }),
  );
  await Promise.all(clients.map((client) => client.close()));
  parentPort!.postMessage(report);
}

// Jobs come one at a time: a job, then its `go`; the next job only after this one's report.
let pending: ((go: LoadGo) => void) | undefined;
parentPort?.on('message', (message: LoadJob | LoadGo) => {
  if ('url' in message) void run(message);
  else pending?.(message);
});
