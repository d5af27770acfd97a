import { pathText, queryPairs, type ParameterStyle } from '../src/parameter-style';

/**
 * OpenAPI's "Style Examples" table (3.1.1, §4.8.12.4; it corrects 3.0's `label` rows to RFC 6570),
 * one test per row: the parameter `color` as the empty string, `"blue"`, `["blue", "black"]` and
 * `{ R: 100, G: 200, B: 150 }`. `n/a` cells are combinations the table leaves undefined.
 */
const values = { empty: '', string: 'blue', array: ['blue', 'black'], object: { R: 100, G: 200, B: 150 } };
type Row = [style: ParameterStyle, explode: boolean, empty: string | null, string: string | null, array: string | null, object: string | null];

const table: Row[] = [
  ['matrix', false, ';color', ';color=blue', ';color=blue,black', ';color=R,100,G,200,B,150'],
  ['matrix', true, ';color', ';color=blue', ';color=blue;color=black', ';R=100;G=200;B=150'],
  ['label', false, '.', '.blue', '.blue,black', '.R,100,G,200,B,150'],
  ['label', true, '.', '.blue', '.blue.black', '.R=100.G=200.B=150'],
  ['form', false, 'color=', 'color=blue', 'color=blue,black', 'color=R,100,G,200,B,150'],
  ['form', true, 'color=', 'color=blue', 'color=blue&color=black', 'R=100&G=200&B=150'],
  ['simple', false, null, 'blue', 'blue,black', 'R,100,G,200,B,150'],
  ['simple', true, null, 'blue', 'blue,black', 'R=100,G=200,B=150'],
  // The table gives these two rows' values alone (`blue%20black`); here with the name, decoded.
  ['spaceDelimited', false, null, null, 'color=blue black', 'color=R 100 G 200 B 150'],
  ['pipeDelimited', false, null, null, 'color=blue|black', 'color=R|100|G|200|B|150'],
  ['deepObject', true, null, null, null, 'color[R]=100&color[G]=200&color[B]=150'],
];

/** A parameter as the table writes it: path styles as text, query styles as `name=value` pairs joined by `&`, unencoded. */
function serialise(style: ParameterStyle, explode: boolean, value: unknown): string {
  if (style === 'matrix' || style === 'label' || style === 'simple') return decodeURIComponent(pathText('color', value, { style, explode }));
  return queryPairs('color', value, { style, explode })
    .map(([name, text]) => `${name}=${text}`)
    .join('&');
}

describe('parameter serialisation, row by row of the OpenAPI style table', () => {
  it.each(table)('%s, explode %s', (style, explode, ...cells) => {
    (['empty', 'string', 'array', 'object'] as const).forEach((column, index) => {
      const expected = cells[index];
      if (expected !== null) expect([column, serialise(style, explode, values[column])]).toEqual([column, expected]);
    });
  });

  it('percent-encodes each path value, not the delimiters between them', () => {
    expect(pathText('id', ['a/b', 'c d'], { style: 'simple', explode: false })).toBe('a%2Fb,c%20d');
  });

  it('nests deepObject brackets for objects and arrays inside objects, as Stripe reads them', () => {
    expect(queryPairs('card', { address: { city: 'Oslo' }, tags: ['a', 'b'] }, { style: 'deepObject', explode: true })).toEqual([
      ['card[address][city]', 'Oslo'],
      ['card[tags][0]', 'a'],
      ['card[tags][1]', 'b'],
    ]);
  });

  it('leaves out a parameter that is absent or null', () => {
    expect(queryPairs('color', undefined, { style: 'form', explode: true })).toEqual([]);
    expect(queryPairs('color', null, { style: 'deepObject', explode: true })).toEqual([]);
  });
});
