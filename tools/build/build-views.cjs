#!/usr/bin/env node
// Builds a toolset library's MCP Apps views: every views/<name>/index.html (with the TypeScript and
// CSS it loads) becomes one self-contained dist/views/<name>.html, its scripts and styles inlined,
// which `viewBundle(__dirname, '<name>')` finds and the server serves as `ui://…`. Hosts render a
// view from that one document in a sandboxed iframe with no server of its own behind it, so
// nothing may be left to fetch: Vite bundles and vite-plugin-singlefile inlines (the pairing the
// MCP Apps SDK's own examples use). Usage: build-views.cjs <projectRoot>
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');

const args = process.argv.slice(2);
if (args.length !== 1) {
  console.error('Usage: build-views.cjs <projectRoot>');
  process.exit(2);
}

/** Bundles `folder`/index.html and everything it loads into the one file `target`. */
async function buildPage(folder, target) {
  const { build } = await import('vite');
  const { viteSingleFile } = await import('vite-plugin-singlefile');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'view-'));
  try {
    await build({
      root: folder,
      configFile: false,
      logLevel: 'warn',
      plugins: [viteSingleFile()],
      build: { outDir: scratch, emptyOutDir: true, minify: true, reportCompressedSize: false },
    });
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(scratch, 'index.html'), target);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function main() {
  const root = path.resolve(args[0]);
  const viewsDir = path.join(root, 'views');
  const outDir = path.join(root, 'dist', 'views');
  const names = fs.existsSync(viewsDir)
    ? fs.readdirSync(viewsDir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && fs.existsSync(path.join(viewsDir, entry.name, 'index.html'))).map((entry) => entry.name)
    : [];
  for (const name of names) {
    const target = path.join(outDir, `${name}.html`);
    await buildPage(path.join(viewsDir, name), target);
    console.log(`built view ${name}: ${path.relative(process.cwd(), target)} (${fs.statSync(target).size} bytes)`);
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
