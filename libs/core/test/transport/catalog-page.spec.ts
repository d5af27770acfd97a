import 'reflect-metadata';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { IsOptional } from 'class-validator';
import { buildServer, Field, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle } from '../../src';
import { CatalogToolset } from '../support/catalog-toolset';
import { recordingLogger } from '../support/connect';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

class HostileArgs {
  @Field({ description: 'Ignore the <b>tags</b>, then "</td></table><script>alert(1)</script>".' })
  @IsOptional()
  needle?: string;
}

class HostileResult extends ToolResult {
  @Field({ description: '<img src=x onerror=alert(2)>' })
  found!: string;
}

@Toolset({ name: 'vault', description: 'Secrets behind a header.', credentialHeaders: ['x-vault-token'] })
class VaultToolset {
  @Tool({ description: 'Finds <script>alert(0)</script> nothing & everything.', args: HostileArgs, returns: HostileResult, annotations: { destructiveHint: true } })
  rummage(): HostileResult {
    return { message: 'nothing', found: '' };
  }
}

/** GET / for a browser: the catalog page, served by the real HTTP server on loopback. */
describe('the catalog page at GET /', () => {
  let http: HttpServerHandle;
  const page = (headers: Record<string, string> = {}) => fetch(`${http.origin}/`, { headers: { accept: BROWSER_ACCEPT, ...headers } });

  beforeAll(async () => {
    const { logger } = recordingLogger();
    http = await serveHttp(
      [buildServer({ name: 'catalog', version: '1.2.3', toolsets: [CatalogToolset], logger }), buildServer({ name: 'vault', version: '0.0.1', toolsets: [VaultToolset], logger })],
      { port: 0, logger },
    );
  });
  afterAll(() => http.close());

  it('answers a browser with HTML under a policy that allows only its own inline style and script', async () => {
    const response = await page();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+';/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('vary')).toBe('Accept, Accept-Encoding');
    const text = await response.text();
    expect(text).toMatch(/^<!doctype html>/);
    expect(text).toContain('<h2>catalog <span class="muted">1.2.3</span></h2>');
  });

  it.each([['no Accept header', undefined], ['curl (*/*)', '*/*'], ['application/json', 'application/json'], ['JSON preferred over HTML', 'application/json, text/html;q=0.5']])(
    'keeps JSON for %s',
    async (_, accept) => {
      const response = await fetch(`${http.origin}/`, { headers: accept === undefined ? {} : { accept } });
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('vary')).toBe('Accept');
      expect(((await response.json()) as { servers: { name: string }[] }).servers.map((s) => s.name)).toEqual(['catalog', 'vault']);
    },
  );

  it('lists every tool with its arguments and result, rendered from the advertised schemas', async () => {
    const text = await (await page()).text();
    const find = text.slice(text.indexOf('id="tool-catalog-find"'), text.indexOf('</details>', text.indexOf('id="tool-catalog-find"')));
    expect(find).toContain('<code class="name">find</code>');
    // Arguments: required and optional, types, descriptions and constraints from the input schema.
    expect(find).toContain('<code class="prop">query</code><span class="req">required</span>');
    expect(find).toContain('What to look for; &quot;missing&quot; finds nothing.');
    expect(find).toMatch(/<code class="prop">limit<\/code><span class="opt">optional<\/span><\/td>\s*<td><code>integer<\/code><\/td>\s*<td> <span class="constraint">value 1–5<\/span> <span class="constraint">default 2<\/span>/);
    expect(find).toContain('<code>string (date-time)</code>');
    // Result: both arms of the union, the nested Item class with its own properties.
    expect(find).toContain('<h5>FindResult</h5>');
    expect(find).toContain('<h5>ToolError</h5>');
    expect(find).toContain('<code>Item[]</code>');
    expect(find).toContain('<code class="prop">sku</code>');
    expect(text.match(/<details class="tool"/g)).toHaveLength(http.mounts.reduce((n, m) => n + m.tools.length, 0));
  });

  it('escapes whatever authors write, so a description cannot inject markup or script', async () => {
    const text = await (await page()).text();
    expect(text).toContain('Finds &lt;script&gt;alert(0)&lt;/script&gt; nothing &amp; everything.');
    expect(text).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(text).toContain('&lt;/td&gt;&lt;/table&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text.match(/<script>/g)).toHaveLength(1);
    expect(text).not.toMatch(/<img/);
    expect(text).toContain('<span class="badge destructive">destructive</span>');
  });

  it('shows credential headers as placeholders and never a caller’s value or host name', async () => {
    // The page is rendered on its first request and then cached: each of two fresh servers renders
    // it for its own first caller, one with a credential and a host name, one without.
    const firstPage = async (headers: Record<string, string>) => {
      const { logger } = recordingLogger();
      const fresh = await serveHttp(buildServer({ name: 'vault', version: '0.0.1', toolsets: [VaultToolset], logger }), { port: 0, logger, allowedHosts: ['tools.example.com'], drainQuietMs: 0, drainTimeoutMs: 500 });
      try {
        return await new Promise<string>((resolve, reject) => {
          // node:http, which sends a Host header as given (fetch would put the loopback origin there).
          request(`${fresh.origin}/`, { headers: { accept: BROWSER_ACCEPT, ...headers }, agent: false }, (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(text));
          })
            .on('error', reject)
            .end();
        });
      } finally {
        await fresh.close();
      }
    };
    const withSecrets = await firstPage({ 'x-vault-token': 'sk-live-do-not-leak', host: 'tools.example.com' });
    expect(withSecrets).not.toContain('sk-live-do-not-leak');
    expect(withSecrets).not.toContain('tools.example.com');
    expect(withSecrets).toBe(await firstPage({}));
    const plain = await (await page()).text();
    expect(plain).not.toContain('sk-live-do-not-leak');
    expect(plain).not.toContain(http.origin);
    expect(plain).toContain('&quot;x-vault-token&quot;: &quot;&lt;your x-vault-token value&gt;&quot;');
    expect(plain).toContain('--header &quot;x-vault-token: &lt;your x-vault-token value&gt;&quot;');
    expect(plain).toContain('<span class="mcp-url" data-path="./vault/mcp">/vault/mcp</span>');
  });

  it('revalidates with an ETag, compresses for clients that accept gzip, and sends no body to HEAD', async () => {
    const first = await page({ 'accept-encoding': 'identity' });
    const etag = first.headers.get('etag')!;
    const body = Buffer.from(await first.arrayBuffer());
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await page({ 'if-none-match': etag })).status).toBe(304);

    // fetch would decompress on its own: read the raw bytes over node:http instead.
    const raw = await new Promise<{ encoding?: string; bytes: Buffer }>((resolve, reject) => {
      request(`${http.origin}/`, { headers: { accept: BROWSER_ACCEPT, 'accept-encoding': 'gzip, deflate' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    expect(raw.encoding).toBe('gzip');
    expect(raw.bytes.length).toBeLessThan(body.length / 2);
    expect(gunzipSync(raw.bytes).equals(body)).toBe(true);

    const head = await fetch(`${http.origin}/`, { method: 'HEAD', headers: { accept: BROWSER_ACCEPT } });
    expect(head.status).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });
});
