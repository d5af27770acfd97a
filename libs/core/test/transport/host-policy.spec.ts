import 'reflect-metadata';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { buildServer, Field, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle } from '../../src';
import { recordingLogger } from '../support/connect';

class PingResult extends ToolResult {
  @Field()
  ok!: boolean;
}

@Toolset({ name: 'probe' })
class ProbeToolset {
  @Tool({ description: 'Ping.', returns: PingResult })
  ping(): PingResult {
    return { message: 'pong', ok: true };
  }
}

function status(port: number, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host }, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A non-loopback IPv4 address of this machine, as a kubelet or Prometheus reaches a pod by. */
const ownAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

describe('bound to 0.0.0.0 with ALLOWED_HOSTS (a pod)', () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    const logger = recordingLogger().logger;
    http = await serveHttp(buildServer({ name: 'probe', version: '1', toolsets: [ProbeToolset], logger }), { host: '0.0.0.0', port: 0, allowedHosts: ['probe.svc'], logger, drainDelayMs: 0, metrics: true });
  });
  afterAll(() => http.close());
  const port = () => Number(new URL(http.origin).port);

  it("answers a probe or scrape addressed to the machine's own IP, as to an allowed name", async () => {
    if (!ownAddress) throw new Error('this machine has no non-loopback IPv4 address to test with');
    expect(await status(port(), '/ready', `${ownAddress}:${port()}`)).toBe(200);
    expect(await status(port(), '/metrics', `${ownAddress}:${port()}`)).toBe(200);
    expect(await status(port(), '/ready', 'probe.svc')).toBe(200);
  });

  it('still refuses any other name or address', async () => {
    expect(await status(port(), '/ready', 'attacker.example')).toBe(403);
    expect(await status(port(), '/metrics', '203.0.113.9')).toBe(403);
  });
});
