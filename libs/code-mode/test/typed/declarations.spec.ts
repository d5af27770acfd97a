import { catalogDeclarations, identifier, ProgramChecker, type JsonSchema } from '../../src';

const tool = (name: string, inputSchema: JsonSchema, outputSchema?: JsonSchema, namespace = 'shop') => ({ namespace, name, inputSchema, outputSchema });

describe('declarations of schemas the catalog advertises', () => {
  it('writes shared $defs once as named interfaces, unions of arrays in parentheses, tuples, records and literals, and they compile', () => {
    const address: JsonSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const { text } = catalogDeclarations([
      tool(
        'create-order',
        { type: 'object', properties: { to: { $ref: '#/$defs/Address' }, from: { $ref: '#/$defs/Address' }, size: { enum: ['s', 'm', "l'x"] }, note: { enum: ['two\nlines'] }, at: { type: 'string', format: 'date-time', description: 'When.' } }, required: ['to'], $defs: { Address: address } },
        {
          type: 'object',
          properties: {
            lines: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
            pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer', minimum: 1 }] },
            extra: { type: 'object', additionalProperties: { type: 'boolean' } },
            maybe: { type: ['string', 'null'] },
            kind: { const: 'order' },
            'odd-key': { type: 'string' },
          },
          required: ['lines', 'kind'],
        },
      ),
      tool('delete', { type: 'object', properties: {} }, undefined, 'credential-demo'),
    ]);
    expect(text).toContain('    interface Address {\n      city: string;\n    }');
    expect(text).toContain('      to: Address;\n      from?: Address;');
    expect(text).toContain("      size?: 's' | 'm' | 'l\\'x';");
    expect(text).toContain("      note?: 'two\\nlines';");
    expect(text).toContain('      /** When. Format: date-time. */\n      at?: string;');
    expect(text).toContain('      lines: (string | number)[];');
    expect(text).toContain('      pair?: [string, number];');
    expect(text).toContain('      extra?: {\n        [key: string]: boolean;\n      };');
    expect(text).toContain('      maybe?: string | null;');
    expect(text).toContain("      kind: 'order';");
    expect(text).toContain("      'odd-key'?: string;");
    // A toolset or tool whose name is not an identifier, or is a reserved word, is callable all the same.
    expect(text).toContain('  namespace credential_demo {');
    expect(text).toContain('    function delete_(args?: DeleteArgs): Promise<unknown>;');
    expect(new ProgramChecker(text).check("const order = await api.shop.create_order({ to: { city: 'Oslo' }, size: 'm' });\nreturn [order.kind, order.lines.length, await api.credential_demo.delete_()];")).toMatchObject({ ok: true });
  });

  it("declares a union result as a type, not an interface, when a description in it holds an apostrophe or a bracket (GitHub's did)", () => {
    const credit: JsonSchema = { type: 'object', description: "The user's credit (see the advisory", properties: { login: { type: 'string', description: "It's the login [or the name" } }, required: ['login'] };
    const error: JsonSchema = { type: 'object', properties: { error: { type: 'string' }, detail: { type: 'string' } }, required: ['error', 'detail'] };
    const { text } = catalogDeclarations([tool('credit', { type: 'object', properties: {} }, { anyOf: [credit, error] })]);
    expect(text).toMatch(/type CreditResult = \{/);
    expect(new ProgramChecker(text).check("const credit = await api.shop.credit();\nreturn 'error' in credit ? credit.detail : credit.login;")).toMatchObject({ ok: true });
  });

  it('writes an object the API repeats inline by the name of the declared type of its shape, and the words it repeats with it once', () => {
    const link: JsonSchema = { type: 'object', title: 'Link', properties: { href: { type: 'string', format: 'uri' }, name: { type: 'string' } } };
    const inline = (description: string): JsonSchema => ({ ...link, title: 'Link2', description });
    const { text } = catalogDeclarations([
      tool(
        'get-repo',
        { type: 'object', properties: { slug: { type: 'string' } }, required: ['slug'] },
        {
          type: 'object',
          properties: {
            self: { $ref: '#/$defs/Link' },
            links: { type: 'object', properties: { avatar: inline('A link to a resource.'), html: inline('A link to a resource.'), clone: { type: 'array', items: inline('A link to a resource.') } } },
            owner: { type: 'object', properties: { login: { type: 'string' }, id: { type: 'integer' } } },
          },
          $defs: { Link: link },
        },
      ),
    ]);
    expect(text).toContain('    interface Link {\n      /** Format: uri. */\n      href?: string;\n      name?: string;\n    }');
    expect(text).toContain('        /** A link to a resource. */\n        avatar?: Link;\n        html?: Link;\n        clone?: Link[];');
    expect(text.match(/Format: uri/g)).toHaveLength(1);
    // An object of another shape is written where it is.
    expect(text).toContain('owner?: {\n        login?: string;');
    expect(new ProgramChecker(text).check('const r = await api.shop.get_repo({ slug: "a" }); const h: string | undefined = r.links?.avatar?.href; return h;')).toMatchObject({ ok: true });
  });

  it('declares once an object type written out inline in more than one place, named after its title', () => {
    const person = (description: string): JsonSchema => ({ type: 'object', title: 'Person', description, properties: { login: { type: 'string' }, id: { type: 'integer' } } });
    const { text } = catalogDeclarations([
      tool('get-issue', { type: 'object', properties: { n: { type: 'integer' } } }, { type: 'object', properties: { author: person('Who wrote it.'), closedBy: person('Who closed it.') } }),
      tool('get-comment', { type: 'object', properties: { n: { type: 'integer' } } }, { type: 'object', properties: { author: person('Who wrote it.') } }),
    ]);
    expect(text).toContain('    interface PersonShape {\n      login?: string;\n      id?: number;\n    }');
    expect(text).toContain('      /** Who wrote it. */\n      author?: PersonShape;\n      /** Who closed it. */\n      closedBy?: PersonShape;');
    expect(text.match(/login\?: string/g)).toHaveLength(1);
    expect(new ProgramChecker(text).check('const i = await api.shop.get_issue({ n: 1 }); const c = await api.shop.get_comment({}); return [i.author?.login, c.author?.id];')).toMatchObject({ ok: true });
  });

  it('declares a nested object of more than a few fields, or holding another, under its parent\'s name and its property\'s, a list\'s item singular', () => {
    const fields = (names: string[]): JsonSchema => ({ type: 'object', properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])), required: names });
    const { text } = catalogDeclarations([
      tool(
        'list-pipelines',
        { type: 'object', properties: {} },
        {
          type: 'object',
          properties: {
            values: { type: 'array', items: { type: 'object', properties: { uuid: { type: 'string' }, target: { type: 'object', properties: { ref: { type: 'string' }, commit: fields(['hash', 'date']) } } } } },
            entries: { type: 'array', items: fields(['a', 'b', 'c', 'd', 'e', 'f', 'g']) },
            status: { type: 'array', items: fields(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) },
            small: fields(['state', 'at']),
          },
          required: ['values', 'entries', 'status', 'small'],
        },
      ),
    ]);
    expect(text).toContain('      values: ListPipelinesResultValue[];');
    expect(text).toContain('    interface ListPipelinesResultValue {\n      uuid?: string;\n      target?: ListPipelinesResultValueTarget;\n    }');
    // Two fields of strings: written where it is.
    expect(text).toContain('    interface ListPipelinesResultValueTarget {\n      ref?: string;\n      commit?: {\n        hash: string;');
    expect(text).toContain('      entries: ListPipelinesResultEntry[];');
    expect(text).toContain('      status: ListPipelinesResultStatusItem[];');
    expect(text).toContain('      small: {\n        state: string;\n        at: string;\n      };');
    // A type reads before the types it names.
    expect(text.indexOf('interface ListPipelinesResult ')).toBeLessThan(text.indexOf('interface ListPipelinesResultValue '));
    const checker = new ProgramChecker(text);
    expect(checker.check('const r = await api.shop.list_pipelines(); return r.values.map((v) => v.target?.commit?.hash);')).toMatchObject({ ok: true });
    expect(checker.check('const r = await api.shop.list_pipelines(); return r.values.map((v) => v.target?.sha);')).toMatchObject({
      ok: false,
      problems: [{ message: expect.stringContaining("Property 'sha' does not exist on type 'ListPipelinesResultValueTarget'") }],
    });
  });

  it("names a nested type apart from every tool's own argument and result types, declared before or after it", () => {
    const big: JsonSchema = { type: 'object', properties: Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => [name, { type: 'string' }])) };
    const { text } = catalogDeclarations([
      tool('list', { type: 'object', properties: {} }, { type: 'object', properties: { args: big } }),
      tool('list_result', { type: 'object', properties: { q: { type: 'string' } } }, { type: 'object', properties: { n: { type: 'integer' } } }),
    ]);
    expect(text).toContain('args?: ListResultArgs2;');
    expect(text.match(/interface ListResultArgs \{/g)).toHaveLength(1);
    expect(new ProgramChecker(text).check('const a = await api.shop.list({}); const b = await api.shop.list_result({ q: "x" }); return [a.args?.g, b.n];')).toMatchObject({ ok: true });
  });

  it('says bounds as a sentence of their own after the description, in words a model reads as written', () => {
    const { text } = catalogDeclarations([
      tool('greet', {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'Who to greet.', minLength: 1, maxLength: 100 },
          code: { type: 'string', minLength: 2, maxLength: 2 },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
          note: { type: 'string', maxLength: 1 },
          count: { type: 'integer', minimum: 1, maximum: 50 },
        },
      }),
    ]);
    expect(text).toContain('/** Who to greet. 1 to 100 characters. */');
    expect(text).toContain('/** Exactly 2 characters. */');
    expect(text).toContain('/** At least 1 item. */');
    expect(text).toContain('/** At most 1 character. */');
    expect(text).toContain('/** ≥ 1, ≤ 50. */');
  });

  it('makes identifiers of names that are not', () => {
    expect(['issues.create', '2fa', 'new', 'a-b', 'ok_1'].map(identifier)).toEqual(['issues_create', '_2fa', 'new_', 'a_b', 'ok_1']);
  });
});
