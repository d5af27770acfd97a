import type { UpstreamAnswer, UpstreamRequest, UpstreamTransport } from './upstream-transport';

/** The most redirects one call follows. */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A redirect the client would not follow: to another origin, or one too many. */
export class RefusedRedirect {
  constructor(
    readonly status: number,
    /** The target's origin (scheme, host and port), never its path or query; `undefined` when the Location is not a URL. */
    readonly targetOrigin: string | undefined,
    readonly reason: 'other_origin' | 'too_many' | 'bad_location',
  ) {}
}

/**
 * Sends `request`, following at most MAX_REDIRECTS redirects, and only within `origin`: following
 * any redirect would carry custom credential headers (an API key) to whatever host it names.
 * 303, and 301/302 after a POST, continue as a GET without the body, as browsers do.
 */
export async function sendWithinOrigin(transport: UpstreamTransport, url: URL, request: UpstreamRequest, origin: string): Promise<UpstreamAnswer | RefusedRedirect> {
  let target = url;
  let current = request;
  for (let followed = 0; ; followed++) {
    const answer = await transport.send(target, current);
    if (!REDIRECTS.has(answer.status)) return answer;
    const location = answer.header('location');
    if (location === undefined) return answer;
    answer.discard();
    let next: URL;
    try {
      next = new URL(location, target);
    } catch {
      return new RefusedRedirect(answer.status, undefined, 'bad_location');
    }
    if (next.origin !== origin) return new RefusedRedirect(answer.status, next.origin === 'null' ? `${next.protocol}` : next.origin, 'other_origin');
    if (followed === MAX_REDIRECTS) return new RefusedRedirect(answer.status, next.origin, 'too_many');
    if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && current.method === 'POST')) current = asGet(current);
    target = next;
  }
}

function asGet(request: UpstreamRequest): UpstreamRequest {
  const headers = { ...request.headers };
  delete headers['content-type'];
  return { method: 'GET', headers, cancel: request.cancel };
}
