import type { Server } from '@modelcontextprotocol/server';

/** Per connection (one SDK `Server`), the tasks its client has shown it knows, and who waits for that. */
const sightings = new WeakMap<Server, Map<string, { seen: boolean; waiting: (() => void)[] }>>();

function entry(server: Server, taskId: string) {
  let tasks = sightings.get(server);
  if (!tasks) sightings.set(server, (tasks = new Map()));
  let found = tasks.get(taskId);
  if (!found) tasks.set(taskId, (found = { seen: false, waiting: [] }));
  return found;
}

/** The client named the task in a request (`tasks/get`, `tasks/result`, …): it has the task's id. */
export function taskSighted(server: Server, taskId: string): void {
  const found = entry(server, taskId);
  found.seen = true;
  for (const resolve of found.waiting.splice(0)) resolve();
}

/**
 * Resolves once the client has named the task in a request. Over HTTP with sessions the task's
 * handle (the POST's answer) and a question tied to it (on the session's stream) travel apart; a
 * question that arrives first names a task the client does not know yet, and the official requester
 * library answers such a request with `cancel`.
 */
export function untilSighted(server: Server, taskId: string, signal?: AbortSignal): Promise<void> {
  const found = entry(server, taskId);
  if (found.seen) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    found.waiting.push(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
