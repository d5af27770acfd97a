import type { CreateMessageResult, ElicitResult, ListRootsResult } from '@modelcontextprotocol/server';
import type { ClientInput } from '../../context/client-requests';
import type { TaskChannel } from '../../context/task-context';
import { TaskStop } from './task-stop';
import { answered } from '../request/sdk-client-input';
import { QuestionKeys } from '../request/start-task';
import type { TaskSignal, TaskStore } from './task-store';

/** Sends one of a task's questions to the client as a request of its own, and resolves with the answer. */
export type TaskAsker = (method: string, params: unknown, signal: AbortSignal) => Promise<unknown>;

/** What the engine is told of a running task while it waits for the client. */
export interface TaskParking {
  /** How long one question may wait for its answer, in milliseconds. */
  inputTimeoutMs(): number;
  /** The task starts waiting for input; returns a reason to stop it at once instead (the server is shutting down). */
  parked(task: RunningTask): TaskStop | undefined;
}

/**
 * One task while it runs in this process: its status goes to the store, its questions to the
 * client become `input_required` with `inputRequests` (answered by `tasks/update`, on any
 * replica), `tasks/cancel` aborts its signal, and so does the server when the task's time runs
 * out, its question waits too long, or the server stops while it waits.
 */
export class RunningTask implements TaskChannel {
  readonly abort = new AbortController();
  private asked = 0;
  private readonly waiting = new Map<string, (answer: unknown) => void>();
  /** The questions sent and not answered yet: several when the tool asks in parallel, all listed in the task's `inputRequests`. */
  private readonly outstanding = new Map<string, { method: string; params: unknown }>();
  private readonly stopListening: () => void;

  constructor(
    readonly taskId: string,
    private readonly store: TaskStore,
    private readonly parking: TaskParking,
    /** Asks the client directly, where the connection that created the task carries requests (2025-11-25 over stdio or a session). */
    private readonly asker?: TaskAsker,
    /** The answers the call gathered before it became a task (`askFirst`), by question key: given back instead of asked again. */
    private readonly gathered: Record<string, unknown> = {},
    /** What its status says while it waits for an answer, where the client may not otherwise learn there is a question. */
    private readonly waitingNote?: string,
  ) {
    this.stopListening = store.listen(taskId, (signal) => this.onSignal(signal));
  }

  /** Whether it waits for the client's answer now. */
  get parked(): boolean {
    return this.outstanding.size > 0;
  }

  /** Stops the run: its signal aborts with `reason`. */
  stop(reason: TaskStop | Error): void {
    this.abort.abort(reason);
  }

  async status(message: string): Promise<void> {
    await this.store.update(this.taskId, { statusMessage: message });
  }

  /** Elicitation and sampling through the task: each question is an input request the client answers with `tasks/update`. */
  readonly input: ClientInput = {
    elicit: async (params, options) => answered<ElicitResult>(this.gathered, this.keys.next('elicit', options?.key), 'elicit') ?? this.ask<ElicitResult>('elicitation/create', { mode: 'form', ...params }),
    sample: async (params, options) => answered<CreateMessageResult>(this.gathered, this.keys.next('sample', options?.key), 'sampling') ?? this.ask<CreateMessageResult>('sampling/createMessage', params),
    listRoots: async (options) => answered<ListRootsResult>(this.gathered, this.keys.next('roots', options?.key), 'roots') ?? this.ask<ListRootsResult>('roots/list', {}),
    elicitUrl: async (params, options) => answered<ElicitResult>(this.gathered, this.keys.next('elicit', options?.key), 'elicit') ?? this.ask<ElicitResult>('elicitation/create', { mode: 'url', ...params }),
  };
  private readonly keys = new QuestionKeys();

  /** Stops listening for answers and cancellation (the run ended). */
  done(): void {
    this.stopListening();
    for (const resolve of this.waiting.values()) resolve(undefined);
    this.waiting.clear();
  }

  private async ask<T>(method: string, params: unknown): Promise<T> {
    // Each key is used once over the task's lifetime, as the extension requires.
    const key = `input-${++this.asked}`;
    const answer = new Promise<unknown>((resolve) => this.waiting.set(key, resolve));
    this.outstanding.set(key, { method, params });
    await this.store.update(this.taskId, { status: 'input_required', inputRequests: Object.fromEntries(this.outstanding), ...(this.waitingNote && { statusMessage: this.waitingNote }) });
    const refused = this.parking.parked(this);
    if (refused) this.stop(refused);
    // Where it can, the question goes to the client at once; otherwise it waits for tasks/update or tasks/result.
    this.asker?.(method, params, this.abort.signal).then(
      (answer) => this.waiting.get(key)?.(answer),
      () => undefined,
    );
    const waitMs = this.parking.inputTimeoutMs();
    const timer = setTimeout(() => this.stop(TaskStop.unanswered(waitMs)), waitMs).unref();
    try {
      const answered = await untilAborted(answer, this.abort.signal);
      this.outstanding.delete(key);
      // Answered one of several: the task waits, listing only the questions still open.
      const open = this.outstanding.size > 0;
      await this.store.update(this.taskId, open ? { status: 'input_required', inputRequests: Object.fromEntries(this.outstanding) } : { status: 'working', inputRequests: undefined, ...(this.waitingNote && { statusMessage: undefined }) });
      return answered as T;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(key);
      this.outstanding.delete(key);
    }
  }

  private onSignal(signal: TaskSignal): void {
    if (signal.kind === 'cancel') {
      this.stop(new Error('The client cancelled the task.'));
      return;
    }
    if (signal.kind !== 'answer') return;
    // Keys not outstanding (never issued, answered already) are ignored, as the extension says.
    for (const [key, answer] of Object.entries(signal.responses)) this.waiting.get(key)?.(answer);
  }
}

/** `promise`, or a rejection with the signal's reason once `signal` aborts, whichever comes first. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
