import type { Tool } from '@modelcontextprotocol/client';
import type { Logger } from '@toolsets/core';
import { toolFingerprint } from '@toolsets/core/tool-fingerprint';
import { DriftReports } from '../src/upstream-drift';

describe("an upstream's drift from its pinned contract, checked again and again", () => {
  const tool = (name: string, takes: Record<string, { type: string }> = {}): Tool => ({ name, description: `Does ${name}.`, inputSchema: { type: 'object', properties: takes } });
  /** The forecast tool as the live upstream changed it: it takes a city now. */
  const changedForecast = () => tool('forecast', { city: { type: 'string' } });
  const pins = { forecast: toolFingerprint(tool('forecast')), echo: toolFingerprint(tool('echo')) };
  const lines: { level: string; message: string; fields?: unknown }[] = [];
  const logger = {
    debug: () => undefined,
    info: (message: string, fields?: unknown) => void lines.push({ level: 'info', message, fields }),
    warn: (message: string, fields?: unknown) => void lines.push({ level: 'warn', message, fields }),
    error: (message: string, fields?: unknown) => void lines.push({ level: 'error', message, fields }),
  } as unknown as Logger;

  it('reports each finding when a check first finds it, not again on every check, and again once it has gone and come back', () => {
    const reports = new DriftReports('weather', logger);
    const changed = [changedForecast(), tool('echo'), tool('alerts')];
    // At connect, then on several list_changed notices (or polls) that find the same.
    for (let check = 0; check < 5; check++) expect([...reports.check(pins, changed)]).toEqual([['forecast', 'changed']]);
    expect(lines).toEqual([
      { level: 'warn', message: 'upstream MCP server drifted from the pinned contract', fields: { upstream: 'weather', kind: 'changed', tool: 'forecast', fix: 'regenerate the library: nx run <library>:mcp-refresh' } },
      { level: 'info', message: 'upstream MCP server offers tools its library does not serve yet', fields: { upstream: 'weather', kind: 'added', tools: ['alerts'] } },
    ]);
    lines.length = 0;
    // Something new: only the new finding is reported.
    expect([...reports.check(pins, [changedForecast(), tool('alerts'), tool('radar')])]).toEqual([['forecast', 'changed'], ['echo', 'removed']]);
    expect(lines.map((line) => line.fields)).toEqual([
      { upstream: 'weather', kind: 'removed', tool: 'echo', fix: 'regenerate the library: nx run <library>:mcp-refresh' },
      { upstream: 'weather', kind: 'added', tools: ['radar'] },
    ]);
    lines.length = 0;
    // Back to the contract, then drifted again: reported again.
    expect(reports.check(pins, [tool('forecast'), tool('echo')]).size).toBe(0);
    expect(lines).toEqual([]);
    reports.check(pins, changed);
    expect(lines.map((line) => line.fields)).toEqual([
      expect.objectContaining({ kind: 'changed', tool: 'forecast' }),
      { upstream: 'weather', kind: 'added', tools: ['alerts'] },
    ]);
  });
});
