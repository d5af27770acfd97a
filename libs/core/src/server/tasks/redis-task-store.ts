import type { Redis } from 'ioredis';
import { redisConnection } from './redis-packages';
import type { TaskQuota, TaskQuotaRefusal } from './task-limits';
import { RUNNING_ONLY, type TaskChange, type TaskRecord } from './task-record';
import type { TaskSignal, TaskStore } from './task-store';

/**
 * Saves a new task unless the limits are reached, in one step: KEYS[1] the task's hash, KEYS[2] its
 * owner's index, KEYS[3] the unfinished tasks of the server, KEYS[4] those of its quota key (sorted
 * sets scored by expiry, so expired ones are dropped first). ARGV: now, expiry, ttl, the two
 * limits (0: none), the task id, then field/value pairs. Returns 'server', 'caller' or 'ok'.
 */
const CREATE = `
local now, expiry, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local maxActive, maxPerCaller = tonumber(ARGV[4]), tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
if maxActive > 0 and redis.call('ZCARD', KEYS[3]) >= maxActive then return 'server' end
if maxPerCaller > 0 and redis.call('ZCARD', KEYS[4]) >= maxPerCaller then return 'caller' end
for i = 7, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIRE', KEYS[1], ttl)
for _, key in ipairs({ KEYS[2], KEYS[3], KEYS[4] }) do
  redis.call('ZADD', key, expiry, ARGV[6])
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
return 'ok'
`;

/**
 * Changes a task unless it is terminal, in one step on the server (no reader sees half of it):
 * KEYS[1] the task's hash, KEYS[2] the server's unfinished tasks; ARGV[1] the prefix of each
 * quota key's set, then field/value pairs, an empty value deleting the field. Values are JSON, so
 * a status reads `"completed"`. Once terminal, the fields a task keeps only while it runs (its
 * input requests, arguments and origin) are deleted, and it no longer counts against the limits.
 * Returns the hash after, or nil.
 */
const UPDATE = `
local function terminal(status)
  return status == '"completed"' or status == '"failed"' or status == '"cancelled"'
end
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
if not terminal(redis.call('HGET', KEYS[1], 'status')) then
  for i = 2, #ARGV, 2 do
    if ARGV[i + 1] == '' then redis.call('HDEL', KEYS[1], ARGV[i]) else redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
  end
  if terminal(redis.call('HGET', KEYS[1], 'status')) then
    redis.call('HDEL', KEYS[1], ${RUNNING_ONLY.map((field) => `'${field}'`).join(', ')})
    local id = cjson.decode(redis.call('HGET', KEYS[1], 'taskId'))
    redis.call('ZREM', KEYS[2], id)
    local quota = redis.call('HGET', KEYS[1], 'quota') or redis.call('HGET', KEYS[1], 'owner')
    redis.call('ZREM', ARGV[1] .. cjson.decode(quota), id)
  end
end
return redis.call('HGETALL', KEYS[1])
`;

/**
 * Tasks in Redis, shared by every replica on the same `REDIS_URL`: a hash per task (each field
 * JSON), which Redis expires at the task's TTL; a sorted set per owner for `tasks/list`; and one
 * pub/sub channel that carries answers and cancellations to the replica running the task.
 */
export class RedisTaskStore implements TaskStore {
  private readonly listeners = new Map<string, Set<(signal: TaskSignal) => void>>();
  private subscribed: Promise<unknown> | undefined;

  // Private: its connections' type is ioredis', which core's public declarations do not name (an optional peer).
  private constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly prefix = 'toolsets:tasks',
  ) {}

  /** A store on `url`, with its own two connections (commands, and the subscription). */
  static connect(url: string, prefix?: string): RedisTaskStore {
    return new RedisTaskStore(redisConnection(url), redisConnection(url), prefix);
  }

  async create(record: TaskRecord, quota?: TaskQuota): Promise<TaskQuotaRefusal | undefined> {
    const keys = [this.key(record.taskId), this.ownerKey(record.owner), this.activeKey(), this.activeKey(record.quota ?? record.owner)];
    const limits = quota ? [quota.maxActive, quota.maxActivePerCaller] : [0, 0];
    const args = [Date.now(), Date.parse(record.createdAt) + record.ttlMs, record.ttlMs, ...limits, record.taskId, ...Object.entries(fields(record)).flat()];
    const answer = (await this.redis.eval(CREATE, keys.length, ...keys, ...args.map(String))) as string;
    return answer === 'ok' ? undefined : (answer as TaskQuotaRefusal);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return recordOf(await this.redis.hgetall(this.key(taskId)));
  }

  async update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    const args: string[] = [];
    for (const [field, value] of Object.entries({ ...change, lastUpdatedAt: new Date().toISOString() })) args.push(field, value === undefined ? '' : JSON.stringify(value));
    const after = (await this.redis.eval(UPDATE, 2, this.key(taskId), this.activeKey(), this.activeKey(''), ...args)) as string[] | null;
    if (!after) return undefined;
    // Listeners for its status, on any replica, read it again.
    await this.signal(taskId, { kind: 'changed' });
    return recordOf(pairs(after));
  }

  async list(owner: string, limit: number): Promise<TaskRecord[]> {
    // Scored by expiry, so the newest come first and the expired are left out.
    const ids = await this.redis.zrevrangebyscore(this.ownerKey(owner), '+inf', Date.now(), 'LIMIT', 0, limit);
    const records = await Promise.all(ids.map((id) => this.get(id)));
    return records.filter((record): record is TaskRecord => record !== undefined && record.owner === owner);
  }

  async signal(taskId: string, signal: TaskSignal): Promise<void> {
    await this.redis.publish(this.channel(), JSON.stringify({ taskId, signal }));
  }

  listen(taskId: string, listener: (signal: TaskSignal) => void): () => void {
    this.subscribed ??= this.subscribe();
    let set = this.listeners.get(taskId);
    if (!set) this.listeners.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(taskId);
    };
  }

  /** Resolves once the store hears signals (a worker listens before it asks the client anything). */
  async ready(): Promise<void> {
    await (this.subscribed ??= this.subscribe());
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.redis.quit(), this.subscriber.quit()]);
  }

  private subscribe(): Promise<unknown> {
    this.subscriber.on('message', (_channel: string, message: string) => {
      let parsed: { taskId?: unknown; signal?: TaskSignal };
      try {
        parsed = JSON.parse(message) as typeof parsed;
      } catch {
        return;
      }
      if (typeof parsed.taskId !== 'string' || !parsed.signal) return;
      for (const listener of this.listeners.get(parsed.taskId) ?? []) listener(parsed.signal);
    });
    return this.subscriber.subscribe(this.channel());
  }

  private key(taskId: string): string {
    return `${this.prefix}:task:${taskId}`;
  }

  private ownerKey(owner: string): string {
    return `${this.prefix}:owner:${owner}`;
  }

  /** The unfinished tasks: of the server, or (with a key) of one caller; the key alone is appended to the prefix in Lua. */
  private activeKey(quota?: string): string {
    return quota === undefined ? `${this.prefix}:active` : `${this.prefix}:active:${quota}`;
  }

  private channel(): string {
    return `${this.prefix}:signals`;
  }
}

/** A record as hash fields, each value JSON. */
function fields(record: TaskRecord): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(record)) if (value !== undefined) out[field] = JSON.stringify(value);
  return out;
}

/** HGETALL's flat reply as an object. */
function pairs(flat: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]] = flat[i + 1];
  return out;
}

/** A hash back as a record, or undefined when there is none (unknown, or expired). */
function recordOf(hash: Record<string, string>): TaskRecord | undefined {
  if (!hash['taskId']) return undefined;
  const record: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(hash)) record[field] = JSON.parse(value);
  return record as unknown as TaskRecord;
}
