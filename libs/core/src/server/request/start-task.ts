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
