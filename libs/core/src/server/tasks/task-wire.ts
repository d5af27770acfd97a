import { CLIENT_CAPABILITIES_META_KEY, type ServerContext, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import type { CallOrigin } from '../request/call-origin';
import type { TaskRecord } from './task-record';

/** The extension's identifier, in capabilities on both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Which task protocol a request speaks: the 2026-07-28 extension, or the 2025-11-25 revision's tasks. */
export type TaskGeneration = 'v2' | 'v1';

export function generationOf(origin: CallOrigin): TaskGeneration {
  return origin.era === 'modern' ? 'v2' : 'v1';
}

/** Whether this 2026-07-28 request declares the extension in its own client capabilities. */
export function declaresTasks(ctx: ServerContext): boolean {
  const capabilities = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never] as { extensions?: Record<string, unknown> } | undefined;
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/** What both protocols show of a task under the same names. */
function common(record: TaskRecord): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
  };
}

/** A task as the 2026-07-28 extension shows it (`tasks/get`, `CreateTaskResult`): status-specific fields inline. */
export function v2Task(record: TaskRecord): Record<string, unknown> {
  return {
    ...common(record),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
    ...(record.status === 'input_required' && { inputRequests: record.inputRequests ?? {} }),
    // The result inside a task is a whole 2026-07-28 result: it carries its own resultType.
    ...(record.status === 'completed' && { result: { resultType: 'complete', ...record.result } }),
    ...(record.status === 'failed' && { error: record.error }),
  };
}

/** A task as the 2025-11-25 revision shows it: `ttl` and `pollInterval`, the result only through `tasks/result`. */
export function v1Task(record: TaskRecord): Record<string, unknown> {
  return { ...common(record), ttl: record.ttlMs, pollInterval: record.pollIntervalMs };
}

/** The params of a task method, checked: `taskId` a string, and the fields `extra` names objects. */
export function taskParams<T extends { taskId: string }>(method: string, objects: readonly string[] = []): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'toolsets',
      validate(value: unknown) {
        const params = value as Record<string, unknown> | null;
        if (params === null || typeof params !== 'object' || typeof params.taskId !== 'string' || params.taskId === '') {
          return { issues: [{ message: `${method} needs params.taskId: the id the task was created with.` }] };
        }
        const bad = objects.find((key) => params[key] !== undefined && (params[key] === null || typeof params[key] !== 'object' || Array.isArray(params[key])));
        if (bad) return { issues: [{ message: `${method}'s params.${bad} must be an object.` }] };
        return { value: params as T };
      },
    },
  };
}
