import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { AskedQuestion, ProgramQuestion } from '@toolsets/core';
import type { InnerCallAnswer } from '../sandbox/sandbox-outcome';

/**
 * One call of a program's run, kept so the next run (after a question) answers it without making
 * it again: its place in the program's order, its tool and a digest of its arguments, and what it
 * answered. The call that asked has no answer: the next run makes it again, with the answer.
 */
export interface RecordedCall {
  index: number;
  tool: string;
  args: string;
  answer?: InnerCallAnswer;
}

/** What a run keeps for the next: every call it made that ended or asked. */
export interface ProgramRecord {
  calls: RecordedCall[];
}

/** What a call the run did not make answers: the program is being stopped. */
const STOPPING: InnerCallAnswer = { error: { name: 'Stopped', message: 'The program is stopped: one of its calls asked the user something, and it runs again once answered.' } };

/** What a program may not do between its calls for its runs to agree, said where a run does not. */
export const REPLAY_RULE =
  'A program whose calls ask the user something runs again from the start once answered, its earlier calls answered from the first run: it must make the same calls, in the same order, with the same arguments (nothing that depends on the time, randomness or a call whose answer it did not wait for).';

/**
 * One run of a program that may be a replay: calls the record holds are answered from it (checked
 * to be the same tool with the same arguments), the others are made. The first call that asks the
 * user something stops the run: the calls still under way end first, so their answers are kept
 * too, then `stop` aborts the program.
 */
export class ProgramReplay {
  readonly stop = new AbortController();
  /** The question that stopped the run. */
  asked?: ProgramQuestion;
  /** Why the run does not agree with the one recorded. */
  diverged?: string;
  readonly #recorded: ReadonlyMap<number, RecordedCall>;
  readonly #made = new Map<number, RecordedCall>();
  readonly #underway = new Set<Promise<unknown>>();
  #next = 0;

  constructor(record: ProgramRecord | undefined) {
    this.#recorded = new Map((record?.calls ?? []).map((call) => [call.index, call]));
  }

  /** Answers the program's next call: from the record, or by `make` (the real call, with its place in the order). */
  call(tool: string, args: unknown, make: (index: number) => Promise<CallToolResult | AskedQuestion>, answerOf: (result: CallToolResult) => InnerCallAnswer): Promise<InnerCallAnswer> {
    const index = this.#next++;
    if (this.asked || this.diverged) return Promise.resolve(STOPPING);
    const digest = argsDigest(args);
    const recorded = this.#recorded.get(index);
    if (recorded && (recorded.tool !== tool || recorded.args !== digest)) {
      const same = recorded.tool === tool ? `${tool} again, with other arguments` : tool;
      return this.diverge(`This run's call ${index + 1} was ${same}, where the first run's was ${recorded.tool}. ${REPLAY_RULE}`);
    }
    if (recorded?.answer) {
      this.#made.set(index, recorded);
      return Promise.resolve(recorded.answer);
    }
    const made = make(index).then((outcome): InnerCallAnswer => {
      if (isAsked(outcome)) {
        this.#made.set(index, { index, tool, args: digest });
        if (!this.asked) {
          this.asked = outcome.asked;
          void this.settled().then(() => this.stop.abort());
        }
        return STOPPING;
      }
      const answer = answerOf(outcome);
      this.#made.set(index, { index, tool, args: digest, answer });
      return answer;
    });
    this.#underway.add(made);
    void made.finally(() => this.#underway.delete(made)).catch(() => undefined);
    return made;
  }

  /** A run that ended after fewer calls than the record holds: it does not agree either. */
  ended(): void {
    const unmade = [...this.#recorded.keys()].filter((index) => index >= this.#next);
    if (unmade.length > 0 && !this.asked && !this.diverged) {
      this.diverged = `This run ended after ${this.#next} call(s), where the first run made ${Math.max(...this.#recorded.keys()) + 1}. ${REPLAY_RULE}`;
    }
  }

  /** Once every call under way has ended. */
  async settled(): Promise<void> {
    while (this.#underway.size > 0) await Promise.allSettled([...this.#underway]);
  }

  /** What the next run is given: every call this one made that ended or asked. */
  record(): ProgramRecord {
    return { calls: [...this.#made.values()].sort((a, b) => a.index - b.index) };
  }

  private diverge(why: string): Promise<InnerCallAnswer> {
    this.diverged = why;
    this.stop.abort();
    return Promise.resolve(STOPPING);
  }
}

/** A record kept by an earlier round, as `execute` kept it (sealed, so only its shape is checked). */
export function programRecordOf(kept: unknown): ProgramRecord | undefined {
  const calls = (kept as { calls?: unknown } | undefined)?.calls;
  return Array.isArray(calls) ? { calls: calls as RecordedCall[] } : undefined;
}

/** A call that asked (`{ asked }`), not a result (which always has `content`). */
const isAsked = (outcome: CallToolResult | AskedQuestion): outcome is AskedQuestion => !('content' in outcome) && 'asked' in outcome;

function argsDigest(args: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(args ?? null))
    .digest('base64url')
    .slice(0, 22);
}
