import type { FetchLike } from '@modelcontextprotocol/client';

/**
 * `fetch` for the SDK's streamable HTTP transport, with a signal of its own per request. The
 * transport hands every request the one signal it aborts on close, and undici keeps a listener on
 * that signal per request until the request is garbage-collected: an upstream connection that
 * serves thousands of calls piled up thousands of listeners (Node's "Possible EventTarget memory
 * leak" warning, some 2,300 lines for 4,000 calls from 8 clients). Here each request listens on the
 * shared signal only while it runs (until its answer's body ends, fails or is cancelled), and
 * undici sees only the request's own signal.
 */
export function requestSignalFetch(inner: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const shared = init?.signal;
    if (!shared) return inner(url, init);
    shared.throwIfAborted();
    const own = new AbortController();
    const abort = () => own.abort(shared.reason);
    shared.addEventListener('abort', abort, { once: true });
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      shared.removeEventListener('abort', abort);
    };
    let response: Response;
    try {
      response = await inner(url, { ...init, signal: own.signal });
    } catch (error) {
      release();
      throw error;
    }
    // A body-less answer (202 to a notification, 204) has nothing more to wait for.
    if (!response.body || NULL_BODY_STATUSES.has(response.status)) {
      release();
      return response;
    }
    return new Response(releasingBody(response.body, release), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** Statuses a `Response` may not be built with a body for. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** `body` as it comes, calling `release` once it ends, fails or its reader cancels it. */
function releasingBody(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}
