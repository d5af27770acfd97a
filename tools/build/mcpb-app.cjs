#!/usr/bin/env node
// Writes an MCP Bundle (.mcpb) for a packed publishable app (package-app.cjs first): its tools and
// descriptions from the app's own catalog, each credential header as a sensitive user_config
// entry mapped to its environment variable, and the package installed with its production
// dependencies. `mcpb validate` checks the manifest and `mcpb pack` packs it into
// <appRoot>/dist-package/<bin>.mcpb. Usage: mcpb-app.cjs <appRoot> [outDir], outDir being where
// package-app.cjs packed it (default <appRoot>/dist-package).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '../..');
const appRoot = path.resolve(root, process.argv[2] ?? '');
const out = process.argv[3] ? path.resolve(process.argv[3]) : path.join(appRoot, 'dist-package');
const pkg = JSON.parse(fs.readFileSync(path.join(out, 'package.json'), 'utf-8'));
const tarball = fs.readdirSync(out).find((file) => file.endsWith('.tgz'));
if (!tarball) {
  console.error(`No packed app in ${path.relative(root, out)}: run the package target first.`);
  process.exit(1);
}
const bin = Object.keys(pkg.bin)[0];
const mcpb = (...args) => execFileSync(process.execPath, [path.join(root, 'node_modules/@anthropic-ai/mcpb/dist/cli/cli.js'), ...args], { encoding: 'utf-8' });

// The catalog, as the app's own servers build it (the startup gate runs here too).
const core = require(require.resolve('@toolsets/core', { paths: [path.join(appRoot, 'dist')] }));
const built = require(path.join(appRoot, 'dist/servers.js')).buildServers();
const servers = Array.isArray(built) ? built : [built];
const tools = servers.flatMap((server) => [...server.catalog.tools.values()].map((tool) => ({ name: tool.name, description: tool.descriptor.description })));
const headers = [...new Set(servers.flatMap((server) => server.credentialHeaders))];
const variable = (header) => core.credentialEnvironmentVariable(header);
const key = (header) => variable(header).toLowerCase();

const bundle = fs.mkdtempSync(path.join(os.tmpdir(), `${bin}-mcpb-`));
fs.writeFileSync(path.join(bundle, 'package.json'), JSON.stringify({ name: `${bin}-bundle`, private: true }));
execFileSync('npm', ['install', path.join(out, tarball), '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: bundle, stdio: 'inherit' });
const entry = `node_modules/${pkg.name}/dist/main.js`;
const manifest = {
  manifest_version: '0.3',
  name: bin,
  display_name: pkg.mcpb?.displayName ?? bin,
  version: pkg.version,
  description: pkg.description,
  author: { name: pkg.mcpb?.author ?? pkg.name },
  server: {
    type: 'node',
    entry_point: entry,
    mcp_config: {
      command: 'node',
      args: [`\${__dirname}/${entry}`, '--stdio'],
      env: Object.fromEntries(headers.map((header) => [variable(header), `\${user_config.${key(header)}}`])),
    },
  },
  tools,
  user_config: Object.fromEntries(
    headers.map((header) => [
      key(header),
      { type: 'string', title: header, description: `Sent to the server as its ${header} credential (the ${variable(header)} environment variable).`, sensitive: true, required: true },
    ]),
  ),
  compatibility: { runtimes: { node: pkg.engines?.node ?? '^20.19.0 || >=22.13.0' } },
};
fs.writeFileSync(path.join(bundle, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(mcpb('validate', path.join(bundle, 'manifest.json')).trim());
const file = path.join(out, `${bin}.mcpb`);
console.log(mcpb('pack', bundle, file).trim().split('\n').slice(-3).join('\n'));
fs.rmSync(bundle, { recursive: true, force: true });
console.log(`wrote ${path.relative(root, file)}`);
