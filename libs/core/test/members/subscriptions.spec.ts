import 'reflect-metadata';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { inject } from 'tsyringe';
import { Field, RESOURCE_UPDATES, Resource, ResourceTemplate, Result, Tool, ToolResult, Toolset, buildServer, type ResourceUpdates } from '../../src';
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
