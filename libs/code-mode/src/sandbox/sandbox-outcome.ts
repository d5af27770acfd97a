import type { TypeProblem } from '../typecheck/type-problem';
import { LIMIT_SETTINGS, type SandboxLimits } from './sandbox-limits';

/** How a program ended other than with a value. */
export type SandboxFailure =
  /** It went past a limit: which one, and the setting that raises it. */
  | { kind: 'limit'; limit: keyof SandboxLimits; setting: string; message: string }
  /** It threw (or rejected), or would not parse: the error's name and message as the program saw them. */
  | { kind: 'thrown'; name: string; message: string }
  /** It does not type-check against the declarations: nothing ran. */
  | { kind: 'typecheck'; problems: TypeProblem[] }
  /** It never ran: the sandbox had no room for it (too many waiting, or this caller has its share); retry after `retryAfterMs`. */
  | { kind: 'busy'; message: string; retryAfterMs: number }
  /** The server stopped it: it was shutting down. */
  | { kind: 'stopped'; message: string };

/** How a run ended other than with a value, once the program has passed its check. */
export type RunFailure = Exclude<SandboxFailure, { kind: 'typecheck' }>;

/** One program's run: its value or how it failed, with what it logged and how many inner calls it made. */
export type SandboxOutcome = ({ ok: true; value: unknown } | { ok: false; failure: SandboxFailure }) & {
  logs: string[];
  /** The logs were cut at the byte limit. */
  logsTruncated: boolean;
  calls: number;
  /** Time the program computed, and time from start to end. */
  cpuMs: number;
  wallMs: number;
};

/** What an inner call answered: a value for the program, or an error it can catch (a refused call, a tool that threw). */
export type InnerCallAnswer = { value: unknown } | { error: { name: string; message: string; data?: unknown } };

/** The host side of the program's `api`: the callable tools by namespace, and the call itself. */
export interface SandboxHost {
  /** `{ github: ['issues_create', …] }`: `api.github.issues_create(args)` in the program. */
  namespaces: Readonly<Record<string, readonly string[]>>;
  /** Runs one inner call; `signal` aborts when the program ends (a limit, a throw, the result) first. */
  call(namespace: string, tool: string, args: unknown, signal: AbortSignal): Promise<InnerCallAnswer>;
}

/** How a program ends whose caller went away (the request was cancelled or its connection closed). */
export const CALLER_GONE: RunFailure = { kind: 'stopped', message: 'The program was stopped: its caller cancelled the request or went away.' };

/** A program ended by `limit`: what it did, and the setting that raises the limit. */
export function limitFailure(limit: keyof SandboxLimits, what: string): RunFailure {
  return { kind: 'limit', limit, setting: LIMIT_SETTINGS[limit], message: `The program ${what} (the ${limit} limit; raise it with ${LIMIT_SETTINGS[limit]}).` };
}
