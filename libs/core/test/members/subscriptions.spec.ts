import 'reflect-metadata';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { container, inject } from 'tsyringe';
import { Field, RESOURCE_UPDATES, RESOURCE_WATCHERS, Resource, ResourceTemplate, Result, Tool, ToolResult, Toolset, buildServer, type ResourceUpdates, type ResourceWatcher } from '../../src';
import { connectLegacyClient } from '../support/connect';

let motd = 'Hello.';

@Result({ description: 'Done.' })
class DoneResult extends ToolResult {}

class NoteArgs {
  @Field()
  id!: string;
}

class MotdArgs {
  @Field()
  text!: string;
}

@Toolset({ name: 'board' })
class BoardToolset {
  constructor(@inject(RESOURCE_UPDATES) private readonly updates: ResourceUpdates) {}

  @Resource({ uri: 'board://motd', description: 'The message of the day.', mimeType: 'text/plain' })
  motd() {
    return motd;
  }

  @ResourceTemplate({ uriTemplate: 'board://notes/{id}', description: 'A note.', args: NoteArgs })
  note(args: NoteArgs) {
    return args.id;
  }

  @Tool({ description: 'Change the message of the day.', args: MotdArgs, returns: DoneResult })
  async setMotd(args: MotdArgs): Promise<DoneResult> {
    motd = args.text;
    await this.updates.updated('board://motd');
    return { message: 'Changed.' };
  }
}

describe('resource subscriptions on connections that outlive a request', () => {
  it('notifies subscribers when a tool (through RESOURCE_UPDATES) or the app (resourceUpdated) says a resource changed, until they unsubscribe', async () => {
    const server = buildServer({ name: 'board', version: '1.0.0', toolsets: [BoardToolset] });
    const watcher = await connectLegacyClient(server);
    const bystander = await connectLegacyClient(server);
    expect(watcher.getServerCapabilities()?.resources).toEqual({ subscribe: true });
    const seen: string[] = [];
    const unseen: string[] = [];
    watcher.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(n.params.uri));
    bystander.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void unseen.push(n.params.uri));

    await watcher.subscribeResource({ uri: 'board://motd' });
    await bystander.callTool({ name: 'set_motd', arguments: { text: 'Deploy at noon.' } });
    await server.resourceUpdated('board://motd');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['board://motd', 'board://motd']);
    expect((await watcher.readResource({ uri: 'board://motd' })).contents[0]).toMatchObject({ text: 'Deploy at noon.' });

    await watcher.unsubscribeResource({ uri: 'board://motd' });
    await server.resourceUpdated('board://motd');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toHaveLength(2);
    expect(unseen).toEqual([]);
    await expect(watcher.subscribeResource({ uri: 'board://nothing' })).rejects.toThrow("No resource matches 'board://nothing'");
    await watcher.close();
    await bystander.close();
  });

  it("tells the registered watchers when a URI gets its first subscriber and loses its last, and passes on what they say changed", async () => {
    // As a library whose resources come from elsewhere (an upstream MCP server) registers itself.
    const told: string[] = [];
    const watching = new Map<string, () => Promise<void>>();
    const watcher: ResourceWatcher = {
      watch: async (uri, changed) => {
        told.push(`watch ${uri}`);
        watching.set(uri, changed);
      },
      unwatch: (uri, changed) => {
        told.push(`unwatch ${uri}`);
        expect(watching.get(uri)).toBe(changed);
        watching.delete(uri);
      },
    };
    const root = container.createChildContainer();
    root.register(RESOURCE_WATCHERS, { useValue: watcher });
    const server = buildServer({ name: 'board', version: '1.0.0', toolsets: [BoardToolset], container: root });
    const first = await connectLegacyClient(server);
    const second = await connectLegacyClient(server);
    const seen: string[] = [];
    first.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(`first ${n.params.uri}`));
    second.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(`second ${n.params.uri}`));

    await first.subscribeResource({ uri: 'board://notes/7' });
    // A client that subscribes again to what it watches changes nothing.
    await first.subscribeResource({ uri: 'board://notes/7' });
    await second.subscribeResource({ uri: 'board://notes/7' });
    expect(told).toEqual(['watch board://notes/7']);
    await watching.get('board://notes/7')!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.sort()).toEqual(['first board://notes/7', 'second board://notes/7']);

    await first.unsubscribeResource({ uri: 'board://notes/7' });
    expect(told).toEqual(['watch board://notes/7']);
    // The last subscriber leaves by closing its connection.
    await second.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toEqual(['watch board://notes/7', 'unwatch board://notes/7']);
    await first.close();
  });

  it('keeps a subscription whose watcher fails, and logs why', async () => {
    const warnings: string[] = [];
    const root = container.createChildContainer();
    root.register(RESOURCE_WATCHERS, { useValue: { watch: () => Promise.reject(new Error('upstream refused')), unwatch: () => undefined } satisfies ResourceWatcher });
    const server = buildServer({ name: 'board', version: '1.0.0', toolsets: [BoardToolset], container: root, logger: { info: () => undefined, warn: (message, fields) => void warnings.push(`${message} ${JSON.stringify(fields)}`), error: () => undefined } });
    const client = await connectLegacyClient(server);
    const seen: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(n.params.uri));
    await client.subscribeResource({ uri: 'board://motd' });
    expect(warnings).toEqual([expect.stringContaining('a resource watcher could not watch a resource {"uri":"board://motd","error":"upstream refused"}')]);
    await server.resourceUpdated('board://motd');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['board://motd']);
    await client.close();
  });

  it('caps how many resources one connection watches, since a template matches endless URIs', async () => {
    const server = buildServer({ name: 'board', version: '1.0.0', toolsets: [BoardToolset] });
    const client = await connectLegacyClient(server);
    for (let i = 0; i < 1_000; i++) await client.subscribeResource({ uri: `board://notes/${i}` });
    await client.subscribeResource({ uri: 'board://notes/7' });
    await expect(client.subscribeResource({ uri: 'board://notes/1000' })).rejects.toThrow('This connection already watches 1000 resources; unsubscribe from some first.');
    await client.unsubscribeResource({ uri: 'board://notes/0' });
    await client.subscribeResource({ uri: 'board://notes/1000' });
    await client.close();
  });
});
