import 'reflect-metadata';
import { IsInt } from 'class-validator';
import { buildServer, Field, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle } from '../../src';
import { recordingLogger } from '../support/connect';

class PlaceArgs {
  @Field({ description: 'The floor, mirrored into Mcp-Param-Floor.', header: 'Floor' })
  @IsInt()
  floor!: number;

  @Field({ description: 'The room, mirrored into Mcp-Param-Room.', header: 'Room' })
  room!: string;
}

@Toolset({ name: 'building' })
class BuildingToolset {
  @Tool({ description: 'Names a place.', args: PlaceArgs, returns: ToolResult })
  place({ floor, room }: PlaceArgs): ToolResult {
    return { message: `${room} on ${floor}` };
  }
}

const base64 = (text: string) => `=?base64?${Buffer.from(text, 'utf-8').toString('base64')}?=`;

/**
 * `Mcp-Param-*` headers checked against the arguments as the SDK's own check does
 * (validateMcpParamHeaders in @modelcontextprotocol/server): an integer compared as a number, a
 * Base64 payload decoded by a fatal UTF-8 decoder, so a legal U+FFFD passes and a malformed one does not.
 */
describe('Mcp-Param headers, compared with the arguments as the SDK compares them', () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    const { logger } = recordingLogger();
    http = await serveHttp(buildServer({ name: 'building', version: '1', toolsets: [BuildingToolset], logger }), { port: 0, logger });
  });
  afterAll(() => http.close());

  async function call(args: object, headers: Record<string, string>): Promise<{ status: number; body: { result?: { structuredContent?: unknown }; error?: { code: number; data?: unknown } } }> {
    const response = await fetch(`${http.origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'place', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'place', arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    });
    return { status: response.status, body: (await response.json()) as never };
  }

  it.each([
    ['42 as 42', '42'],
    ['42 as 42.0 (compared as a number)', '42.0'],
    ['42 as 42.000', '42.000'],
  ])('accepts the integer %s', async (_name, floor) => {
    const answer = await call({ floor: 42, room: 'atrium' }, { 'mcp-param-floor': floor, 'mcp-param-room': 'atrium' });
    expect(answer).toMatchObject({ status: 200, body: { result: { structuredContent: { message: 'atrium on 42' } } } });
  });

  it.each([
    ['an integer another number', { floor: 42 }, { 'mcp-param-floor': '43' }, 'Mcp-Param-Floor'],
    ['an integer as text that is no decimal', { floor: 42 }, { 'mcp-param-floor': '4.2e1' }, 'Mcp-Param-Floor'],
    ['a string that differs', { room: 'atrium' }, { 'mcp-param-room': 'Atrium' }, 'Mcp-Param-Room'],
    ['a Base64 payload that is not UTF-8', { room: 'atrium' }, { 'mcp-param-room': `=?base64?${Buffer.from([0x61, 0xff, 0x62]).toString('base64')}?=` }, 'Mcp-Param-Room'],
    ['a Base64 payload that is not canonical', { room: 'atrium' }, { 'mcp-param-room': '=?base64?YXRyaXVt?=x' }, 'Mcp-Param-Room'],
    ['an absent header', { room: 'atrium' }, {}, 'Mcp-Param-Room'],
  ])('refuses %s (400, -32020, naming the header)', async (_name, args, headers, header) => {
    const answer = await call({ floor: 1, room: 'hall', ...args }, { 'mcp-param-floor': '1', 'mcp-param-room': 'hall', ...headers });
    expect(answer).toMatchObject({ status: 400, body: { error: { code: -32020, data: { mismatch: { header } } } } });
  });

  it('accepts a room whose name holds U+FFFD itself, sent in Base64 as a client sends it', async () => {
    const room = 'caf\uFFFD';
    const answer = await call({ floor: 2, room }, { 'mcp-param-floor': '2', 'mcp-param-room': base64(room) });
    expect(answer).toMatchObject({ status: 200, body: { result: { structuredContent: { message: `${room} on 2` } } } });
  });
});
