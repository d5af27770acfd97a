import { performance } from 'node:perf_hooks';

export interface Contender {
  name: string;
  /** Makes `calls` sequential calls. */
  run(calls: number): Promise<void>;
}

/**
 * Runs every contender in each round, rotating who goes first, so drift on a shared machine
 * (frequency, other load) hits all of them alike. Returns µs per call, per round, per contender.
 */
export async function interleave(contenders: readonly Contender[], options: { rounds: number; calls: number; warmup: number }): Promise<Map<string, number[]>> {
  for (const contender of contenders) await contender.run(options.warmup);
  const perCall = new Map(contenders.map((c) => [c.name, [] as number[]]));
  for (let round = 0; round < options.rounds; round++) {
    for (let i = 0; i < contenders.length; i++) {
      const contender = contenders[(i + round) % contenders.length];
      (globalThis as { gc?: () => void }).gc?.();
      const start = performance.now();
      await contender.run(options.calls);
      perCall.get(contender.name)!.push(((performance.now() - start) * 1000) / options.calls);
    }
  }
  return perCall;
}
