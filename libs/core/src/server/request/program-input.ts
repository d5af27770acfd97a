import type { ClientInput } from '../../context/client-requests';
import type { ProgramQuestion } from '../../selection/code-mode-provider';
import { CallSignal } from './call-signal';
import { answered, QUESTION_KINDS, type clientReach } from './sdk-client-input';

/** Whether the client can be asked a kind of question (`clientReach`). */
export type ProgramReach = ReturnType<typeof clientReach>;
import { QuestionKeys } from './start-task';

/** Thrown by an inner call's question no answer holds yet: it unwinds the tool, and the call ends with the question. */
export class ProgramQuestionSignal extends CallSignal {
  constructor(readonly question: ProgramQuestion) {
    super();
  }
}

/**
 * The client input of the `index`th call a code-mode program makes: a question is answered from the
 * answers the `execute` call has had (`answers()`, under the question's program key), else it
 * unwinds the call with a `ProgramQuestionSignal` and the program is stopped, asked, and run again.
 * A question the client cannot answer (`reach`) fails the call instead, as outside code mode.
 */
export function programCallInput(answers: () => Record<string, unknown>, reach: ProgramReach, index: number): ClientInput {
  const keys = new QuestionKeys();
  const ask = <T>(kind: ProgramQuestion['kind'], key: string | undefined, params?: unknown): Promise<T> => {
    const programKey = `call-${index}/${keys.next(QUESTION_KINDS[kind].prefix, key)}`;
    const answer = answered<T>(answers(), programKey, QUESTION_KINDS[kind].answer);
    if (answer) return Promise.resolve(answer);
    // A question this client cannot answer is the call's failure, which the program may catch; the program goes on.
    const unreachable = reach(QUESTION_KINDS[kind].capability);
    if (unreachable) return Promise.reject(unreachable);
    return Promise.reject(new ProgramQuestionSignal({ kind, key: programKey, ...(params !== undefined && { params }) }));
  };
  return {
    elicit: (params, options) => ask('elicit', options?.key, params),
    elicitUrl: (params, options) => ask('elicitUrl', options?.key, params),
    sample: (params, options) => ask('sample', options?.key, params),
    listRoots: (options) => ask('roots', options?.key),
  };
}

/** A call made on behalf of a code-mode program: its questions go through the program (`programCallInput`), and its signal ends with the program's. */
export interface InnerRun {
  input: ClientInput;
  signal: AbortSignal;
}
