// Builds this host page into one self-contained file, dist/index.html: `npx vite build` in this
// folder, anywhere, with the four packages README.md names installed. The e2e tests build it so,
// from a copy outside the workspace.
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

export default defineConfig({
  logLevel: 'warn',
  plugins: [viteSingleFile()],
  build: { outDir: 'dist', emptyOutDir: true, minify: true, reportCompressedSize: false },
});
