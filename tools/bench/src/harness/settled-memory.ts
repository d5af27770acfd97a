/**
 * This process's heap and resident memory (bytes) after full collections, with a turn of the event
 * loop between them so that what a collection frees (finalizers, weak references) is let go too.
 * Needs `node --expose-gc`, as every scenario runs.
 */
export async function settledMemory(): Promise<{ heap: number; rss: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { heapUsed, rss } = process.memoryUsage();
  return { heap: heapUsed, rss };
}
