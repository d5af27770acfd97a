import 'reflect-metadata';
import { IsIn } from 'class-validator';
import { buildServer, Field, RequireScopes, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle, type Logger, type ServerDefinition } from '@toolsets/core';
import { rawToolsCall, startTestIssuer, type TestIssuer } from '../../src';

class Done extends ToolResult {}

class WriteArgs {
  @Field({ description: 'What to write.' })
  @IsIn(['a', 'b'])
  text!: string;
}

/** A token-checked toolset whose tools need one scope, and two. */
@Toolset({ name: 'vault', description: 'Things behind scopes.' })
@RequireScopes('vault:use')
class VaultToolset {
  @Tool({ description: 'Peek.', returns: Done, annotations: { readOnlyHint: true } })
  peek(): Done {
    return { message: 'peeked' };
  }

  @Tool({ description: 'Write.', args: WriteArgs, returns: Done })
  @RequireScopes('vault:write')
  write({ text }: WriteArgs): Done {
    return { message: `wrote ${text}` };
  }
}

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
/** Headers that vary per response and say nothing about the answer. */
const VARYING = new Set(['date', 'keep-alive', 'connection']);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function send(origin: string, era: '2025' | 'modern', token: string | undefined, tool: string, args: object): Promise<Answer> {
  const response = await rawToolsCall(origin, era, { tool, args, id: 7, ...(token !== undefined && { headers: { authorization: `Bearer ${token}` } }) });
  const headers: Record<string, string> = {};
  // The challenge names the server's own metadata URL: compared without its port.
  for (const [name, value] of response.headers) if (!VARYING.has(name)) headers[name] = value.replace(origin, '<origin>');
  return { status: response.status, headers, body: (await response.text()).split(origin).join('<origin>') };
}

/**
 * The fast path's differential on a token-checked mount: every call of both eras, with every kind
 * of token (none, forged, expired, for another audience, without scopes, with one of the two, with
 * both), to a tool that needs one scope, one that needs two, and one that does not exist, under
 * both answers to a missing scope (step-up and hide), answered in the same bytes as through the SDK.
 */
describe('the fast path on a mount that checks tokens, with tools that need one scope and two', () => {
  let issuer: TestIssuer;
  beforeAll(async () => (issuer = await startTestIssuer()));
  afterAll(() => issuer.close());

  it.each(['step-up', 'hide'] as const)('answers every call as the SDK path does, with AUTH_OUT_OF_SCOPE=%s', async (outOfScope) => {
    /** SDK servers made for requests, by path: the fast path makes none for the calls it takes. */
    const made = { fast: 0, sdk: 0 };
    const serve = (fastPath: boolean): Promise<HttpServerHandle> => {
      const definition = buildServer({ name: 'vault', version: '1', toolsets: [VaultToolset], logger: quiet });
      const serverFactory: ServerDefinition['serverFactory'] = (connection) => {
        const factory = definition.serverFactory(connection);
        return (context) => {
          made[fastPath ? 'fast' : 'sdk']++;
          return factory(context);
        };
      };
      return serveHttp({ ...definition, serverFactory }, { port: 0, fastPath, drainDelayMs: 0, drainTimeoutMs: 300, auth: { issuer: issuer.issuer, outOfScope }, logger: quiet });
    };
    const [fast, sdk] = await Promise.all([serve(true), serve(false)]);
    try {
      const audience = [fast.mounts[0]!.url, sdk.mounts[0]!.url];
      const tokens: Record<string, string | undefined> = {
        none: undefined,
        garbage: 'not-a-jwt',
        forged: await issuer.mint({ audience, scopes: ['vault:use', 'vault:write'], foreignKey: true }),
        expired: await issuer.mint({ audience, scopes: ['vault:use', 'vault:write'], expiresIn: -600 }),
        'other audience': await issuer.mint({ audience: 'https://elsewhere.example/mcp', scopes: ['vault:use', 'vault:write'] }),
        'no scopes': await issuer.mint({ audience }),
        'vault:use': await issuer.mint({ audience, scopes: ['vault:use'] }),
        'vault:write': await issuer.mint({ audience, scopes: ['vault:write'] }),
        both: await issuer.mint({ audience, scopes: ['vault:use', 'vault:write'] }),
      };
      const calls: [string, object][] = [
        ['peek', {}],
        ['write', { text: 'a' }],
        ['write', { text: 'z' }],
        ['nope', {}],
      ];
      const differences: string[] = [];
      const statuses = new Set<number>();
      let served = 0;
      for (const era of ['2025', 'modern'] as const) {
        for (const [kind, token] of Object.entries(tokens)) {
          for (const [tool, args] of calls) {
            const [a, b] = await Promise.all([send(fast.origin, era, token, tool, args), send(sdk.origin, era, token, tool, args)]);
            statuses.add(a.status);
            if (a.body.includes('"structuredContent"')) served++;
            if (JSON.stringify(a) !== JSON.stringify(b)) differences.push(`${era} ${kind} ${tool}\n  fast: ${JSON.stringify(a).slice(0, 500)}\n  sdk:  ${JSON.stringify(b).slice(0, 500)}`);
          }
        }
      }
      expect(differences).toEqual([]);
      // The corpus reached refusals and answers alike: 401s, a 403 under step-up, and tools that ran.
      expect(statuses.has(401)).toBe(true);
      expect(statuses.has(403)).toBe(outOfScope === 'step-up');
      expect(served).toBeGreaterThanOrEqual(6);
      // The fast path took the calls with a valid token (the SDK path made a server for each of them).
      expect(made.sdk - made.fast).toBeGreaterThanOrEqual(served);
    } finally {
      await Promise.all([fast.close(), sdk.close()]);
    }
  }, 60_000);
});
