import { operationKeywords, pathGroup, pathNouns } from '../../src/openapi/operation-keywords';

describe('the search keywords of a generated tool', () => {
  it('says what each method and path shape does: a collection GET lists, an item GET gets, POST creates (on an item, updates), PUT and PATCH update, DELETE deletes', () => {
    expect(operationKeywords('get', '/v1/meetings', []).slice(0, 3)).toEqual(['list', 'find', 'search']);
    expect(operationKeywords('get', '/v1/meetings/{id}', []).slice(0, 2)).toEqual(['get', 'show']);
    expect(operationKeywords('post', '/v1/meetings', []).slice(0, 2)).toEqual(['create', 'add']);
    expect(operationKeywords('post', '/v1/meetings/{id}', []).slice(0, 3)).toEqual(['update', 'change', 'set']);
    expect(operationKeywords('patch', '/v1/meetings/{id}', []).slice(0, 3)).toEqual(['update', 'change', 'set']);
    expect(operationKeywords('put', '/v1/meetings/{id}', []).slice(0, 3)).toEqual(['update', 'change', 'set']);
    expect(operationKeywords('delete', '/v1/meetings/{id}', []).slice(0, 3)).toEqual(['delete', 'remove', 'cancel']);
  });

  it("names the path's nouns in singular and plural, then the tag and the document's and config's own words, each once", () => {
    expect(operationKeywords('get', '/v2/customFields/{id}/enum_options', ['Custom fields'], ['Dropdown', 'choices'])).toEqual([
      'list',
      'find',
      'search',
      'custom field',
      'custom fields',
      'enum option',
      'enum options',
      'custom fields',
      'dropdown',
      'choices',
    ].filter((word, i, all) => all.indexOf(word) === i));
    expect(operationKeywords('get', '/policies', [])).toEqual(['list', 'find', 'search', 'policy', 'policies']);
    expect(operationKeywords('get', '/boxes', [])).toEqual(['list', 'find', 'search', 'box', 'boxes']);
  });

  it('skips version and parameter segments, and groups an untagged path by its first noun', () => {
    expect(pathNouns('/api/v1/customers/{customer}/sources/{id}')).toEqual(['customers', 'sources']);
    expect(pathNouns('/2.0/users')).toEqual(['users']);
    expect(pathGroup('/v1/customers/{id}')).toBe('customers');
    expect(pathGroup('/{id}')).toBeUndefined();
  });

  it('keeps at most 64 keywords of at most 64 characters, as the startup gate allows', () => {
    const many = Array.from({ length: 100 }, (_, i) => `word${i}`);
    const keywords = operationKeywords('get', '/things', [], [...many, 'x'.repeat(100)]);
    expect(keywords).toHaveLength(64);
    expect(Math.max(...keywords.map((word) => word.length))).toBeLessThanOrEqual(64);
  });
});
