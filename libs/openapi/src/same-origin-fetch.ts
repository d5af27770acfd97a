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
 * `fetch` that follows at most MAX_REDIRECTS redirects, and only within `origin`: the platform's
 * own following would carry custom credential headers (an API key) to any host a redirect names.
 * 303, and 301/302 after a POST, continue as a GET without the body, as browsers do.
 */
export async function fetchWithinOrigin(url: URL, init: RequestInit, origin: string): Promise<Response | RefusedRedirect> {
  let target = url;
  let request: RequestInit = { ...init, redirect: 'manual' };
  for (let followed = 0; ; followed++) {
    const response = await fetch(target, request);
    if (!REDIRECTS.has(response.status)) return response;
    const location = response.headers.get('location');
    if (location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    let next: URL;
    try {
      next = new URL(location, target);
    } catch {
      return new RefusedRedirect(response.status, undefined, 'bad_location');
    }
    if (next.origin !== origin) return new RefusedRedirect(response.status, next.origin === 'null' ? `${next.protocol}` : next.origin, 'other_origin');
    if (followed === MAX_REDIRECTS) return new RefusedRedirect(response.status, next.origin, 'too_many');
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && request.method === 'POST')) request = asGet(request);
    target = next;
  }
}

function asGet(init: RequestInit): RequestInit {
  const headers = { ...(init.headers as Record<string, string>) };
  delete headers['content-type'];
  const { body: _body, ...rest } = init;
  return { ...rest, method: 'GET', headers };
}
