import { rateLimitedLogger } from '../../src/server/logging/rate-limited-logger';
import { redactorFor, redactingLogger } from '../../src/server/logging/redaction';
import { clip } from '../../src/helpers/client-text';
import { recordingLogger } from '../support/connect';

describe('log hygiene', () => {
  it('lets 20 warnings of one message through per window, then reports how many it suppressed', () => {
    const log = recordingLogger();
    let now = 1_000;
    const spy = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const limited = rateLimitedLogger(log.logger, { burst: 20, windowMs: 10_000 });
      for (let i = 0; i < 50; i++) limited.warn('mcp request failed', { i });
      limited.warn('another message');
      expect(log.lines.filter((l) => l.message === 'mcp request failed')).toHaveLength(20);
      expect(log.lines.filter((l) => l.message === 'another message')).toHaveLength(1);
      now += 10_000;
      limited.warn('mcp request failed', { i: 50 });
      expect(log.lines.at(-1)).toEqual({ level: 'warn', message: 'mcp request failed', fields: { i: 50, suppressed: 30 } });
    } finally {
      spy.mockRestore();
    }
  });

  it('redacts each credential value, as sent and URL-encoded, from the message and nested fields', () => {
    const log = recordingLogger();
    const logger = redactingLogger(log.logger, redactorFor([['x-key', 'a b/c']]));
    logger.error('failed with a b/c', { detail: { url: 'https://x.example?k=a%20b%2Fc' }, list: ['a b/c'] });
    expect(log.lines[0]).toEqual({
      level: 'error',
      message: 'failed with [redacted x-key]',
      fields: { detail: { url: 'https://x.example?k=[redacted x-key]' }, list: ['[redacted x-key]'] },
    });
  });

  it('cuts a client-supplied string to 200 characters and says how long it was', () => {
    expect(clip('x'.repeat(201))).toBe(`${'x'.repeat(200)}… (201 characters)`);
    expect(clip('short')).toBe('short');
  });
});
