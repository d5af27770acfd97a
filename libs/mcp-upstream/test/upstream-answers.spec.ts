import type { Logger } from '@toolsets/core';
import { failedRequest } from '../src/upstream-answers';

describe("what an upstream request's failure answers", () => {
  const warned: unknown[] = [];
  const logger = { info: () => undefined, warn: (...entry: unknown[]) => void warned.push(entry), error: () => undefined, debug: () => undefined } as unknown as Logger;
  const check = { upstream: 'jobs', logger, secrets: { authorization: 'Bearer s3cr3t' } };

  it('names the deadline that passed: a task result waited on longer than a call says so', () => {
    const call = failedRequest('slow', { failed: new Error('no answer within 2000 ms'), timedOut: true, timeoutMs: 2_000, redacting: {} }, check);
    const task = failedRequest('the result of slow', { failed: new Error('no answer within 90000 ms'), timedOut: true, timeoutMs: 90_000, redacting: {} }, check);
    expect([call.error, call.detail]).toEqual(['upstream_timeout', 'The upstream MCP server of jobs did not answer slow within 2 s. Try again later, or ask for less.']);
    expect(task.detail).toBe('The upstream MCP server of jobs did not answer the result of slow within 90 s. Try again later, or ask for less.');
  });

  it("keeps the credentials it sent out of what it logs and answers", () => {
    const failed = failedRequest('get_forecast', { failed: new Error('socket hang up near Bearer s3cr3t'), timedOut: false, timeoutMs: 2_000, redacting: {} }, check);
    expect(failed.error).toBe('upstream_unavailable');
    expect(JSON.stringify([failed, warned])).not.toContain('s3cr3t');
    expect(JSON.stringify(warned)).toContain('socket hang up');
  });
});
