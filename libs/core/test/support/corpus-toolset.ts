import 'reflect-metadata';
import { ArrayMaxSize, IsInt, IsOptional, Max, Min } from 'class-validator';
import {
  embeddedResource,
  Field,
  RequestContext,
  resourceLink,
  Tool,
  ToolError,
  ToolResult,
  Toolset,
  UseInterceptors,
  withContent,
  type CallNext,
  type ToolCall,
  type ToolInterceptor,
  type ResultWithContent,
} from '../../src';
import type { ArgumentMakers, HeaderMirror, Random } from './call-corpus';

/**
 * The tools both fast paths' differential tests call (test/transport/fast-path.spec.ts over HTTP,
 * stdio-fast-path.spec.ts over stdio): every kind of answer a call can get, and a maker of
 * arguments (valid or not) for each.
 */

class EchoArgs {
  @Field({ description: 'What to echo.' })
  text!: string;

  @Field()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(5)
  times?: number;
}

class EchoResult extends ToolResult {
  @Field()
  text!: string;

  @Field()
  times!: number;
}

class SumArgs {
  @Field(() => [Number])
  @ArrayMaxSize(8)
  numbers!: number[];
}

class SumResult extends ToolResult {
  @Field()
  total!: number;
}

class CityArgs {
  @Field()
  city!: string;
}

class RouteArgs {
  @Field({ description: 'Where the call is routed; mirrored into Mcp-Param-Region.', header: 'Region' })
  region!: string;
}

/** Refuses an echo of a text with a `Z` in it, and adds nothing to the rest: an interceptor on the fast path's calls. */
class NoZ implements ToolInterceptor {
  intercept(call: ToolCall, next: CallNext) {
    const text = (call.args as { text?: unknown }).text;
    return typeof text === 'string' && text.includes('Z') ? new ToolError('refused', 'No Z in an echo.') : next();
  }
}

class Confirmation {
  @Field({ description: 'Go ahead?' })
  confirm!: boolean;
}

/** Every kind of answer a call can get: data, a declared error, an unexpected throw, extra content blocks, a question, a credential to hide. */
@Toolset({ name: 'corpus', description: 'Tools for the differential test.', credentialHeaders: ['x-corpus-key'] })
export class CorpusToolset {
  constructor(private readonly context: RequestContext) {}

  @UseInterceptors(NoZ)
  @Tool({ description: 'Echo a text.', args: EchoArgs, returns: [EchoResult, ToolError], annotations: { readOnlyHint: true } })
  echo({ text, times = 1 }: EchoArgs): EchoResult {
    return { message: text.repeat(times), text, times };
  }

  @Tool({ description: 'Add numbers.', args: SumArgs, returns: SumResult, annotations: { readOnlyHint: true } })
  sum({ numbers }: SumArgs): SumResult {
    return { message: 'summed', total: numbers.reduce((a, b) => a + b, 0) };
  }

  @Tool({ description: 'Weather of a city; Atlantis is not found.', args: CityArgs, returns: [EchoResult, ToolError] })
  lookup({ city }: CityArgs): EchoResult | ToolError {
    if (city === 'Atlantis') return new ToolError('not_found', `No city called ${city}.`);
    return { message: `Sunny in ${city}`, text: city, times: 1 };
  }

  @Tool({ description: 'Fails unexpectedly.', returns: ToolResult })
  explode(): ToolResult {
    throw new Error('boom');
  }

  @Tool({ description: 'Attaches content blocks.', returns: ToolResult })
  attach(): ResultWithContent<ToolResult> {
    return withContent({ message: 'attached' }, embeddedResource({ uri: 'corpus://raw', mimeType: 'text/plain', text: 'raw' }), resourceLink({ uri: 'corpus://link', name: 'link', description: 'A link.' }));
  }

  @Tool({ description: 'Asks the user first.', returns: ToolResult, elicits: [Confirmation] })
  async ask(): Promise<ToolResult> {
    const answer = await this.context.elicit('Go ahead?', Confirmation);
    return { message: answer.action };
  }

  @Tool({ description: 'Logs twice and reports progress (sent only where the client asked), quoting the caller key.', returns: ToolResult })
  async chatty(): Promise<ToolResult> {
    await this.context.log('info', { step: 1, key: this.context.hasCredential('x-corpus-key') ? this.context.credential('x-corpus-key') : 'none' });
    await this.context.progress(1, 2, 'half way');
    await this.context.log('debug', 'done');
    return { message: 'chatted' };
  }

  @Tool({ description: 'Quotes the caller key, which is hidden.', returns: ToolResult })
  secret(): ToolResult {
    return { message: `key=${this.context.credential('x-corpus-key')}` };
  }

  @Tool({ description: 'Answers by region, from an argument a client mirrors into a header.', args: RouteArgs, returns: ToolResult })
  route({ region }: RouteArgs): ToolResult {
    return { message: `routed to ${region}` };
  }

  @Tool({ description: 'Shows the request headers a tool reads (all of them, and one by name).', returns: ToolResult })
  peek(): ToolResult {
    const { headers } = this.context;
    const shown = Object.fromEntries(Object.entries(headers).filter(([name]) => /^(x-corpus-tag|set-cookie|cookie|mcp-param-region)$/.test(name)));
    return { message: JSON.stringify({ shown, tag: this.context.header('x-corpus-tag') ?? null, cookie: this.context.header('set-cookie') ?? null }) };
  }

  @Tool({ description: 'Outlives the keepalive interval of the answer stream, logging half way.', returns: ToolResult })
  async linger(): Promise<ToolResult> {
    await new Promise((resolve) => setTimeout(resolve, LINGER_MS / 2));
    await this.context.log('info', 'half way');
    await new Promise((resolve) => setTimeout(resolve, LINGER_MS / 2));
    return { message: 'lingered' };
  }
}

/** The servers' keepalive interval (`STREAM_KEEP_ALIVE_MS`) and how long `linger` takes: long enough for keepalives on both paths, whatever the load (the interval is armed before the tool's timers, and Node runs timers in order). */
export const KEEP_ALIVE_MS = 20;
export const LINGER_MS = 120;

/** What a 2026-07-28 client mirrors into headers: `route`'s region. */
export const MIRROR: HeaderMirror = (name, args) => {
  const region = (args as { region?: unknown } | undefined)?.region;
  const mirrored: Record<string, string> = name === 'route' && typeof region === 'string' ? { 'mcp-param-region': region } : {};
  return mirrored;
};

export const MAKERS: ArgumentMakers = {
  echo: (r: Random) => ({ text: r.text(r.chance(0.1) ? 400 : 20), ...(r.chance(0.5) && { times: r.pick<unknown>([1, 3, 5, 0, 9, 1.5, '2']) }), ...(r.chance(0.1) && { extra: true }) }),
  sum: (r: Random) => ({ numbers: Array.from({ length: r.int(0, 10) }, () => (r.chance(0.9) ? r.int(-1e6, 1e6) / 8 : 'x')) }),
  lookup: (r: Random) => (r.chance(0.2) ? { city: 'Atlantis' } : r.chance(0.1) ? {} : { city: r.text(12) }),
  explode: () => ({}),
  attach: () => ({}),
  ask: () => ({}),
  secret: () => ({}),
  chatty: () => ({}),
  route: (r: Random) => (r.chance(0.1) ? {} : { region: r.pick(['eu', 'us', 'é', '']) }),
  peek: () => ({}),
  linger: () => ({}),
};
