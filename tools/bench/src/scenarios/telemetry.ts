import 'reflect-metadata';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { buildServer, Field, Tool, ToolResult, Toolset, type CallNext, type ServerDefinition, type ToolCall, type ToolInterceptor } from '@toolsets/core';
import { connectInMemory } from '../harness/in-memory';
import { interleave, type Contender } from '../harness/interleave';
import { fmt, judge, ratio, ratioWithBand, type ScenarioResult, type Verdict } from '../harness/report';
import { median } from '../harness/stats';

const ROUNDS = 10;
const CALLS = 4_000;
const WARMUP = 3_000;
/** What tracing may add to a call (issue 26's target). */
const TARGET = 1.05;

class HelloArgs {
  @Field()
  name!: string;
}

class HelloResult extends ToolResult {}

@Toolset({ name: 'bench-traced' })
class TracedHelloToolset {
  @Tool({ description: 'Greet someone by name.', args: HelloArgs, returns: HelloResult })
  hello(args: HelloArgs): HelloResult {
    return { message: `Hello, ${args.name}!` };
  }
}

/** An interceptor that only passes the call on: what the chain itself costs. */
class PassThrough implements ToolInterceptor {
  intercept(_call: ToolCall, next: CallNext): Promise<unknown> {
    return next();
  }
}

/** An exporter that counts what it is sent and keeps nothing, so memory stays flat over the run. */
class CountingExporter implements SpanExporter {
  spans = 0;
  export(spans: ReadableSpan[], done: (result: { code: number }) => void): void {
    this.spans += spans.length;
    done({ code: 0 });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function contender(name: string, definition: ServerDefinition): Promise<Contender & { close(): Promise<void> }> {
  const { client, close } = await connectInMemory(() => definition.createServer());
  return {
    name,
    async run(calls) {
      for (let i = 0; i < calls; i++) await client.callTool({ name: 'hello', arguments: { name: 'bench' } });
    },
    close,
  };
}

/** Paired per round: each round's ratio of `name` to `baseline`. */
function paired(times: Map<string, number[]>, name: string, baseline: string): { share: number; band: number[]; ratios: number[] } {
  const ratios = times.get(name)!.map((value, round) => value / times.get(baseline)![round]!);
  return { share: median(ratios), band: [...ratios].sort((a, b) => a - b).slice(1, -1), ratios };
}

/**
 * Scenario 11: what tracing and interceptors add to a call. One-tool servers over the SDK's
 * in-memory transport (the smallest call there is, so the largest share): spans off
 * (`telemetry: false`), on with no SDK registered (the default), on with the OpenTelemetry SDK
 * recording every span into an in-memory exporter, and one pass-through interceptor.
 */
export async function telemetryScenario(): Promise<ScenarioResult> {
  const build = (options: { telemetry?: boolean; interceptors?: [typeof PassThrough] }) =>
    buildServer({ name: 'bench', version: '1.0.0', toolsets: [TracedHelloToolset], logger: silent, ...options });
  const off = await contender('spans off', build({ telemetry: false }));
  const noSdk = await contender('spans on, no SDK registered', build({}));
  const intercepted = await contender('spans off, one pass-through interceptor', build({ telemetry: false, interceptors: [PassThrough] }));
  // Phase 1: before any SDK is registered, the API hands out no-op spans.
  const first = await interleave([off, noSdk, intercepted], { rounds: ROUNDS, calls: CALLS, warmup: WARMUP });

  // Phase 2: the SDK as an app registers it (tracer, async context), every span kept in memory.
  const exporter = new CountingExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const recorded = await contender('spans on, SDK recording in memory', build({}));
  const offAgain = { ...off, name: 'spans off ' };
  const second = await interleave([offAgain, recorded], { rounds: ROUNDS, calls: CALLS, warmup: WARMUP });
  await provider.forceFlush();
  const spans = exporter.spans;
  await Promise.all([off.close(), noSdk.close(), intercepted.close(), recorded.close()]);
  await provider.shutdown();

  const noop = paired(first, noSdk.name, off.name);
  const sdk = paired(second, recorded.name, offAgain.name);
  const chain = paired(first, intercepted.name, off.name);
  const verdict = (what: string, measured: ReturnType<typeof paired>, base: number, value: number): Verdict => ({
    target: `${what} ≤ ${TARGET}× a call with spans off`,
    measured: `${ratioWithBand(measured.share, measured.band)}; +${fmt(value - base, 2)} µs per call; rounds ${measured.ratios.map((r) => fmt(r, 2)).join(', ')}`,
    outcome: judge((r) => r <= TARGET, measured.share, measured.band),
  });
  return {
    scenario: 'telemetry',
    title: '11. Tracing and interceptors on every call',
    method: `The same one-tool server built four ways, each over the SDK's in-memory transport with the v2 client (the cheapest call there is, so the largest share): spans off (telemetry: false), on with no OpenTelemetry SDK registered (the default), on with the SDK registered (BasicTracerProvider, BatchSpanProcessor, as an app exports, into an exporter that counts the spans, AsyncLocalStorage context), and spans off with one interceptor that only calls next(). ${ROUNDS} rounds of ${CALLS.toLocaleString('en-US')} sequential tools/call each, interleaved; ratios are paired per round. The SDK is registered for the whole process, so its row is measured in a second phase against spans off again.`,
    headers: ['server', 'µs per call (median of rounds)', 'ratio to spans off'],
    rows: [
      [off.name, fmt(median(first.get(off.name)!), 1), ratio(1)],
      [noSdk.name, fmt(median(first.get(noSdk.name)!), 1), ratio(noop.share)],
      [recorded.name, fmt(median(second.get(recorded.name)!), 1), ratio(sdk.share)],
      [intercepted.name, fmt(median(first.get(intercepted.name)!), 1), ratio(chain.share)],
    ],
    notes: [`The SDK row exported ${spans.toLocaleString('en-US')} spans (one per call, warm-up included).`],
    verdicts: [
      verdict('spans on with no SDK registered', noop, median(first.get(off.name)!), median(first.get(noSdk.name)!)),
      verdict('spans on with the SDK recording in memory', sdk, median(second.get(offAgain.name)!), median(second.get(recorded.name)!)),
    ],
  };
}
