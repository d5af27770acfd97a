import 'reflect-metadata';
import { buildServer } from '@toolsets/core';
import { CredentialDemoToolset } from '@toolsets/credential-demo';
import { HelloToolset } from '@toolsets/hello';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import { fmt, judge, type ScenarioResult } from '../harness/report';
import { settledMemory } from '../harness/settled-memory';

const TOTAL_CALLS = 100_000;
const CHECKPOINT = 20_000;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Heap and resident memory after full collections, in MiB. */
async function settle(): Promise<{ rss: number; heap: number }> {
  const { rss, heap } = await settledMemory();
  return { rss: rss / 2 ** 20, heap: heap / 2 ** 20 };
}

export async function memoryScenario(): Promise<ScenarioResult> {
  const server = buildServer({ name: 'demo', version: '1.0.0', toolsets: [HelloToolset, CredentialDemoToolset], logger: quiet });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = await server.connect(serverSide, { headers: { 'x-demo-token': 'memory-bench-token' } });
  const client = new Client({ name: 'memory', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(clientSide);
  await client.listTools();
  const idle = await settle();
  const checkpoints: { calls: number; rss: number; heap: number }[] = [];
  for (let call = 1; call <= TOTAL_CALLS; call++) {
    const name = call % 3 === 0 ? 'whoami' : call % 3 === 1 ? 'hello' : 'greet_team';
    const args = name === 'hello' ? { name: `n${call % 100}` } : name === 'greet_team' ? { names: ['Ada', 'Grace'] } : {};
    await client.callTool({ name, arguments: args });
    if (call % CHECKPOINT === 0) checkpoints.push({ calls: call, ...(await settle()) });
  }
  await client.close();
  await handle.close();
  const first = checkpoints[0];
  const last = checkpoints[checkpoints.length - 1];
  const heapGrowth = last.heap - first.heap;
  return {
    scenario: 'memory',
    title: '5. Memory: the demo toolsets, idle and after 100,000 calls',
    method: `One process, \`node --expose-gc\`, SDK v2 Client in memory with the x-demo-token header; calls rotate hello, greet_team and whoami; heap and RSS read after 3 forced GCs.`,
    headers: ['after calls', 'RSS MiB', 'heap used MiB'],
    rows: [['0 (idle)', fmt(idle.rss), fmt(idle.heap)], ...checkpoints.map((c) => [c.calls.toLocaleString('en'), fmt(c.rss), fmt(c.heap)])],
    verdicts: [
      {
        target: `no heap growth beyond noise from ${CHECKPOINT.toLocaleString('en')} to ${TOTAL_CALLS.toLocaleString('en')} calls (≤ 1 MiB)`,
        measured: `${heapGrowth >= 0 ? '+' : ''}${fmt(heapGrowth, 2)} MiB`,
        outcome: judge((g) => g <= 1, heapGrowth),
      },
    ],
  };
}
