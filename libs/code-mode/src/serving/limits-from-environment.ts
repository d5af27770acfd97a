import { LIMIT_SETTINGS, type SandboxLimits } from '../sandbox/sandbox-limits';

/** The limits set in the environment (`CODE_MODE_CPU_MS`, …); a value that is not a whole number of at least 1 stops the server, naming it. */
export function limitsFromEnvironment(env: NodeJS.ProcessEnv): Partial<SandboxLimits> {
  return settingsFrom(env, LIMIT_SETTINGS);
}

/** How programs share the workers, as the environment sets it: CODE_MODE_WORKERS, CODE_MODE_QUEUE, CODE_MODE_PER_CALLER. */
export function sharingFromEnvironment(env: NodeJS.ProcessEnv): { workers?: number; queue?: number; perCaller?: number; idleMs?: number } {
  return settingsFrom(env, { workers: 'CODE_MODE_WORKERS', queue: 'CODE_MODE_QUEUE', perCaller: 'CODE_MODE_PER_CALLER', idleMs: 'CODE_MODE_WORKER_IDLE_MS' });
}

function settingsFrom<K extends string>(env: NodeJS.ProcessEnv, variables: Readonly<Record<K, string>>): Partial<Record<K, number>> {
  const settings: Partial<Record<K, number>> = {};
  for (const [key, variable] of Object.entries(variables) as [K, string][]) {
    const text = env[variable];
    if (text === undefined || text.trim() === '') continue;
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`Not starting: ${variable} must be a whole number of at least 1, got ${JSON.stringify(text.slice(0, 40))}.`);
    settings[key] = value;
  }
  return settings;
}
