import 'reflect-metadata';
import { buildServer, Field, Result, Tool, ToolError, ToolResult, Toolset } from '../../src';
import { connectLegacyClient, connectLegacyClientToFactory, recordingLogger } from '../support/connect';

@Result({ description: 'No such order.' })
class OrderNotFound extends ToolError {
  @Field({ description: 'The order id that was looked up.' })
  orderId!: string;

  constructor(orderId: string) {
    super('not_found', `No order ${orderId}. List orders with list_orders.`);
    this.orderId = orderId;
  }
}

class OrderResult extends ToolResult {
  @Field()
  orderId!: string;
}

@Toolset({ name: 'orders' })
class OrdersToolset {
  @Tool({ description: 'Get an order.', returns: [OrderResult, OrderNotFound] })
  getOrder(): OrderResult | OrderNotFound {
    return new OrderNotFound('o-42');
  }
}

describe('a ToolError subclass as the error arm', () => {
  it('advertises its extra fields and sends them, valid for a client that checks the union', async () => {
    const server = buildServer({ name: 'orders', version: '1', toolsets: [OrdersToolset], logger: recordingLogger().logger });
    const { outputSchema } = server.catalog.tools.get('get_order')!.descriptor;
    expect((outputSchema as { anyOf: object[] }).anyOf[1]).toEqual({
      type: 'object',
      title: 'OrderNotFound',
      description: 'No such order.',
      properties: {
        error: expect.objectContaining({ type: 'string' }),
        detail: expect.objectContaining({ type: 'string' }),
        orderId: { type: 'string', description: 'The order id that was looked up.' },
      },
      required: ['error', 'detail', 'orderId'],
    });
    const client = await connectLegacyClient(server);
    // The v1 client compiles output schemas from tools/list and validates every structuredContent after it.
    await client.listTools();
    const result = await client.callTool({ name: 'get_order', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ error: 'not_found', detail: 'No order o-42. List orders with list_orders.', orderId: 'o-42' });
    await client.close();
  });

  it('is checked by that client: a payload outside the union is rejected (negative control)', async () => {
    const server = buildServer({ name: 'orders', version: '1', toolsets: [OrdersToolset], logger: recordingLogger().logger });
    // Serve a deliberately bad payload, bypassing the server-side check, to prove the client validates.
    const client = await connectLegacyClientToFactory((context) => {
      const sdkServer = server.serverFactory({})(context);
      sdkServer.setRequestHandler('tools/call', () => ({ content: [], structuredContent: { error: 42 }, isError: true }));
      return sdkServer;
    });
    await client.listTools();
    await expect(client.callTool({ name: 'get_order', arguments: {} })).rejects.toThrow('Structured content does not match the tool');
    await client.close();
  });
});
