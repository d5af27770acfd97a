import 'reflect-metadata';
import { Field, RequestContext, Result, Tool, ToolError, ToolResult, Toolset, buildServer, type ServerDefinition } from '../../src';
import { connectClient, connectLegacyClient, recordingLogger } from '../support/connect';

@Result({ description: 'Weather.' })
class WeatherResult extends ToolResult {
  @Field()
  celsius!: number;
}

/** A toolset whose tools fail by throwing, in every way a tool author throws. */
@Toolset({ name: 'weather', description: 'Weather from an upstream API.', credentialHeaders: ['x-weather-key'] })
class WeatherToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Throws an upstream error that quotes the caller key.', returns: WeatherResult })
  leaky(): WeatherResult {
    const key = this.context.credential('x-weather-key');
    throw new Error(`upstream 401 for https://api.example.com/v1?apikey=${encodeURIComponent(key)} (key ${key})`);
  }

  @Tool({ description: 'Fails with a TypeError deep in a service.', returns: WeatherResult })
  deep(): WeatherResult {
    return { message: 'never', celsius: forecastService().celsius };
  }

  @Tool({ description: 'Throws a ToolError it declares.', returns: [WeatherResult, ToolError] })
  declared(): WeatherResult | ToolError {
    throw new ToolError('city_unknown', 'No city by that name; give a city name such as "Lisbon".');
  }

  @Tool({ description: 'Throws a ToolError literal it declares.', returns: [WeatherResult, ToolError] })
  literal(): WeatherResult | ToolError {
    throw { error: 'rate_limited', detail: 'Try again in a minute.' };
  }

  @Tool({ description: 'Throws a ToolError without declaring one.', returns: WeatherResult })
  undeclared(): WeatherResult {
    throw new ToolError('maintenance', 'The weather service is down for maintenance until 10:00 UTC.');
  }
}

/** A service a few calls down, with a bug in it. */
function forecastService(): { celsius: number } {
  return parseForecast(undefined as unknown as { today: { celsius: number } });
}
function parseForecast(body: { today: { celsius: number } }): { celsius: number } {
  return { celsius: body.today.celsius };
}

const KEY = 'k3y/with+odd=chars';
const eras = [
  ['SDK v2 Client (2026-07-28)', connectClient],
  ['SDK v1 Client (2025 era)', connectLegacyClient],
] as const;

describe.each(eras)('thrown errors, with the %s', (_era, connect) => {
  let server: ServerDefinition;
  let log: ReturnType<typeof recordingLogger>;

  beforeEach(() => {
    log = recordingLogger();
    server = buildServer({ name: 'weather', version: '1', toolsets: [WeatherToolset], logger: log.logger });
  });

  const call = async (name: string) => {
    const client = await connect(server, { headers: { 'x-weather-key': KEY } });
    await client.listTools(); // the v1 client validates structuredContent only after listing
    try {
      return (await client.callTool({ name, arguments: {} })) as Record<string, unknown>;
    } finally {
      await client.close();
    }
  };
  const textOf = (result: Record<string, unknown>) => (result['content'] as { text: string }[]).map((c) => c.text).join('\n');

  it('never sends an unexpected exception to the client, and redacts the caller key from the log', async () => {
    const result = await call('leaky');
    expect(result['isError']).toBe(true);
    expect(textOf(result)).toMatch(/^The tool 'leaky' failed unexpectedly\. The server log has the details under correlation id [0-9a-f-]{36}\./);
    expect(JSON.stringify(result)).not.toContain('k3y');
    const logged = log.lines.find((line) => line.message === 'tool threw')!;
    expect(logged.fields!['detail']).toBe(
      'upstream 401 for https://api.example.com/v1?apikey=[redacted x-weather-key] (key [redacted x-weather-key])',
    );
    expect(JSON.stringify(log.lines)).not.toContain('k3y');
  });

  it('logs where a thrown error came from (its stack) outside production, never to the client, and not in production', async () => {
    const environment = process.env['NODE_ENV'];
    try {
      process.env['NODE_ENV'] = 'development';
      const result = await call('deep');
      const logged = log.lines.find((line) => line.message === 'tool threw')!;
      expect(logged.fields!['error']).toBe('TypeError');
      const stack = String(logged.fields!['stack']);
      expect(stack.startsWith("TypeError: Cannot read properties of undefined (reading 'today')\n")).toBe(true);
      // The frames down in the service, by file and line.
      expect(stack).toMatch(/\n\s+at .*thrown-errors\.spec\.ts:\d+:\d+\)\n\s+at .*thrown-errors\.spec\.ts:\d+:\d+\)/);
      expect(JSON.stringify(result)).not.toContain('parseForecast');
      expect(JSON.stringify(result)).not.toContain('TypeError');

      process.env['NODE_ENV'] = 'production';
      log.lines.length = 0;
      await call('deep');
      expect(log.lines.find((line) => line.message === 'tool threw')!.fields).not.toHaveProperty('stack');
      process.env['TOOLSETS_DEBUG'] = '1';
      log.lines.length = 0;
      await call('leaky');
      const leaked = log.lines.find((line) => line.message === 'tool threw')!;
      // The stack's first line repeats the message: the caller's key is redacted there too.
      expect(leaked.fields!['stack']).toContain('(key [redacted x-weather-key])');
      expect(JSON.stringify(log.lines)).not.toContain('k3y');
    } finally {
      process.env['NODE_ENV'] = environment;
      delete process.env['TOOLSETS_DEBUG'];
    }
  });

  it('sends a thrown ToolError exactly like a returned one, through the error arm', async () => {
    const result = await call('declared');
    expect(result['isError']).toBe(true);
    expect(result['structuredContent']).toEqual({ error: 'city_unknown', detail: 'No city by that name; give a city name such as "Lisbon".' });
    expect(JSON.parse(textOf(result))).toEqual(result['structuredContent']);
  });

  it('sends a thrown { error, detail } literal like a returned one', async () => {
    const result = await call('literal');
    expect(result['structuredContent']).toEqual({ error: 'rate_limited', detail: 'Try again in a minute.' });
  });

  it('sends a thrown ToolError of a tool without an error arm as text, keeping its kind', async () => {
    const result = await call('undeclared');
    expect(result['isError']).toBe(true);
    expect(result['structuredContent']).toBeUndefined();
    expect(textOf(result)).toBe('maintenance: The weather service is down for maintenance until 10:00 UTC.');
  });
});
