import type { Readable, Writable } from 'node:stream';
import { parseJSONRPCMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { clip } from '../../helpers/client-text';
import type { Logger } from '../../server/logging/logger';
import { idOf, INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR } from '../jsonrpc-errors';
import { invalidInitializeParams } from '../guards/initialize-check';
import { hasPrototypeKey, PROTOTYPE_KEY_MESSAGE } from '../guards/prototype-key';
import type { StdioFastCalls } from './stdio-fast-calls';

const NEWLINE = 0x0a;

/**
 * Newline-delimited JSON-RPC over a pair of streams, that keeps serving whatever arrives: a line
 * that is not JSON gets a `-32700` reply, one that is not a JSON-RPC message `-32600`, and a line
 * over `maxLineBytes` is discarded as it streams in (never buffered) and answered `-32600`.
 */
export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The fast path: sees every parsed line first and every message sent. */
  fast?: StdioFastCalls;

  /**
   * Settles when the client ends its side of the connection (stdin ends or closes), never when this
   * side closes it: the stdio binding's shutdown, which an app answers by exiting.
   */
  readonly inputEnded: Promise<void>;

  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #discarding = false;
  #closed = false;
  #endInput!: () => void;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxLineBytes: number,
    private readonly logger: Logger,
  ) {
    this.inputEnded = new Promise((resolve) => (this.#endInput = resolve));
  }

  async start(): Promise<void> {
    this.input.on('data', this.#onData);
    this.input.on('end', this.#onEnd);
    this.input.on('close', this.#onEnd);
    this.input.on('error', this.#onError);
    this.output.on('error', this.#onError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error('The stdio transport is closed.');
    this.fast?.sending(message);
    await this.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.input.off('data', this.#onData);
    this.input.off('end', this.#onEnd);
    this.input.off('close', this.#onEnd);
    this.input.off('error', this.#onError);
    this.input.pause();
    this.#pending = [];
    this.fast?.close();
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer): void => {
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      this.append(chunk.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
  };

  readonly #onEnd = (): void => {
    // Only the input's own end comes here: close() lets go of these listeners first.
    this.#endInput();
    void this.close();
  };

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  private append(part: Buffer): void {
    if (this.#discarding || part.length === 0) return;
    if (this.#pendingBytes + part.length > this.maxLineBytes) {
      this.#discarding = true;
      this.#pending = [];
      this.#pendingBytes = 0;
      return;
    }
    // A copy: a slice would keep the whole read chunk alive.
    this.#pending.push(Buffer.from(part));
    this.#pendingBytes += part.length;
  }

  private endLine(): void {
    if (this.#discarding) {
      this.#discarding = false;
      this.logger.warn('stdio message over the size limit discarded', { maxBytes: this.maxLineBytes });
      this.reply(INVALID_REQUEST, `Request too large: this server accepts messages of at most ${this.maxLineBytes} bytes (MAX_BODY_BYTES).`);
      return;
    }
    const line = Buffer.concat(this.#pending, this.#pendingBytes).toString('utf8').replace(/\r$/, '');
    this.#pending = [];
    this.#pendingBytes = 0;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.reply(PARSE_ERROR, `Parse error: the line is not valid JSON (${clip(line, 80)}).`);
      return;
    }
    if (hasPrototypeKey(line, value)) {
      this.reply(INVALID_REQUEST, PROTOTYPE_KEY_MESSAGE, idOf(value));
      return;
    }
    const badInitialize = invalidInitializeParams(value);
    if (badInitialize) {
      this.reply(INVALID_PARAMS, badInitialize, idOf(value));
      return;
    }
    if (this.fast?.take(value)) return;
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      this.reply(INVALID_REQUEST, 'Invalid Request: the line is JSON but not a JSON-RPC 2.0 message.', idOf(value));
      return;
    }
    this.onmessage?.(message);
  }

  /** Writes a line the fast path answers with, unless the transport is closed. */
  writeLine(line: string): void {
    if (!this.#closed) void this.write(line).catch(() => undefined);
  }

  private reply(code: number, message: string, id: string | number | null = null): void {
    if (this.#closed) return;
    void this.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }) + '\n').catch(() => undefined);
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const ok = this.output.write(text, (error) => (error ? reject(error) : undefined));
      if (ok) resolve();
      else this.output.once('drain', resolve);
    });
  }
}

