#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startTestIssuer } from '../test-issuer';

const USAGE = `Usage: toolsets-issuer [--port 9000] [--server-port 8000 | --audience http://127.0.0.1:8000/mcp] [--scopes notes:read,notes:write]

--server-port is the PORT the server will listen on: the tokens are for its /mcp, and the printed
command starts it there. --audience names the server's URL outright instead.

A local OAuth issuer on loopback for trying a server's authorization: its metadata, a key set, a
client for the client-credentials flow, ready tokens, and the authorization-code flow with PKCE
for interactive clients (the MCP Inspector, Claude, mcp-remote): they register themselves and its
page signs them in as local-user with one button. Every token it signs is valid: never point a
deployed server at it.`;

/**
 * An issuer to try authorization with in five minutes (docs/authorization.md): starts on the port,
 * registers one client with every scope, and prints the server command, the client's id and
 * secret, and a token per scope set (each one scope more than the last), valid for an hour.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '9000' },
      'server-port': { type: 'string', default: '8000' },
      audience: { type: 'string' },
      scopes: { type: 'string', default: 'notes:read,notes:write' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be a port number (0-65535), not ${JSON.stringify(values.port)}.`);
  const scopes = values.scopes.split(',').map((scope) => scope.trim()).filter(Boolean);
  const serverPort = Number(values['server-port']);
  if (!Number.isInteger(serverPort) || serverPort < 1 || serverPort > 65_535) throw new Error(`--server-port must be a port number (1-65535), not ${JSON.stringify(values['server-port'])}.`);
  const audience = values.audience ?? `http://127.0.0.1:${serverPort}/mcp`;
  // The server's own port, so the printed command serves exactly the audience the tokens name.
  const listensOn = new URL(audience).port || String(serverPort);
  const issuer = await startTestIssuer({ port, audience, user: 'local-user' });
  const client = { clientId: 'local-client', clientSecret: 'local-secret', scopes, subject: 'local-user' };
  issuer.registerClient(client);
  const tokens = await Promise.all(scopes.map((_, index) => issuer.mint({ subject: 'local-user', scopes: scopes.slice(0, index + 1), expiresIn: 3600 })));
  process.stdout.write(
    [
      `Local OAuth issuer on ${issuer.issuer} (for trying authorization only: it signs whatever is asked).`,
      '',
      `Start the server against it:   PORT=${listensOn} AUTH_ISSUER=${issuer.issuer} node apps/notes-server/dist/main.js`,
      `Client credentials:            client_id=${client.clientId} client_secret=${client.clientSecret} scopes="${scopes.join(' ')}" (token endpoint ${issuer.issuer}/token)`,
      `Call with them:                TOOLSETS_CALL_CLIENT_ID=${client.clientId} TOOLSETS_CALL_CLIENT_SECRET=${client.clientSecret} TOOLSETS_CALL_ISSUER=${issuer.issuer} npm run call -- ${audience} --list`,
      `Interactive clients:           connect to ${audience}; they register themselves (${issuer.issuer}/register) and sign in at ${issuer.issuer}/authorize (PKCE), as local-user with any of these scopes`,
      `Tokens for ${audience}, valid for an hour (send as Authorization: Bearer <token>):`,
      ...tokens.map((token, index) => `  ${scopes.slice(0, index + 1).join(' ')}:\n    ${token}`),
      '',
      'Ctrl-C stops it.',
      '',
    ].join('\n'),
  );
  const stop = () => void issuer.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: NodeJS.ErrnoException) => {
  const hint = error.code === 'EADDRINUSE' ? ' That port is taken: give another with --port.' : '';
  process.stderr.write(`${error.message}${hint}\n`);
  process.exit(1);
});
