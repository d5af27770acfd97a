import type { ClientInput } from '../../context/client-requests';
import { ClientInputUnavailableError } from './sdk-client-input';

const WHY = 'a call made by a code-mode program cannot put to the client: the program runs on the server, and nothing relays its questions. Call this tool directly (outside code mode) to answer it.';

/**
 * The client input of a call a code-mode program makes: every question is refused with an error
 * the tool's result carries (`elicitation_unavailable`, `sampling_unavailable`,
 * `roots_unavailable`), which the program sees as a `ToolCallError` it can catch.
 */
export const INNER_CALL_INPUT: ClientInput = {
  elicit: () => Promise.reject(new ClientInputUnavailableError('elicitation', WHY)),
  elicitUrl: () => Promise.reject(new ClientInputUnavailableError('elicitation', WHY)),
  sample: () => Promise.reject(new ClientInputUnavailableError('sampling', WHY)),
  listRoots: () => Promise.reject(new ClientInputUnavailableError('roots', WHY)),
};

/** A call made on behalf of a code-mode program: its questions are refused, and its signal ends with the program's. */
export interface InnerRun {
  input: ClientInput;
  signal: AbortSignal;
}
