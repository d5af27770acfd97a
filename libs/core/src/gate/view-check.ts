import { readFileSync, statSync, type Stats } from 'node:fs';
import type { Resource } from '@modelcontextprotocol/server';
import type { ContractViolation, ViolationSite } from '../errors/contract-violation';
import { InvalidViewError } from '../errors/invalid-view.error';
import { InvalidViewUriError } from '../errors/invalid-view-uri.error';
import { MissingViewBundleError } from '../errors/missing-view-bundle.error';
import { ViewCspOriginError } from '../errors/view-csp-origin.error';
import { describeEntry } from '../helpers/describe-value';
import { TOOL_NAME_PATTERN } from '../helpers/naming';
import { isViewDefinition, VIEW_MIME_TYPE, type ViewDefinition, type ViewVisibility } from '../metadata/tool-view';
import type { CompiledToolView, ViewContent } from '../compiled/tool-catalog';

const CSP_LISTS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSIONS = new Set(['camera', 'microphone', 'geolocation', 'clipboardWrite']);
const KNOWN = new Set(['uri', 'name', 'title', 'description', 'bundle', 'html', 'csp', 'permissions', 'domain', 'prefersBorder']);
const ORIGIN_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:']);
/** `ui://` then a host-like first segment and an optional path, nothing a host would have to escape. */
const VIEW_URI = /^ui:\/\/[A-Za-z0-9._-]+(\/[A-Za-z0-9._~-]+)*\/?$/;
/** Bigger than any view a host will load quickly; a bundle this size has swallowed something by mistake. */
const MAX_VIEW_BYTES = 5 * 2 ** 20;
/**
 * Bundles read in this process, by path: an app that builds several servers sharing a view (the
 * demo app builds five) reads it once. A bundle rebuilt since (another size or time) is read again.
 */
const bundles = new Map<string, { mtimeMs: number; size: number; html: string }>();

/**
 * The gate's part for `@Tool({ view })`: checks each `defineView` constant once (URI, CSP origins,
 * permissions, the bundle on disk) and reads its HTML once, however many tools share it.
 */
export class ViewInspector {
  readonly #contents = new Map<ViewDefinition, ViewContent | undefined>();

  constructor(private readonly violations: ContractViolation[]) {}

  /** The tool's view checked and read; undefined when it has none or when a violation was reported. */
  inspect(site: ViolationSite, declared: unknown): CompiledToolView | undefined {
    if (declared === undefined) return undefined;
    const { view, visibility } = this.#split(declared);
    if (!isViewDefinition(view)) {
      this.violations.push(new InvalidViewError(site, `is ${describeEntry(view)}`, "declare it with `defineView({ uri: 'ui://…', bundle })` and pass that constant: `@Tool({ view: MyView })`."));
      return undefined;
    }
    if (!this.#checkVisibility(site, visibility)) return undefined;
    if (!this.#contents.has(view)) this.#contents.set(view, this.#read(site, view));
    const content = this.#contents.get(view);
    return content && { content, ...(visibility !== undefined && { visibility: visibility as ViewVisibility[] }) };
  }

  #split(declared: unknown): { view: unknown; visibility?: unknown } {
    if (isViewDefinition(declared) || typeof declared !== 'object' || declared === null || !('view' in declared)) return { view: declared };
    const { view, visibility } = declared as { view: unknown; visibility?: unknown };
    return { view, visibility };
  }

  #checkVisibility(site: ViolationSite, visibility: unknown): boolean {
    if (visibility === undefined) return true;
    if (Array.isArray(visibility) && visibility.length > 0 && visibility.every((who) => who === 'model' || who === 'app')) return true;
    this.violations.push(new InvalidViewError(site, `has visibility ${JSON.stringify(visibility)}`, "give `visibility: ['model', 'app']` (the default), `['app']` (only the view may call the tool) or `['model']`."));
    return false;
  }

  #read(site: ViolationSite, view: ViewDefinition): ViewContent | undefined {
    const before = this.violations.length;
    const uri = view.uri;
    if (typeof uri !== 'string' || !VIEW_URI.test(uri) || !URL.canParse(uri)) this.violations.push(new InvalidViewUriError(site, uri));
    const where = typeof uri === 'string' ? uri : String(uri);
    this.#checkShape(site, view);
    this.#checkCsp(site, where, view.csp);
    const name = view.name ?? where.replace(/\/$/, '').split('/').pop()!;
    if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
      this.violations.push(new InvalidViewError(site, `'${where}' has the name ${JSON.stringify(name)}`, "give `name:` 1–128 of `A-Z a-z 0-9 _ - .`, or leave it out to use the URI's last segment."));
    }
    if (this.violations.length > before) return undefined;
    const html = this.#html(site, view);
    if (html === undefined) return undefined;
    return contentOf(view, name, html);
  }

  #checkShape(site: ViolationSite, view: ViewDefinition): void {
    const unknown = Object.keys(view).filter((key) => !KNOWN.has(key));
    if (unknown.length > 0) this.violations.push(new InvalidViewError(site, `'${String(view.uri)}' has unknown option(s) ${unknown.map((key) => `'${key}'`).join(', ')}`, `use only ${[...KNOWN].join(', ')}.`));
    const source = sourceProblem(view);
    if (source) this.violations.push(new InvalidViewError(site, `'${String(view.uri)}' ${source.problem}`, source.fix));
    const permissions = view.permissions ?? {};
    const badPermissions = typeof permissions === 'object' && permissions !== null ? Object.keys(permissions).filter((key) => !PERMISSIONS.has(key)) : ['(not an object)'];
    if (badPermissions.length > 0) this.violations.push(new InvalidViewError(site, `'${String(view.uri)}' asks for unknown permission(s) ${badPermissions.join(', ')}`, `use only ${[...PERMISSIONS].join(', ')}, each as \`{}\`.`));
    if (view.prefersBorder !== undefined && typeof view.prefersBorder !== 'boolean') this.violations.push(new InvalidViewError(site, `'${String(view.uri)}' has prefersBorder ${describeEntry(view.prefersBorder)}`, 'give true or false.'));
    if (view.domain !== undefined && (typeof view.domain !== 'string' || view.domain.trim() === '')) this.violations.push(new InvalidViewError(site, `'${String(view.uri)}' has domain ${describeEntry(view.domain)}`, "give the host's sandbox domain as a string, or leave it out."));
  }

  #checkCsp(site: ViolationSite, uri: string, csp: unknown): void {
    if (csp === undefined) return;
    if (typeof csp !== 'object' || csp === null) {
      this.violations.push(new InvalidViewError(site, `'${uri}' has csp ${describeEntry(csp)}`, `give an object with any of ${CSP_LISTS.join(', ')}, each a list of origins.`));
      return;
    }
    for (const key of Object.keys(csp)) {
      const list = (csp as Record<string, unknown>)[key];
      if (!(CSP_LISTS as readonly string[]).includes(key) || !Array.isArray(list)) {
        this.violations.push(new InvalidViewError(site, `'${uri}' has csp.${key} ${describeEntry(list)}`, `use only ${CSP_LISTS.join(', ')}, each a list of origins.`));
        continue;
      }
      for (const value of list) {
        const problem = originProblem(value);
        if (problem) this.violations.push(new ViewCspOriginError(site, uri, key, value, problem.reason, problem.suggestion));
      }
    }
  }

  #html(site: ViolationSite, view: ViewDefinition): string | undefined {
    if (view.html !== undefined) return view.html;
    const bundle = view.bundle!;
    let size: number;
    let stat: Stats;
    try {
      stat = statSync(bundle);
      if (!stat.isFile()) throw Object.assign(new Error('it is not a file'), { code: 'NOTFILE' });
      size = stat.size;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      this.violations.push(new MissingViewBundleError(site, view.uri, bundle, code === 'ENOENT' ? 'no such file' : (error as Error).message));
      return undefined;
    }
    if (size === 0 || size > MAX_VIEW_BYTES) {
      this.violations.push(new MissingViewBundleError(site, view.uri, bundle, size === 0 ? 'the file is empty' : `the file is ${size} bytes, over the ${MAX_VIEW_BYTES}-byte limit for one view`));
      return undefined;
    }
    const read = bundles.get(bundle);
    if (read && read.mtimeMs === stat.mtimeMs && read.size === size) return read.html;
    const html = readFileSync(bundle, 'utf8');
    bundles.set(bundle, { mtimeMs: stat.mtimeMs, size, html });
    return html;
  }
}

/** What is wrong with where the view's HTML comes from (`bundle` or `html`), if anything. */
function sourceProblem(view: ViewDefinition): { problem: string; fix: string } | undefined {
  if ((view.bundle === undefined) === (view.html === undefined)) {
    return { problem: `has ${view.bundle === undefined ? 'neither `bundle` nor `html`' : 'both `bundle` and `html`'}`, fix: "give one: `bundle: viewBundle(__dirname, '<view-name>')` (the built file) or `html: '<!doctype html>…'`." };
  }
  if (view.bundle !== undefined && (typeof view.bundle !== 'string' || !view.bundle.startsWith('/'))) {
    return { problem: `has the bundle ${JSON.stringify(view.bundle)}, not an absolute path`, fix: "use `viewBundle(__dirname, '<view-name>')`, or `path.join(__dirname, …)`: a relative path would depend on the folder the server starts in." };
  }
  if (view.html !== undefined && (typeof view.html !== 'string' || view.html.trim() === '')) return { problem: 'has empty html', fix: 'give the whole HTML document, or a `bundle`.' };
  return undefined;
}

/** `value` parsed as a URL, a leading `*.` wildcard standing for one subdomain; undefined when it has no scheme and host. */
function parseOrigin(value: string): { url: URL; origin: string } | undefined {
  const wildcard = value.match(/^([a-z][a-z0-9+.-]*:\/\/)\*\.(.+)$/i);
  const candidate = wildcard ? `${wildcard[1]}wildcard.${wildcard[2]}` : value;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || !URL.canParse(candidate)) return undefined;
  const url = new URL(candidate);
  return { url, origin: wildcard ? `${wildcard[1]}*.${url.host.slice('wildcard.'.length)}` : url.origin };
}

/** Why `value` is not an origin a CSP directive can take, and the origin it probably meant; undefined when it is one. */
function originProblem(value: unknown): { reason: string; suggestion?: string } | undefined {
  if (typeof value !== 'string') return { reason: `it is ${describeEntry(value)}` };
  const parsed = parseOrigin(value);
  if (!parsed) return { reason: 'it has no scheme and host' };
  const { url, origin } = parsed;
  if (!ORIGIN_SCHEMES.has(url.protocol)) return { reason: `its scheme ${url.protocol} is not http, https, ws or wss` };
  if (url.username || url.password) return { reason: 'it has credentials in it' };
  if (url.pathname !== '/' || url.search || url.hash || value.endsWith('/')) return { reason: 'it has a path, query or fragment', suggestion: origin };
  if (value.indexOf('*') > value.indexOf('://') + 3) return { reason: "a wildcard may only stand for the leftmost subdomain ('https://*.example.com')" };
  return undefined;
}

/** The resource a view is served as: listed with its MIME type and `_meta.ui`, read as the HTML with the same `_meta.ui`. */
function contentOf(view: ViewDefinition, name: string, html: string): ViewContent {
  const ui = {
    ...(view.csp && Object.keys(view.csp).length > 0 && { csp: Object.fromEntries(Object.entries(view.csp).map(([key, list]) => [key, [...(list as string[])]])) }),
    ...(view.permissions && Object.keys(view.permissions).length > 0 && { permissions: Object.fromEntries(Object.keys(view.permissions).map((key) => [key, {}])) }),
    ...(view.domain !== undefined && { domain: view.domain }),
    ...(view.prefersBorder !== undefined && { prefersBorder: view.prefersBorder }),
  };
  const meta = Object.keys(ui).length > 0 ? { _meta: { ui } } : {};
  const descriptor: Resource = {
    uri: view.uri,
    name,
    ...(view.title !== undefined && { title: view.title }),
    ...(view.description !== undefined && { description: view.description }),
    mimeType: VIEW_MIME_TYPE,
    ...meta,
  };
  return { uri: view.uri, definition: view, descriptor, contents: { uri: view.uri, mimeType: VIEW_MIME_TYPE, text: html, ...meta }, bytes: Buffer.byteLength(html) };
}
