#!/usr/bin/env node
// Writes server.json, the MCP Registry's description of a packed publishable app (package-app.cjs
// first), into <outDir> beside its tarball: its name (`mcpName` in the app's package.json, which the
// registry checks against the npm package), version and description; the npm package run over stdio
// with each credential header as a secret environment variable; and, when `mcpRegistry` in the
// app's package.json names them, its container image (`image`), its MCP Bundle (`mcpbUrl`, where the
// release serves the .mcpb the mcpb target wrote; its SHA-256 is computed here) and its remote
// endpoint (`remote`). The document is validated against the registry's schema (tools/build/schemas)
// before it is written. Usage: server-json-app.cjs <appRoot> [outDir], outDir defaulting to
// <appRoot>/dist-package.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const root = path.join(__dirname, '../..');
const appRoot = path.resolve(root, process.argv[2] ?? '');
const out = process.argv[3] ? path.resolve(process.argv[3]) : path.join(appRoot, 'dist-package');
const where = path.relative(root, path.join(appRoot, 'package.json'));

function fail(message) {
  console.error(message);
  process.exit(1);
}

if (!fs.existsSync(path.join(out, 'package.json'))) fail(`No packed app in ${path.relative(root, out)}: run the package target first.`);
const pkg = JSON.parse(fs.readFileSync(path.join(out, 'package.json'), 'utf-8'));
const settings = pkg.mcpRegistry ?? {};
const bin = Object.keys(pkg.bin ?? {})[0];

if (!pkg.mcpName) fail(`${where} has no "mcpName": set it to the name you publish the server under, such as "io.github.<you>/${bin}" (the registry checks it against the npm package).`);
if (!NAME.test(pkg.mcpName)) fail(`"mcpName" in ${where} is ${JSON.stringify(pkg.mcpName)}: give a reverse-DNS name with one slash, such as "io.github.<you>/${bin}".`);
const description = settings.description ?? pkg.description ?? '';
if (description.length < 1 || description.length > 100) {
  fail(`The description in ${where} is ${description.length} characters; the registry takes 1 to 100: set "mcpRegistry": { "description": "…" } (or shorten "description").`);
}

// What the app's own servers declare: the credential headers a client must send (the gate runs here too).
const core = require(require.resolve('@toolsets/core', { paths: [path.join(appRoot, 'dist')] }));
const built = require(path.join(appRoot, 'dist/servers.js')).buildServers();
const servers = Array.isArray(built) ? built : [built];
const headers = [...new Set(servers.flatMap((server) => server.credentialHeaders))];
const readers = (header) => servers.flatMap((server) => server.catalog.toolsets.filter((toolset) => toolset.credentialHeaders.includes(header)).map((toolset) => toolset.name));
const secret = (name, header) => ({ name, description: `The ${header} credential the ${[...new Set(readers(header))].join(', ')} tools read.`, isRequired: true, isSecret: true });

const packages = [
  {
    registryType: 'npm',
    registryBaseUrl: 'https://registry.npmjs.org',
    identifier: pkg.name,
    version: pkg.version,
    runtimeHint: 'npx',
    transport: { type: 'stdio' },
    packageArguments: [{ type: 'positional', value: '--stdio' }],
    ...(headers.length > 0 && { environmentVariables: headers.map((header) => secret(core.credentialEnvironmentVariable(header), header)) }),
  },
];
if (settings.image) {
  if (!/[:@]/.test(settings.image.split('/').pop())) fail(`"mcpRegistry.image" in ${where} is ${JSON.stringify(settings.image)}: give a tag or digest, such as "ghcr.io/<you>/${bin}:${pkg.version}".`);
  packages.push({
    registryType: 'oci',
    identifier: settings.image,
    runtimeHint: 'docker',
    // The image serves streamable HTTP on 0.0.0.0:8000 and refuses to start without the host names clients use.
    runtimeArguments: [{ type: 'named', name: '-p', value: '8000:8000' }],
    transport: { type: 'streamable-http', url: 'http://localhost:8000/mcp', ...(headers.length > 0 && { headers: headers.map((header) => secret(header, header)) }) },
    environmentVariables: [{ name: 'ALLOWED_HOSTS', description: 'Host names clients reach the server by, comma-separated.', default: 'localhost', isRequired: true }],
  });
}
if (settings.mcpbUrl) {
  const file = path.join(out, `${bin}.mcpb`);
  if (!fs.existsSync(file)) fail(`"mcpRegistry.mcpbUrl" is set in ${where}, but ${path.relative(root, file)} is missing: run the mcpb target first, so its SHA-256 goes into server.json.`);
  const identifier = settings.mcpbUrl.replaceAll('{version}', pkg.version);
  if (!identifier.startsWith('https://')) fail(`"mcpRegistry.mcpbUrl" in ${where} is ${JSON.stringify(identifier)}: give the HTTPS URL the release serves the .mcpb at.`);
  packages.push({ registryType: 'mcpb', identifier, version: pkg.version, fileSha256: createHash('sha256').update(fs.readFileSync(file)).digest('hex'), transport: { type: 'stdio' } });
}

const document = {
  $schema: SERVER_JSON_SCHEMA,
  name: pkg.mcpName,
  description,
  version: pkg.version,
  ...(settings.title && { title: settings.title }),
  ...(settings.websiteUrl && { websiteUrl: settings.websiteUrl }),
  ...(settings.repository && { repository: settings.repository }),
  packages,
  ...(settings.remote && { remotes: [{ type: 'streamable-http', url: settings.remote, ...(headers.length > 0 && { headers: headers.map((header) => secret(header, header)) }) }] }),
};

const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const valid = ajv.compile(JSON.parse(fs.readFileSync(path.join(__dirname, 'schemas/server.schema.json'), 'utf-8')));
if (!valid(document)) fail(`server.json would not pass the registry's schema:\n${valid.errors.map((error) => `  ${error.instancePath || '/'} ${error.message}`).join('\n')}`);
const file = path.join(out, 'server.json');
fs.writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
console.log(`wrote ${path.relative(root, file)} (${document.name} ${document.version}: ${packages.map((p) => p.registryType).join(', ')}${document.remotes ? ', remote' : ''})`);
