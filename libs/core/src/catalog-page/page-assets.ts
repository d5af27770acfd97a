import { createHash } from 'node:crypto';

/** The page's only style sheet, inline (the Content-Security-Policy allows exactly this text). */
export const PAGE_STYLE = `
:root { color-scheme: light dark; --line: #8884; --muted: #888; --accent: #2563eb; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 72rem; padding: 1.5rem; }
header { position: sticky; top: 0; background: Canvas; padding: .5rem 0 .75rem; border-bottom: 1px solid var(--line); z-index: 1; }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .25rem; }
h3 { font-size: 1rem; margin: 1.25rem 0 .25rem; }
h4 { font-size: .95rem; margin: 1rem 0 .25rem; }
h5 { font-size: .9rem; margin: .5rem 0 .25rem; }
#search { width: 100%; font: inherit; padding: .5rem .75rem; border: 1px solid var(--line); border-radius: .4rem; }
#count, .muted { color: var(--muted); }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .88em; }
pre { background: #8881; padding: .75rem; border-radius: .4rem; overflow-x: auto; }
details.tool { border: 1px solid var(--line); border-radius: .4rem; margin: .4rem 0; padding: .4rem .75rem; }
details.tool > summary { cursor: pointer; }
details.tool[open] > summary { margin-bottom: .5rem; }
.name { font-weight: 600; }
.summary-text { color: var(--muted); margin-left: .5rem; }
.badge { display: inline-block; font-size: .75rem; border: 1px solid var(--line); border-radius: 1rem; padding: 0 .5rem; margin-left: .35rem; }
.badge.destructive { border-color: #dc2626; color: #dc2626; }
table.schema { border-collapse: collapse; width: 100%; margin: .25rem 0; }
table.schema th, table.schema td { border-top: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
table.schema th { font-size: .8rem; color: var(--muted); font-weight: 500; }
.req, .opt { display: block; font-size: .72rem; }
.req { color: #b45309; }
.opt { color: var(--muted); }
.constraint { display: inline-block; font-size: .78rem; border-radius: .3rem; background: #8882; padding: 0 .35rem; margin: 0 .15rem; }
.nested, .arm { border-left: 3px solid var(--line); padding-left: .75rem; margin: .4rem 0; }
.copy { font: inherit; font-size: .75rem; margin-left: .5rem; }
details.groups { margin: .5rem 0; }
details.groups > summary { cursor: pointer; }
.picker label { margin-right: 1rem; white-space: nowrap; }
[hidden] { display: none !important; }
.badge.view { border-color: var(--accent); color: var(--accent); }
.view-preview iframe { width: 100%; height: 240px; border: 1px solid var(--line); border-radius: .4rem; background: #fff; }
`;

/**
 * The page's only script, inline: fills in each server's absolute URL from the page's own
 * address, filters the tools as the reader types (name, title, description and argument names),
 * opens a single match, copies a client snippet, and builds the URL of a selection of groups.
 */
export const PAGE_SCRIPT = `
// The page is the server's root: resolve against it as a folder, so /prefix and /prefix/ agree.
const root = new URL(location.href);
root.search = '';
root.hash = '';
if (!root.pathname.endsWith('/')) root.pathname += '/';
for (const el of document.querySelectorAll('.mcp-url')) el.textContent = new URL(el.dataset.path, root).href;
const search = document.getElementById('search');
const count = document.getElementById('count');
const tools = [...document.querySelectorAll('details.tool')];
const sections = [...document.querySelectorAll('section.server')];
function filter() {
  const terms = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
  let shown = 0;
  let last;
  for (const tool of tools) {
    const hit = terms.every((term) => tool.dataset.search.includes(term));
    tool.hidden = !hit;
    if (hit) { shown++; last = tool; }
  }
  for (const section of sections) section.querySelector('.tools').hidden = terms.length > 0 && !section.querySelector('details.tool:not([hidden])');
  count.textContent = terms.length ? shown + ' of ' + tools.length + ' tools match' : tools.length + ' tools';
  if (shown === 1 && terms.length) last.open = true;
  const url = new URL(location.href);
  if (terms.length) url.searchParams.set('q', search.value); else url.searchParams.delete('q');
  history.replaceState(null, '', url);
}
search.addEventListener('input', filter);
document.addEventListener('keydown', (event) => { if (event.key === '/' && document.activeElement !== search) { event.preventDefault(); search.focus(); } });
for (const button of document.querySelectorAll('button.copy')) {
  button.addEventListener('click', () => {
    const text = button.closest('.snippet').querySelector('pre').textContent;
    // The clipboard needs a secure context (https or localhost): elsewhere, select the text to copy by hand.
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => (button.textContent = 'Copied'));
    else getSelection().selectAllChildren(button.closest('.snippet').querySelector('pre'));
  });
}
// Each server's group picker writes the URL of the selection it makes.
for (const picker of document.querySelectorAll('.picker')) {
  const output = picker.querySelector('.selected-url .mcp-url');
  const size = picker.querySelector('.selected-size');
  const discoveryBox = picker.querySelector('.pick-discovery');
  // Code mode's box, where the server serves it: one mode at a time, so ticking one unticks the other.
  const codeBox = picker.querySelector('.pick-code');
  const update = (event) => {
    if (codeBox && event.target === codeBox && codeBox.checked) discoveryBox.checked = false;
    if (codeBox && event.target === discoveryBox && discoveryBox.checked) codeBox.checked = false;
    const url = new URL(picker.dataset.path, root);
    const picked = [...picker.querySelectorAll('.pick-group:checked')];
    if (picked.length) url.searchParams.set('toolsets', picked.map((box) => box.value).join(','));
    if (picker.querySelector('.pick-readonly').checked) url.searchParams.set('readonly', '1');
    const mode = discoveryBox.checked ? 'discovery' : codeBox && codeBox.checked ? 'code' : undefined;
    if (mode) url.searchParams.set('mode', mode);
    output.textContent = url.href.replace(/%2C/g, ',');
    const tokens = mode ? Number(picker.dataset[mode + 'Tokens']) : picked.reduce((sum, box) => sum + Number(box.dataset.tokens), 0);
    size.textContent = picked.length || mode ? '(tools/list ~' + tokens.toLocaleString('en') + ' tokens' + (mode || !picker.querySelector('.pick-readonly').checked ? '' : ' before read-only') + ')' : '';
  };
  picker.addEventListener('change', update);
}
const query = new URL(location.href).searchParams.get('q');
if (query) search.value = query;
filter();
// A tool's view, previewed: the page plays the MCP Apps host for a sandboxed frame, answering
// ui/initialize and sending the sample arguments and result; it makes no calls for the view.
for (const preview of document.querySelectorAll('.view-preview')) {
  preview.querySelector('button.preview').addEventListener('click', () => {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.title = 'View of ' + preview.dataset.tool + ' with a sample result';
    const send = (message) => frame.contentWindow.postMessage(Object.assign({ jsonrpc: '2.0' }, message), '*');
    window.addEventListener('message', (event) => {
      if (event.source !== frame.contentWindow || !event.data || event.data.jsonrpc !== '2.0') return;
      const { id, method, params } = event.data;
      if (method === 'ui/initialize') {
        const theme = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
        send({ id, result: { protocolVersion: params.protocolVersion, hostInfo: { name: 'toolsets catalog page', version: '1' }, hostCapabilities: {}, hostContext: { theme, displayMode: 'inline' } } });
      } else if (method === 'ui/notifications/initialized') {
        const sample = JSON.parse(preview.dataset.sample);
        send({ method: 'ui/notifications/tool-input', params: { arguments: JSON.parse(preview.dataset.args) } });
        send({ method: 'ui/notifications/tool-result', params: { content: [{ type: 'text', text: JSON.stringify(sample) }], structuredContent: sample } });
      } else if (method === 'ui/notifications/size-changed' && params && params.height) {
        frame.style.height = Math.min(Math.max(params.height, 80), 800) + 'px';
      } else if (id !== undefined && method) {
        send({ id, error: { code: -32601, message: 'The catalog page previews the view with a sample result and makes no calls (' + method + ').' } });
      }
    });
    frame.src = new URL(preview.dataset.src, root).href;
    preview.replaceChildren(frame);
  });
}
if (location.hash) { const target = document.getElementById(decodeURIComponent(location.hash.slice(1))); if (target && target.tagName === 'DETAILS') { target.open = true; target.scrollIntoView(); } }
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Nothing but the page's own inline style and script; no network, no frames, no forms. */
export const PAGE_CSP = [
  "default-src 'none'",
  `style-src ${sha256(PAGE_STYLE)}`,
  `script-src ${sha256(PAGE_SCRIPT)}`,
  "img-src 'self' data:",
  // Tool views are previewed in sandboxed frames from this server (_view/<server>/<tool>).
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
