import { LIMIT_SETTINGS, type SandboxLimits } from '../sandbox/sandbox-limits';

/** The limits set in the environment (`CODE_MODE_CPU_MS`, …); a value that is not a whole number of at least 1 stops the server, naming it. */
export function limitsFromEnvironment(env: NodeJS.ProcessEnv): Partial<SandboxLimits> {
  const limits: Partial<SandboxLimits> = {};
  for (const [limit, variable] of Object.entries(LIMIT_SETTINGS) as [keyof SandboxLimits, string][]) {
    const text = env[variable];
    if (text === undefined || text.trim() === '') continue;
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`Not starting: ${variable} must be a whole number of at least 1, got ${JSON.stringify(text.slice(0, 40))}.`);
    limits[limit] = value;
  }
  return limits;
}
