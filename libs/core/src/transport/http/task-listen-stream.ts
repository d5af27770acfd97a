import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT_CAPABILITIES_META_KEY, SUBSCRIPTION_ID_META_KEY, type ClientCapabilities } from '@modelcontextprotocol/server';
import type { VerifiedCaller } from '../../context/auth-context';
import { DEFAULT_ARGUMENT_LIMITS } from '../../server/checks/argument-limits';
import { httpOrigin } from '../../server/request/call-origin';
import type { TaskListens } from '../../server/tasks/task-listens';
import { TASKS_EXTENSION } from '../../server/tasks/task-wire';
import { armKeepAlive, KEEP_ALIVE_FRAME, messageFrame } from '../../wire/sdk-mirror';
import { SERVER_BUSY } from '../jsonrpc-errors';
import { webRequest } from './fetch-bridge';
import { sendJson } from './http-replies';

const MISSING_CAPABILITY = -32021;

type ListenMessage = { id?: unknown; method?: unknown; params?: { notifications?: { taskIds?: unknown }; _meta?: Record<string, unknown> } };

/** Whether `parsed` is a `subscriptions/listen` that asks for task notifications (`notifications.taskIds`). */
export function isTaskListen(parsed: object): boolean {
  const message = parsed as ListenMessage;
  return message.method === 'subscriptions/listen' && Array.isArray(message.params?.notifications?.taskIds);
}

/**
 * Serves a 2026-07-28 `subscriptions/listen` for tasks as the SDK serves one for lists: an SSE
 * stream opening with `notifications/subscriptions/acknowledged` (naming the task ids it follows:
 * the caller's own), then `notifications/tasks` carrying the whole task, now and at each change,
 * each stamped with the subscription id (the request's id), and a final result once every task it
 * follows has ended. A client that did not declare the tasks extension is refused (-32021, 400).
 */
export async function serveTaskListen(
  listens: TaskListens,
  req: IncomingMessage,
  res: ServerResponse,
  parsed: object,
  caller: VerifiedCaller | undefined,
  keepAliveMs: number,
): Promise<void> {
  const message = parsed as ListenMessage;
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  const meta = message.params?._meta;
  const capabilities = meta?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  if (capabilities?.extensions?.[TASKS_EXTENSION] === undefined) {
    const data = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };
    return sendJson(res, 400, { jsonrpc: '2.0', id, error: { code: MISSING_CAPABILITY, message: `Task notifications need the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities.`, data } });
  }
  const taskIds = (message.params!.notifications!.taskIds as unknown[]).filter((taskId): taskId is string => typeof taskId === 'string');
  const stream = new ListenStream(res, id, keepAliveMs);
  const listen = await listens.open(httpOrigin(webRequest(req), caller, meta, DEFAULT_ARGUMENT_LIMITS), taskIds, stream);
  if (typeof listen === 'string') {
    const [status, why] = listen === 'caller' ? [429, 'Too many task listens from this caller: close one first.'] : [503, 'Too many task listens on this server; retry shortly.'];
    return sendJson(res, status, { jsonrpc: '2.0', id, error: { code: SERVER_BUSY, message: why } }, { 'retry-after': '1' });
  }
  res.once('close', () => {
    listen.stop();
    stream.close();
  });
  stream.acknowledge(listen.taskIds);
}

/** One SSE response: notifications held until the acknowledgement is written, then sent as they come. */
class ListenStream {
  #held: Record<string, unknown>[] | undefined = [];
  #ended = false;
  #keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly id: string | number | null,
    private readonly keepAliveMs: number,
  ) {}

  acknowledge(taskIds: readonly string[]): void {
    this.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
    this.write({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds }, _meta: { [SUBSCRIPTION_ID_META_KEY]: this.id } } });
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const task of held) this.notify(task);
    this.#keepAlive = armKeepAlive(this.keepAliveMs, () => this.res.write(KEEP_ALIVE_FRAME));
    if (this.#ended) this.end();
  }

  notify(task: Record<string, unknown>): void {
    if (this.#held) return void this.#held.push(task);
    this.write({ method: 'notifications/tasks', params: { ...task, _meta: { [SUBSCRIPTION_ID_META_KEY]: this.id } } });
  }

  /** Every task it follows has ended (or its time ran out): the listen's own result closes the stream. */
  end(): void {
    this.#ended = true;
    if (this.#held || this.res.writableEnded) return;
    this.write({ id: this.id, result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META_KEY]: this.id } } });
    this.close();
    this.res.end();
  }

  close(): void {
    clearInterval(this.#keepAlive);
  }

  private write(message: Record<string, unknown>): void {
    if (!this.res.writableEnded) this.res.write(messageFrame(JSON.stringify({ jsonrpc: '2.0', ...message })));
  }
}
