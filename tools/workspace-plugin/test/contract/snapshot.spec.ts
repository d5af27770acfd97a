import 'reflect-metadata';
import { IsOptional, MaxLength } from 'class-validator';
import { Field, Result, ToolResult } from '@toolsets/core';
import { parseSnapshot, serializeSnapshot, snapshotOf } from '../../src/contract/snapshot';
import { catalogOf, dto } from './catalog-of';

/** A JSON value read by path in assertions. */
type Loose = { [key: string]: Loose } & { name?: string };

describe('the contract snapshot', () => {
  const Found = dto('FoundResult', { zeta: [Field(() => String)], alpha: [Field(() => String), IsOptional(), MaxLength(5)] }, ToolResult, [Result({ description: 'Found.' })]);
  const tools = catalogOf({ name: 'search', returns: Found, annotations: { readOnlyHint: true } }, { name: 'add', returns: Found, title: 'Add' });

  it('holds the tools as served, sorted by name, and the package version', () => {
    const snapshot = snapshotOf('1.2.3', tools);
    expect(snapshot.version).toBe('1.2.3');
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(['add', 'search']);
    expect(snapshot.tools[1]).toEqual(tools.find((tool) => tool.name === 'search'));
  });

  it('orders keys the same way whatever order they were served in, and keeps property order', () => {
    const snapshot = snapshotOf('1.2.3', tools);
    expect(Object.keys(snapshot.tools[0])).toEqual(['name', 'origin', 'title', 'description', 'inputSchema', 'outputSchema']);
    const output = snapshot.tools[0].outputSchema!;
    expect(Object.keys(output)).toEqual(['type', 'title', 'description', 'required', 'properties']);
    expect(Object.keys(output['properties'] as object)).toEqual(['message', 'zeta', 'alpha']);
    expect(Object.keys((output['properties'] as Record<string, object>)['alpha'])).toEqual(['type', 'maxLength']);
    const shuffled = tools.map((tool) => Object.fromEntries(Object.entries(tool).reverse()) as typeof tool);
    expect(serializeSnapshot(snapshotOf('1.2.3', shuffled))).toBe(serializeSnapshot(snapshot));
  });

  it('reads back what it writes', () => {
    const snapshot = snapshotOf('1.2.3', tools);
    expect(parseSnapshot(serializeSnapshot(snapshot), 'contract.json')).toEqual(snapshot);
  });

  it('stores a schema that several tools share once, by hash, and reads every tool back whole', () => {
    const Member = dto('Member', { name: [Field(() => String)], email: [Field(() => String), IsOptional()] });
    const Team = dto('TeamResult', { lead: [Field(() => Member)], members: [Field(() => [Member])] }, ToolResult, [Result({ description: 'A team.' })]);
    const Unique = dto('UniqueResult', { lead: [Field(() => Member)], deputy: [Field(() => Member)], size: [Field(() => Number)] }, ToolResult, [Result({ description: 'Another.' })]);
    const names = ['list_teams', 'watch_teams', 'read_team', 'patch_team'];
    const many = catalogOf(...names.map((name) => ({ name, returns: Team })), { name: 'odd', returns: Unique });
    const snapshot = snapshotOf('1.0.0', many);
    const text = serializeSnapshot(snapshot);
    const file = JSON.parse(text) as { tools: Loose[]; shared: Loose };
    // The team output is one entry however many tools return it; Member, in two tools' $defs, is another.
    expect(text.match(/"title": "TeamResult"/g)).toHaveLength(1);
    expect(text.match(/"title": "Member"/g)).toHaveLength(1);
    expect(Object.keys(file.shared)).toHaveLength(3); // the team output, Member, and the empty input every tool shares
    const team = file.tools.find((tool) => tool.name === 'read_team')!;
    expect(team['outputSchema']).toEqual({ $shared: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const odd = file.tools.find((tool) => tool.name === 'odd')!;
    expect(odd['outputSchema']['$defs']['Member']).toEqual({ $shared: expect.any(String) });
    expect(parseSnapshot(text, 'contract.json')).toEqual(snapshot);
    // Ten tools or four: the file grows by the tool entries, not by their schemas.
    const more = serializeSnapshot(snapshotOf('1.0.0', catalogOf(...[...names, 'a', 'b', 'c', 'd', 'e', 'f'].map((name) => ({ name, returns: Team })))));
    expect(more.length).toBeLessThan(text.length * 1.6);
  });

  it('says what to do when a shared schema is missing from the file', () => {
    const text = JSON.stringify({ version: '1.0.0', tools: [{ name: 'a', inputSchema: { $shared: 'abc' } }] });
    expect(() => parseSnapshot(text, 'libs/x/contract.json')).toThrow('libs/x/contract.json refers to the shared schema "abc", which its "shared" table does not hold. Restore it from git');
  });

  it('refuses a file that is not a snapshot, saying how to get one back', () => {
    expect(() => parseSnapshot('{"tools": [', 'libs/x/contract.json')).toThrow(/libs\/x\/contract.json is not valid JSON .*Restore it from git, or delete it/);
    expect(() => parseSnapshot('{"tools": []}', 'libs/x/contract.json')).toThrow('libs/x/contract.json is not a contract snapshot: it needs "version"');
  });
});
