import type { IncomingMessage } from 'node:http';
import { BodyBudget, FREE_BODY_BYTES } from './body-budget';

/** Why a body was not read: the status and message to answer with. */
export class BodyRefusal {
  constructor(
    readonly status: 413 | 503,
    readonly message: string,
  ) {}
}

/** The client went away before its body was complete: there is nobody to answer. */
export class BodyAborted {}

/**
 * Reads a request body into memory the server owns, within `maxBytes` and the shared budget.
 * Each chunk is copied into one growing buffer, so many tiny chunks cost their bytes, not a
 * retained slice of the socket's read buffer each. Resolves with the body, a refusal, or an abort.
 */
export function readBody(req: IncomingMessage, maxBytes: number, budget: BodyBudget): Promise<Buffer | BodyRefusal | BodyAborted> {
  const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  if (declared !== undefined && declared > maxBytes) return Promise.resolve(tooLarge(maxBytes));
  let reserved = 0;
  const reserveUpTo = (size: number): boolean => {
    const needed = Math.max(0, size - FREE_BODY_BYTES) - reserved;
    if (needed <= 0) return true;
    if (!budget.reserve(needed)) return false;
    reserved += needed;
    return true;
  };
  if (declared !== undefined && !reserveUpTo(declared)) return Promise.resolve(busy());

  return new Promise((resolve) => {
    let buffer = Buffer.allocUnsafe(Math.min(declared ?? FREE_BODY_BYTES, FREE_BODY_BYTES));
    let length = 0;
    const finish = (outcome: Buffer | BodyRefusal | BodyAborted) => {
      req.off('data', onData).off('end', onEnd).off('aborted', onAborted).off('error', onAborted).off('close', onClose);
      budget.release(reserved);
      reserved = 0;
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      const size = length + chunk.length;
      if (size > maxBytes) return finish(tooLarge(maxBytes));
      if (!reserveUpTo(size)) return finish(busy());
      if (size > buffer.length) {
        const grown = Buffer.allocUnsafe(Math.min(Math.max(size, buffer.length * 2), declared ?? maxBytes));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      chunk.copy(buffer, length);
      length = size;
    };
    const onEnd = () => finish(buffer.subarray(0, length));
    const onAborted = () => finish(new BodyAborted());
    const onClose = () => {
      if (!req.complete) finish(new BodyAborted());
    };
    req.on('data', onData).on('end', onEnd).on('aborted', onAborted).on('error', onAborted).on('close', onClose);
  });
}

function tooLarge(maxBytes: number): BodyRefusal {
  return new BodyRefusal(413, `Request body too large: this server accepts at most ${maxBytes} bytes (MAX_BODY_BYTES).`);
}

function busy(): BodyRefusal {
  return new BodyRefusal(503, 'The server is buffering as many request bodies as it can; retry shortly.');
}
