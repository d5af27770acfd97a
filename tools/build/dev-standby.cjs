#!/usr/bin/env node
// A server process started ahead of need by dev-app.cjs: it loads @toolsets/core and the MCP SDK
// (most of a server's start) and waits; told to go, it runs the app's main as `node <main> args…`
// would. The app's own modules and its toolset libraries are loaded then, fresh from disk.
// Usage (by dev-app.cjs only): dev-standby.cjs <main> [server arguments...]
const { createRequire } = require('node:module');

const [main, ...args] = process.argv.slice(2);
const fromApp = createRequire(main);
for (const module of ['reflect-metadata', '@toolsets/core', '@toolsets/openapi']) {
  try {
    fromApp(module);
  } catch {
    // Not every workspace has every package: what is missing loads (or fails) when the app asks for it.
  }
}
// A watcher that ends before it needs this process takes it along.
const orphaned = () => process.exit(0);
process.once('disconnect', orphaned);
process.once('message', (message) => {
  if (message !== 'go') return;
  process.off('disconnect', orphaned);
  process.argv = [process.argv[0], main, ...args];
  // Off the IPC channel: a server that outlives dev-app.cjs must not keep it open.
  process.channel?.unref();
  require(main);
});
process.send?.('ready');
