import type { ClassType } from '../types/class-type';
import type { AskOptions, ClientInput, Elicitation } from './client-requests';

/** Where a running task reports to: its record in the task store (absent for a blocking call). */
export interface TaskChannel {
  readonly taskId: string;
  /** Sets the task's `statusMessage`, which clients see on their next `tasks/get`. */
  status(message: string): Promise<void>;
}

/** A call running as a task: where it reports, and how it asks the client (through the task). */
export interface TaskRun {
  channel: TaskChannel;
  input: ClientInput;
  signal: AbortSignal;
}

/** What a `TaskContext` needs from the call it belongs to. */
export interface TaskContextInit {
  /** The task's own record, when the call runs as a task. */
  channel?: TaskChannel;
  signal: AbortSignal;
  /** The call's progress notifications (a blocking call whose client asked for progress). */
  progress: (progress: number, total?: number, message?: string) => Promise<void>;
  /** The call's `RequestContext.elicit`: a task moves to `input_required` while it waits. */
  elicit: <T extends object>(message: string, form: ClassType<T>, options?: AskOptions) => Promise<Elicitation<T>>;
  /** Makes the call a task, where `task.start()` does (an `askFirst` tool called by a client that wants a task). */
  start?: () => never;
}

/**
 * What a long-running tool (`@Tool({ task })`) reports and asks while it works, injected into
 * toolset constructors (or read as `context.task`). The same code serves both ways a call can run:
 * as a task, status and progress become the task's `statusMessage`, `requireInput` moves it to
 * `input_required` until the client answers with `tasks/update`, and `tasks/cancel` aborts
 * `signal`; as a blocking call (a client without task support), they become progress
 * notifications and an ordinary elicitation.
 */
export class TaskContext {
  /** The task's id; undefined when the call is not running as a task. */
  readonly taskId: string | undefined;
  /** Aborted when the client cancels the task (`tasks/cancel`) or the blocking call. */
  readonly signal: AbortSignal;
  readonly #init: TaskContextInit;

  constructor(init: TaskContextInit) {
    this.#init = init;
    this.taskId = init.channel?.taskId;
    this.signal = init.signal;
  }

  /** Whether the call runs as a task (the client polls it) rather than as a blocking call. */
  get isTask(): boolean {
    return this.#init.channel !== undefined;
  }

  /** Tells the client what the tool is doing now ("Rendering page 3"). */
  async status(message: string): Promise<void> {
    if (this.#init.channel) await this.#init.channel.status(message);
    else await this.#init.progress(0, undefined, message);
  }

  /** How far the work is; a task shows it in its status (`40/100: message`). */
  async progress(done: number, total?: number, message?: string): Promise<void> {
    if (!this.#init.channel) return this.#init.progress(done, total, message);
    const amount = total === undefined ? `${done}` : `${done}/${total}`;
    await this.#init.channel.status(message === undefined ? amount : `${amount}: ${message}`);
  }

  /**
   * Asks the user to fill `form` (a class the tool lists in `@Tool({ elicits })`) and waits for
   * the answer: the task is `input_required` until the client sends it with `tasks/update`, then
   * `working` again, and the tool carries on from here with the typed answer (or the decline).
   */
  requireInput<T extends object>(form: ClassType<T>, message: string, options?: AskOptions): Promise<Elicitation<T>> {
    return this.#init.elicit(message, form, options);
  }

  /**
   * For a tool declared `task: { askFirst: true }`: the call has asked what it needed (in the
   * request, through `input_required` rounds for a 2026-07-28 client) and becomes a task here; the
   * client gets the task, and its run starts the method again, given the same answers without
   * asking, and carries on past this line. In the task's run, and in a call that stays blocking (a
   * client without task support), it returns at once.
   */
  async start(): Promise<void> {
    if (!this.isTask) this.#init.start?.();
  }
}
