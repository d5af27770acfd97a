import 'reflect-metadata';
import { IsOptional, MaxLength } from 'class-validator';
import { Field, Result, ToolResult } from '@toolsets/core';
import { parseSnapshot, serializeSnapshot, snapshotOf } from '../../src/contract/snapshot';
import { catalogOf, dto } from './catalog-of';

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
    expect(Object.keys(snapshot.tools[0])).toEqual(['name', 'title', 'description', 'inputSchema', 'outputSchema']);
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

  it('refuses a file that is not a snapshot, saying how to get one back', () => {
    expect(() => parseSnapshot('{"tools": [', 'libs/x/contract.json')).toThrow(/libs\/x\/contract.json is not valid JSON .*Restore it from git, or delete it/);
    expect(() => parseSnapshot('{"tools": []}', 'libs/x/contract.json')).toThrow('libs/x/contract.json is not a contract snapshot: it needs "version"');
  });
});
