import { ResourceNotFoundError, type ReadResourceResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { CompiledView, ToolCatalog } from '../../compiled/tool-catalog';
import { clip } from '../../helpers/client-text';
import type { ResourceBody } from '../../wire/resource-body';
import { base64Of } from '../../wire/tool-content';
import { invokeMember, memberInput, unsendable } from './member-call';
import { memberScope, type CallSite, type RequestRoots } from '../request/member-scope';
import { Call } from '../request/call';
import { matchResource } from './resource-match';
import { mayUse, refuseWithoutAnyScopes, refuseWithoutScopes } from '../request/scope-check';
import { redactValue } from '../logging/redaction';

type ReadRequest = { params: { uri: string } };
type Contents = ReadResourceResult['contents'][number];

/** A `resources/read` handler for each SDK `Server` instance (the lists are its view's). */
export function resourceHandlers(definition: RequestRoots & { catalog: ToolCatalog }) {
  const { catalog } = definition;
  return {
    read: (site: CallSite, server: Server) => async (request: ReadRequest, ctx: ServerContext): Promise<ReadResourceResult> => {
      const uri = request.params.uri;
      const unknown = () => new ResourceNotFoundError(uri, `No resource matches '${clip(uri)}'; resources/list and resources/templates/list say what there is.`);
      const view = catalog.toolViews.get(uri);
      if (view) return readView(view, ctx, unknown);
      const match = matchResource(catalog, uri);
      if (!match) throw unknown();
      const { toolset, methodName, descriptor } = match.member;
      const what = match.kind === 'resource' ? `resource '${uri}'` : `resource template '${match.member.descriptor.uriTemplate}'`;
      refuseWithoutScopes(ctx, toolset.requiredScopes, what, unknown);
      const input = match.kind === 'template' ? memberInput(match.member.args, match.variables, what) : undefined;
      const scope = memberScope(definition, Call.ofRequest(site, ctx, server), toolset, descriptor.name);
      const body = (await invokeMember(scope, methodName, input, what)) as ResourceBody;
      const contents = contentsOf(uri, descriptor.mimeType, body, () => unsendable(scope.logger, what, ['it returned neither text nor bytes']));
      return { contents: [redactValue(contents, scope.redact) as Contents] };
    },
  };
}

/**
 * A view's HTML, read once by the gate: to a caller who may call at least one of the tools that
 * show it. The others get the scope refusal naming each tool's scopes, any one set of which would
 * do (or, with AUTH_OUT_OF_SCOPE=hide, the answer an unknown URI gets).
 */
function readView(view: CompiledView, ctx: ServerContext, unknown: () => Error): ReadResourceResult {
  const open = view.tools.find((tool) => mayUse(ctx, tool.requiredScopes));
  if (!open) refuseWithoutAnyScopes(ctx, view.tools.map((tool) => ({ scopes: tool.requiredScopes, by: `'${tool.name}'` })), `the view '${view.uri}'`, unknown);
  return { contents: [view.contents as Contents] };
}

/** A resource body as `resources/read` sends it: the URI and mime type filled in, bytes as base64. */
function contentsOf(uri: string, declaredMimeType: string | undefined, body: ResourceBody, bad: () => Error): Contents {
  const mime = (own?: string) => {
    const mimeType = own ?? declaredMimeType;
    return mimeType === undefined ? {} : { mimeType };
  };
  if (typeof body === 'string') return { uri, ...mime(), text: body };
  if (body instanceof Uint8Array) return { uri, ...mime(), blob: base64Of(body) };
  if (body && typeof body === 'object' && 'text' in body && typeof body.text === 'string') return { uri, ...mime(body.mimeType), text: body.text };
  if (body && typeof body === 'object' && 'blob' in body && (typeof body.blob === 'string' || body.blob instanceof Uint8Array)) return { uri, ...mime(body.mimeType), blob: base64Of(body.blob) };
  throw bad();
}
