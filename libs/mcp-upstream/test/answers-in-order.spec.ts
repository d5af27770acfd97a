import { join } from 'node:path';
import { specTypeSchemas } from '@modelcontextprotocol/client';
import { UpstreamConnection } from '../src';

describe("an upstream's progress read in one chunk with its answer", () => {
  const connection = new UpstreamConnection(
    { name: 'burst', transport: { kind: 'stdio', command: process.execPath, args: [join(__dirname, 'fixtures/burst-server.cjs')] }, secrets: {} },
    { kind: 'legacy' },
  );
  afterAll(() => connection.close());

  it('reaches the caller before the answer, every step of it', async () => {
    const client = await connection.client(new AbortController().signal);
    for (let call = 0; call < 5; call++) {
      const seen: string[] = [];
      const answered = client
        .request({ method: 'tools/call', params: { name: 'count', arguments: {} } }, specTypeSchemas.CallToolResult, { onprogress: (update) => void seen.push(`progress ${update.progress}`) })
        .then(() => seen.push('answer'));
      await answered;
      expect(seen).toEqual(['progress 1', 'progress 2', 'progress 3', 'answer']);
    }
  });
});
