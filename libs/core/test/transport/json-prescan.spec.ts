import { prescanJson } from '../../src/transport/guards/json-prescan';

const LIMITS = { maxDepth: 10, maxItems: 100, maxStringBytes: 20_000 };
const pad = (json: string) => Buffer.from(json.replace(/}$/, `,"pad":"${' '.repeat(17_000)}"}`));

describe('the JSON body prescan', () => {
  it('passes a large body within every limit', () => {
    expect(prescanJson(pad(JSON.stringify({ a: [[1, 2], { b: [3] }], s: 'x'.repeat(100) })), LIMITS)).toBeUndefined();
  });

  it('finds nesting deeper than the limit', () => {
    expect(prescanJson(pad(`{"a":${'['.repeat(11)}${']'.repeat(11)}}`), LIMITS)).toBe('depth');
    expect(prescanJson(pad(`{"a":${'['.repeat(9)}${']'.repeat(9)}}`), LIMITS)).toBeUndefined();
  });

  it('counts array items across all arrays', () => {
    expect(prescanJson(pad(JSON.stringify({ a: Array(60).fill(0), b: Array(60).fill(0) })), LIMITS)).toBe('items');
    expect(prescanJson(pad(JSON.stringify({ a: Array(49).fill(0), b: Array(50).fill(0) })), LIMITS)).toBeUndefined();
  });

  it('counts the keys of each object on their own', () => {
    const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
    expect(prescanJson(pad(JSON.stringify({ a: keys(101) })), LIMITS)).toBe('keys');
    expect(prescanJson(pad(JSON.stringify({ a: keys(100), b: keys(100), c: [keys(100)] })), LIMITS)).toBeUndefined();
  });

  it('ignores brackets, commas and escaped quotes inside strings', () => {
    const tricky = JSON.stringify({ s: `${'[,'.repeat(200)}\\"]]]` });
    expect(prescanJson(pad(tricky), LIMITS)).toBeUndefined();
  });

  it('finds a string longer than the limit, closed or not', () => {
    expect(prescanJson(Buffer.from(JSON.stringify({ s: 'x'.repeat(20_001) })), LIMITS)).toBe('string');
    expect(prescanJson(Buffer.from(`{"s":"${'x'.repeat(20_001)}`), LIMITS)).toBe('string');
  });

  it('passes a string of exactly the limit, closed or not', () => {
    expect(prescanJson(Buffer.from(JSON.stringify({ s: 'x'.repeat(20_000) })), LIMITS)).toBeUndefined();
    expect(prescanJson(Buffer.from(`{"s":"${'x'.repeat(20_000)}`), LIMITS)).toBeUndefined();
  });

  it('counts exactly the limit of items and of keys as within it', () => {
    const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
    // pad() adds one key to the outer object and no array item.
    expect(prescanJson(pad(JSON.stringify({ a: Array(100).fill(0) })), LIMITS)).toBeUndefined();
    expect(prescanJson(pad(JSON.stringify({ a: Array(101).fill(0) })), LIMITS)).toBe('items');
    expect(prescanJson(pad(JSON.stringify({ a: keys(100) })), LIMITS)).toBeUndefined();
    expect(prescanJson(pad(JSON.stringify(keys(99))), LIMITS)).toBeUndefined();
    expect(prescanJson(pad(JSON.stringify(keys(100))), LIMITS)).toBe('keys');
  });

  it('skips bodies too small to stall anything', () => {
    expect(prescanJson(Buffer.from(`${'['.repeat(50)}${']'.repeat(50)}`), LIMITS)).toBeUndefined();
  });
});
