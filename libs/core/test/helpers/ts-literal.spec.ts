import { tsKey, tsLiteral, tsString } from '../../src/helpers/ts-literal';

/** What the literal evaluates to as JavaScript reads it. */
const evaluate = (literal: string): unknown => new Function(`return (${literal});`)();

describe('literals written into generated code', () => {
  it('writes strings in single quotes that read back as the same string, whatever they hold', () => {
    const tricky = ["plain", "it's", 'say "hi"', 'back\\slash \\\' mix', 'line\nbreak\ttab', '\u2028 and \u2029', 'emoji 🚀 and ü', '', "'", '\\', '\\\''];
    for (const text of tricky) {
      const literal = tsString(text);
      expect([literal.startsWith("'"), literal.endsWith("'"), evaluate(literal)]).toEqual([true, true, text]);
    }
    expect(tsString('Tomorrow\'s "best" day')).toBe(`'Tomorrow\\'s "best" day'`);
  });

  it('writes arrays and objects with bare identifier keys, quoting the others, and reads back the same value', () => {
    const value = { description: "It's here.", 'x-mcp-header': 'Region', nested: { values: ['a', "b'c"], n: 1.5, on: true, none: null } };
    expect(tsLiteral(value)).toBe(`{ description: 'It\\'s here.', 'x-mcp-header': 'Region', nested: { values: ['a', 'b\\'c'], n: 1.5, on: true, none: null } }`);
    expect(evaluate(tsLiteral(value))).toEqual(value);
    expect([tsKey('ok_1'), tsKey('1bad'), tsKey('with-dash')]).toEqual(['ok_1', "'1bad'", "'with-dash'"]);
  });
});
