/**
 * Why the server stopped a task's run (its time ran out, it waited too long for an answer, the
 * server shut down): the reason its signal aborts with, and what the task ends `failed` with.
 * A client's `tasks/cancel` aborts with another reason and ends the task `cancelled`.
 */
export class TaskStop extends Error {
  constructor(
    /** The task's `statusMessage`: what happened and what to do. */
    readonly statusMessage: string,
  ) {
    super(statusMessage);
    this.name = 'TaskStop';
  }

  static expired(ttlMs: number): TaskStop {
    return new TaskStop(`The task ran out of time: it did not finish within its time to live (${ttlMs} ms), so it was stopped. Call the tool again, with a longer task ttl if the tool allows one.`);
  }

  static unanswered(inputTimeoutMs: number): TaskStop {
    return new TaskStop(`No answer to the task's question came within ${inputTimeoutMs} ms (the server's limit for waiting for input, TASKS_INPUT_TIMEOUT_MS), so it was stopped. Call the tool again and answer with tasks/update in time.`);
  }

  static shutdown(): TaskStop {
    return new TaskStop('The server shut down while the task waited for input, so it was stopped. Call the tool again.');
  }

  static drainEnded(drainMs: number): TaskStop {
    return new TaskStop(`The server shut down and the task did not finish within its drain (${drainMs} ms), so it was stopped. Call the tool again.`);
  }
}
