#!/usr/bin/env node
// Compiles a project's src/**/*.ts to CommonJS with swc (decorator metadata kept), one file at a
// time: type checking is the typecheck target's job. Usage: build-project.cjs <srcDir> <outDir>
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');
const options = require('./swc-options.cjs');

const [srcArg, outArg] = process.argv.slice(2);
if (!srcArg || !outArg) {
  console.error('Usage: build-project.cjs <srcDir> <outDir>');
  process.exit(2);
}
const srcDir = path.resolve(srcArg);
const outDir = path.resolve(outArg);

function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.ts$/.test(entry.name) && !/\.(spec|test|type-test)\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

fs.rmSync(outDir, { recursive: true, force: true });
const files = sources(srcDir);
for (const file of files) {
  const out = path.join(outDir, path.relative(srcDir, file)).replace(/\.ts$/, '.js');
  const { code, map } = swc.transformFileSync(file, { ...options, sourceMaps: true, filename: file, outputPath: out });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${code}\n//# sourceMappingURL=${path.basename(out)}.map\n`);
  if (map) fs.writeFileSync(`${out}.map`, map);
}
console.log(`built ${files.length} files into ${path.relative(process.cwd(), outDir) || '.'}`);
