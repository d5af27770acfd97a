import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListResourcesResultSchema, ListToolsResultSchema, ReadResourceResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ArrayMinSize } from 'class-validator';
import { buildServer, ContractError, defineView, Field, Prompt, Resource, Result, serveHttp, Tool, ToolResult, Toolset, userMessage, VIEW_MIME_TYPE, viewBundle } from '../../src';
import { sampleValue } from '../../src/catalog-page/sample-value';
import { viewPreviewCsp } from '../../src/catalog-page/view-preview';
import { connectClient, connectLegacyClient } from '../support/connect';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const folder = mkdtempSync(join(tmpdir(), 'views-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const bundlePath = join(folder, 'board.html');
writeFileSync(bundlePath, '<!doctype html><html><body><main id="board"></main><script>/* bundled */</script></body></html>');

const Board = defineView({
  uri: 'ui://tasks/board',
  title: 'Task board',
  description: 'The tasks as cards.',
  bundle: bundlePath,
  csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] },
  prefersBorder: true,
});

class TaskCard {
  @Field({ description: 'The title.' })
  title!: string;
}

@Result({ description: 'The board.' })
class BoardResult extends ToolResult {
  @Field(() => [TaskCard])
  cards!: TaskCard[];
}

@Toolset({ name: 'tasks' })
class TasksToolset {
  @Tool({ description: 'Show the board.', returns: BoardResult, view: Board })
  showBoard(): BoardResult {
    return { message: '1 card.', cards: [{ title: 'write docs' }] };
  }

  @Tool({ description: 'Add a card; only the board calls it.', returns: BoardResult, view: { view: Board, visibility: ['app'] } })
  addCard(): BoardResult {
    return { message: '2 cards.', cards: [{ title: 'write docs' }, { title: 'ship' }] };
  }

  @Tool({ description: 'Count the cards.', returns: BoardResult })
  count(): BoardResult {
    return { message: '1 card.', cards: [] };
  }
}

@Toolset({ name: 'tasks' })
class TasksWithoutView {
  @Tool({ description: 'Show the board.', returns: BoardResult })
  showBoard(): BoardResult {
    return { message: '1 card.', cards: [{ title: 'write docs' }] };
  }
}

const server = () => buildServer({ name: 'views', version: '1', toolsets: [TasksToolset] });

describe('a tool with a view, served', () => {
  it('links the tool to its ui:// resource in tools/list (both the nested and the flat key), in both eras', async () => {
    const modern = await connectClient(server());
    const legacy = await connectLegacyClient(server());
    for (const { tools } of [await modern.listTools(), ListToolsResultSchema.parse(await legacy.listTools())]) {
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
      // Beside the view's keys, every tool names its group (the grouping extension).
      const group = { 'io.modelcontextprotocol/groups': ['tasks'] };
      expect(byName['show_board']._meta).toEqual({ ui: { resourceUri: 'ui://tasks/board' }, 'ui/resourceUri': 'ui://tasks/board', ...group });
      expect(byName['add_card']._meta).toEqual({ ui: { resourceUri: 'ui://tasks/board', visibility: ['app'] }, 'ui/resourceUri': 'ui://tasks/board', ...group });
      expect(byName['count']._meta).toEqual(group);
    }
    await modern.close();
    await legacy.close();
  });

  it('lists the shared view once and reads it as the bundle with its MIME type and _meta.ui', async () => {
    const legacy = await connectLegacyClient(server());
    const { resources } = ListResourcesResultSchema.parse(await legacy.listResources());
    expect(resources).toEqual([
      {
        uri: 'ui://tasks/board',
        name: 'board',
        title: 'Task board',
        description: 'The tasks as cards.',
        mimeType: VIEW_MIME_TYPE,
        _meta: { ui: { csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] }, prefersBorder: true } },
      },
    ]);
    const read = ReadResourceResultSchema.parse(await legacy.readResource({ uri: 'ui://tasks/board' }));
    expect(read.contents).toEqual([
      {
        uri: 'ui://tasks/board',
        mimeType: 'text/html;profile=mcp-app',
        text: '<!doctype html><html><body><main id="board"></main><script>/* bundled */</script></body></html>',
        _meta: { ui: { csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] }, prefersBorder: true } },
      },
    ]);
    await legacy.close();
  });

  it('advertises the MCP Apps extension, and resources, only on a server with a view', async () => {
    const withView = await connectClient(server());
    const grouping = { 'io.modelcontextprotocol/grouping': {} };
    expect(withView.getServerCapabilities()?.extensions).toEqual({ ...grouping, 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });
    expect(withView.getServerCapabilities()?.resources).toBeDefined();
    const without = await connectClient(buildServer({ name: 'plain', version: '1', toolsets: [TasksWithoutView] }));
    expect(without.getServerCapabilities()?.extensions).toEqual(grouping);
    expect(without.getServerCapabilities()?.resources).toBeUndefined();
    await withView.close();
    await without.close();
  });

  it('answers a call exactly as the same tool without a view does: the view never replaces the typed result', async () => {
    const withView = await connectClient(server());
    const without = await connectClient(buildServer({ name: 'views', version: '1', toolsets: [TasksWithoutView] }));
    const a = await withView.callTool({ name: 'show_board', arguments: {} });
    const b = await without.callTool({ name: 'show_board', arguments: {} });
    expect(a).toEqual(b);
    expect(a.structuredContent).toEqual({ message: '1 card.', cards: [{ title: 'write docs' }] });
    const listed = (await withView.listTools()).tools.find((tool) => tool.name === 'show_board')!;
    const plain = (await without.listTools()).tools.find((tool) => tool.name === 'show_board')!;
    const { _meta, ...rest } = listed;
    const { _meta: plainMeta, ...plainRest } = plain;
    expect(_meta).toMatchObject({ 'ui/resourceUri': 'ui://tasks/board' });
    expect(plainMeta).toEqual({ 'io.modelcontextprotocol/groups': ['tasks'] });
    expect(rest).toEqual(plainRest);
    await withView.close();
    await without.close();
  });
});

describe('views at the startup gate', () => {
  const build = (...toolsets: (new (...args: never[]) => unknown)[]) => () => buildServer({ name: 'bad', version: '1', toolsets });
  const messages = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return (error as ContractError).violations.map((violation) => violation.message);
    }
    throw new Error('the gate accepted it');
  };

  it('refuses a view whose bundle was never built, saying how to build it', () => {
    const Missing = defineView({ uri: 'ui://reports/chart', bundle: viewBundle(__dirname, 'chart') });
    @Toolset({ name: 'reports' })
    class Reports {
      @Tool({ description: 'Chart.', returns: BoardResult, view: Missing })
      chart(): BoardResult {
        return { message: '', cards: [] };
      }
    }
    const [message] = messages(build(Reports));
    expect(message).toContain("[toolset 'reports' > tool 'chart'] The view 'ui://reports/chart' has no bundle at ");
    expect(message).toContain(join('libs', 'core', 'dist', 'views', 'chart.html'));
    expect(message).toContain('(no such file). Fix: build the library (`npx nx run <library>:build`');
  });

  it('refuses a URI outside ui://, a CSP entry that is not an origin, unknown options and a non-view', () => {
    const Http = defineView({ uri: 'https://example.com/view', html: '<p>x</p>' });
    const Pathy = defineView({ uri: 'ui://a/b', html: '<p>x</p>', csp: { connectDomains: ['https://api.example.com/v1/', 'api.example.com', 'ftp://files.example.com', 'https://a.*.example.com'] } });
    const Odd = defineView({ uri: 'ui://a/c', html: '<p>x</p>', prefersborder: true } as never);
    const Both = defineView({ uri: 'ui://a/d', html: '<p>x</p>', bundle: bundlePath });
    @Toolset({ name: 'bad_views' })
    class BadViews {
      @Tool({ description: 'a', returns: BoardResult, view: Http })
      a(): BoardResult {
        return { message: '', cards: [] };
      }
      @Tool({ description: 'b', returns: BoardResult, view: Pathy })
      b(): BoardResult {
        return { message: '', cards: [] };
      }
      @Tool({ description: 'c', returns: BoardResult, view: Odd })
      c(): BoardResult {
        return { message: '', cards: [] };
      }
      @Tool({ description: 'd', returns: BoardResult, view: Both })
      d(): BoardResult {
        return { message: '', cards: [] };
      }
      @Tool({ description: 'e', returns: BoardResult, view: { uri: 'ui://a/e', html: '<p>x</p>' } as never })
      e(): BoardResult {
        return { message: '', cards: [] };
      }
      @Tool({ description: 'f', returns: BoardResult, view: { view: Board, visibility: ['user'] } as never })
      f(): BoardResult {
        return { message: '', cards: [] };
      }
    }
    const found = messages(build(BadViews));
    expect(found).toEqual([
      `[toolset 'bad_views' > tool 'a'] The view URI "https://example.com/view" does not use the ui:// scheme MCP Apps reserves for views. Fix: give defineView a URI such as 'ui://<toolset>/<view-name>' (letters, digits, '-', '_', '.' and '/').`,
      `[toolset 'bad_views' > tool 'b'] The view 'ui://a/b' lists "https://api.example.com/v1/" in csp.connectDomains, which is not an origin (it has a path, query or fragment). Fix: write the origin alone: 'https://api.example.com'.`,
      `[toolset 'bad_views' > tool 'b'] The view 'ui://a/b' lists "api.example.com" in csp.connectDomains, which is not an origin (it has no scheme and host). Fix: write a scheme and host (and a port if not the default): 'https://api.example.com', 'wss://live.example.com', 'https://*.example.com'.`,
      `[toolset 'bad_views' > tool 'b'] The view 'ui://a/b' lists "ftp://files.example.com" in csp.connectDomains, which is not an origin (its scheme ftp: is not http, https, ws or wss). Fix: write a scheme and host (and a port if not the default): 'https://api.example.com', 'wss://live.example.com', 'https://*.example.com'.`,
      `[toolset 'bad_views' > tool 'b'] The view 'ui://a/b' lists "https://a.*.example.com" in csp.connectDomains, which is not an origin (a wildcard may only stand for the leftmost subdomain ('https://*.example.com')). Fix: write a scheme and host (and a port if not the default): 'https://api.example.com', 'wss://live.example.com', 'https://*.example.com'.`,
      `[toolset 'bad_views' > tool 'c'] The tool's view 'ui://a/c' has unknown option(s) 'prefersborder'. Fix: use only uri, name, title, description, bundle, html, csp, permissions, domain, prefersBorder.`,
      `[toolset 'bad_views' > tool 'd'] The tool's view 'ui://a/d' has both \`bundle\` and \`html\`. Fix: give one: \`bundle: viewBundle(__dirname, '<view-name>')\` (the built file) or \`html: '<!doctype html>…'\`.`,
      `[toolset 'bad_views' > tool 'e'] The tool's view is an object (Object). Fix: declare it with \`defineView({ uri: 'ui://…', bundle })\` and pass that constant: \`@Tool({ view: MyView })\`.`,
      `[toolset 'bad_views' > tool 'f'] The tool's view has visibility ["user"]. Fix: give \`visibility: ['model', 'app']\` (the default), \`['app']\` (only the view may call the tool) or \`['model']\`.`,
    ]);
  });

  it('refuses one ui:// URI given two different views, naming both tools', () => {
    const First = defineView({ uri: 'ui://shop/cart', html: '<p>one</p>' });
    const Second = defineView({ uri: 'ui://shop/cart', html: '<p>two</p>' });
    const Same = defineView({ uri: 'ui://shop/cart', html: '<p>one</p>' });
    @Toolset({ name: 'shop' })
    class Shop {
      @Tool({ description: 'a', returns: BoardResult, view: First })
      a(): BoardResult {
        return { message: '', cards: [] };
      }
      @Tool({ description: 'b', returns: BoardResult, view: Same })
      b(): BoardResult {
        return { message: '', cards: [] };
      }
      @Tool({ description: 'c', returns: BoardResult, view: Second })
      c(): BoardResult {
        return { message: '', cards: [] };
      }
    }
    expect(messages(build(Shop))).toEqual([
      "[resource 'ui://shop/cart'] The view URI 'ui://shop/cart' is used by the tool 'a' (Shop.a(), toolset 'shop') and by the tool 'c' (Shop.c(), toolset 'shop') for different views (different HTML); a host caches a view by its URI, so one URI must be one view. Fix: share one `defineView(…)` constant between the tools, or give the second view its own URI.",
    ]);
  });

  it('refuses a view on a prompt or resource, and a ui:// resource declared by hand', () => {
    @Toolset({ name: 'misplaced' })
    class Misplaced {
      @Tool({ description: 'a', returns: BoardResult })
      a(): BoardResult {
        return { message: '', cards: [] };
      }
      @Prompt({ description: 'p', view: Board } as never)
      p() {
        return [userMessage('hi')];
      }
      @Resource({ uri: 'ui://misplaced/page', description: 'A page.', mimeType: 'text/html' })
      page() {
        return '<p>page</p>';
      }
    }
    expect(messages(build(Misplaced))).toEqual([
      "[toolset 'misplaced' > prompt 'p'] @Prompt on Misplaced.p() has a `view` option, but only tools have views: a host renders a view for a tool's result. Fix: move `view` to the @Tool whose result it shows, or remove it.",
      "[toolset 'misplaced' > resource 'ui://misplaced/page'] @Resource on Misplaced.page() declares a ui:// resource by hand: ui:// is the MCP Apps scheme for views, which hosts render only with the view's MIME type and CSP. Fix: declare it with `defineView({ uri, bundle })` and link it with `@Tool({ view })`; the server registers the resource itself.",
    ]);
  });
});

describe('previewing a view on the catalog page', () => {
  it('makes a sample result from the output schema: examples and defaults first, one item per list, moments as dates', () => {
    
    const tool = server().catalog.tools.get('show_board')!;
    expect(sampleValue(tool.descriptor.outputSchema!)).toEqual({ message: 'A sample result, made up from the output schema.', cards: [{ title: 'sample title' }] });
    expect(
      sampleValue({
        type: 'object',
        properties: {
          createdAt: { type: 'string' },
          status: { type: 'string', enum: ['open', 'closed'] },
          size: { type: 'integer', minimum: 5 },
          tags: { type: 'array', items: { type: 'string' }, examples: [['urgent']] },
          owner: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/Person' }] },
        },
        $defs: { Person: { type: 'object', properties: { email: { type: 'string', format: 'email' } } } },
      }),
    ).toEqual({ createdAt: '2026-01-15T09:30:00.000Z', status: 'open', size: 5, tags: ['urgent'], owner: { email: 'someone@example.com' } });
  });

  it('bounds the sample: lists declared with a huge minItems, nested, give a small page, not an exhausted heap', async () => {
    class Cell {
      @Field({ description: 'A value.' })
      value!: string;
    }
    class Row {
      @Field(() => [Cell], { description: 'Cells.' })
      @ArrayMinSize(2000)
      cells!: Cell[];
    }
    class Sheet {
      @Field(() => [Row], { description: 'Rows.' })
      @ArrayMinSize(2000)
      rows!: Row[];
    }
    @Result({ description: 'Sheets.' })
    class Workbook extends ToolResult {
      @Field(() => [Sheet], { description: 'Sheets.' })
      @ArrayMinSize(2000)
      sheets!: Sheet[];
    }
    @Toolset({ name: 'sheets' })
    class SheetsToolset {
      @Tool({ description: 'Show the workbook.', returns: Workbook, view: defineView({ uri: 'ui://sheets/workbook', html: '<p>workbook</p>' }) })
      show(): Workbook {
        return { message: 'empty', sheets: [] };
      }
    }
    const sample = sampleValue(buildServer({ name: 'sheets', version: '1', toolsets: [SheetsToolset], logger: quiet }).catalog.tools.get('show')!.descriptor.outputSchema!) as { sheets: { rows: { cells: unknown[] }[] }[] };
    expect(sample.sheets).toHaveLength(3);
    expect(sample.sheets[0]!.rows[0]!.cells).toHaveLength(3);
    expect(JSON.stringify(sample).length).toBeLessThan(20_000);
    // Through a real server: the unauthenticated catalog page answers at once.
    const http = await serveHttp(buildServer({ name: 'sheets', version: '1', toolsets: [SheetsToolset], logger: quiet }), { port: 0, drainDelayMs: 0, logger: quiet });
    try {
      const page = await fetch(`${http.origin}/`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect((await page.text()).length).toBeLessThan(200_000);
    } finally {
      await http.close();
    }
  });

  it('serves the view under the CSP a host builds from its declared origins, in a sandbox of its own', () => {
    
    const view = server().catalog.toolViews.get('ui://tasks/board')!;
    expect(viewPreviewCsp(view).split('; ')).toEqual([
      'sandbox allow-scripts',
      "default-src 'none'",
      "script-src 'self' 'unsafe-inline' https://*.cdn.example.com",
      "style-src 'self' 'unsafe-inline' https://*.cdn.example.com",
      'connect-src https://api.example.com',
      "img-src 'self' data: https://*.cdn.example.com",
      "font-src 'self' https://*.cdn.example.com",
      "media-src 'self' data: https://*.cdn.example.com",
      "frame-src 'none'",
      "object-src 'none'",
      "base-uri 'self'",
      "frame-ancestors 'self'",
    ]);
  });
});
