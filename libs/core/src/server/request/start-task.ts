import type { ServerContext } from '@modelcontextprotocol/server';
import { CallSignal } from './call-signal';

/**
 * Thrown by `task.start()` in a call of an `askFirst` task tool whose client wants a task: the
 * call becomes a task here, carrying the answers it gathered so far; the task's run starts the
 * method again and reads them instead of asking again.
 */
export class StartTaskSignal extends CallSignal {
  constructor(readonly gathered: Record<string, unknown>) {
    super();
  }
}

const startingAsTask = new WeakSet<ServerContext>();

/** Marks the call `ctx` belongs to as one whose `task.start()` makes it a task. */
export function startsAsTask(ctx: ServerContext): void {
  startingAsTask.add(ctx);
}

/** Whether `task.start()` makes this call a task (else it carries on as it is). */
export function isStartingAsTask(ctx: ServerContext): boolean {
  return startingAsTask.has(ctx);
}

/**
 * The name of each question a call asks, the same in every way a call can ask (round trips, a
 * session's requests, a task's input requests): its own `key`, else its kind and its order in the call.
 */
export class QuestionKeys {
  #order = 0;

  next(prefix: 'elicit' | 'sample' | 'roots', key: string | undefined): string {
    this.#order++;
    return key ?? `${prefix}-${this.#order}`;
  }
}
