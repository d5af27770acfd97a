/** What reading an upstream body gave: its bytes, up to the cap, and how the reading ended. */
export interface BodyRead {
  /** The bytes read, at most the cap. */
  bytes: Buffer;
  /** `complete`: the whole body; `over_cap`: the body is longer than the cap and the rest was not read; `cut_off`: the stream failed or was aborted. */
  ending: 'complete' | 'over_cap' | 'cut_off';
  /** With `cut_off`: why the stream ended. */
  error?: unknown;
}

/**
 * Reads a body as a stream, keeping at most `maxBytes`: past that it stops reading and cancels
 * the rest, so an endless or huge answer costs at most the cap. A `Content-Length` over the cap
 * is refused before reading.
 */
export async function readBounded(response: Response, maxBytes: number): Promise<BodyRead> {
  const body = response.body;
  if (!body) return { bytes: Buffer.alloc(0), ending: 'complete' };
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await body.cancel().catch(() => undefined);
    return { bytes: Buffer.alloc(0), ending: 'over_cap' };
  }
  // A declared length within the cap bounds the body (the platform refuses more): read it in one
  // go, which costs a fraction of a chunk-by-chunk read for the small answers most calls get.
  if (Number.isFinite(declared)) {
    try {
      return { bytes: Buffer.from(await response.arrayBuffer()), ending: 'complete' };
    } catch (error) {
      return { bytes: Buffer.alloc(0), ending: 'cut_off', error };
    }
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: Buffer.concat(chunks, size), ending: 'complete' };
      if (size + value.byteLength > maxBytes) {
        chunks.push(value.subarray(0, maxBytes - size));
        await reader.cancel().catch(() => undefined);
        return { bytes: Buffer.concat(chunks, maxBytes), ending: 'over_cap' };
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } catch (error) {
    return { bytes: Buffer.concat(chunks, size), ending: 'cut_off', error };
  }
}
