import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { serveHttp } from '@toolsets/core';
import { bareHello, toolsetsHelloServer } from '../contenders/hello-contenders';
import { portOf, startFloor } from '../contenders/floor-contender';

/** Starts one contender's HTTP server on a free loopback port; prints `PORT <n>` when ready. */
export async function startHttpContender(contender: string): Promise<void> {
  const logger = { info: () => undefined, warn: () => undefined, error: console.error };
  if (contender === 'toolsets') {
    const handle = await serveHttp(toolsetsHelloServer(), { port: 0, logger, maxBodyBytes: 2 * 2 ** 20 });
    console.log(`PORT ${new URL(handle.origin).port}`);
    return;
  }
  if (contender === 'toolsets-sdk') {
    const handle = await serveHttp(toolsetsHelloServer(), { port: 0, logger, maxBodyBytes: 2 * 2 ** 20, fastPath: false });
    console.log(`PORT ${new URL(handle.origin).port}`);
    return;
  }
  if (contender === 'floor') {
    console.log(`PORT ${portOf(await startFloor())}`);
    return;
  }
  if (contender === 'toolsets-unguarded') {
    const lifted = { maxArgumentItems: 2 ** 30, maxArgumentStringLength: 2 ** 30, maxArgumentDepth: 2 ** 30 };
    const handle = await serveHttp(toolsetsHelloServer(), { port: 0, logger, maxBodyBytes: 2 * 2 ** 20, ...lifted });
    console.log(`PORT ${new URL(handle.origin).port}`);
    return;
  }
  // The same SDK serving path with the same loopback guards, around the bare low-level Server.
  const factory = bareHello();
  const node = toNodeHandler(createMcpHandler(factory, { legacy: 'stateless' }));
  const validHost = localhostHostValidation();
  const validOrigin = localhostOriginValidation();
  const http = createServer((req, res) => {
    if (!validHost(req, res) || !validOrigin(req, res)) return;
    void node(req, res);
  });
  http.listen(0, '127.0.0.1', () => console.log(`PORT ${(http.address() as AddressInfo).port}`));
}
