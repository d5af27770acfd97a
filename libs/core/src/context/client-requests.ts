import type { CreateMessageRequestParams, CreateMessageResult, ElicitResult, ListRootsResult } from '@modelcontextprotocol/server';

/**
 * How one question is put to the client. `key` names it: a 2026-07-28 client answers it under that
 * name (`inputResponses[key]`), so a flow survives a deploy that reorders the questions; without
 * it, questions are named by their order in the call (`elicit-1`, `sample-2`).
 */
export interface AskOptions {
  key?: string;
}

/** How a tool reaches the client mid-call: ask the user (elicitation), the client's model (sampling), or its roots. */
export interface ClientInput {
  elicit(params: { message: string; requestedSchema: Record<string, unknown> }, options?: AskOptions): Promise<ElicitResult>;
  sample(params: CreateMessageRequestParams, options?: AskOptions): Promise<CreateMessageResult>;
  listRoots(options?: AskOptions): Promise<ListRootsResult>;
  /** Sends the user to `url` (URL-mode elicitation): nothing they enter there passes through the client. */
  elicitUrl(params: { message: string; url: string }, options?: AskOptions): Promise<ElicitResult>;
  /** The answers this call has had so far, by question key (what a call that becomes a task takes with it). */
  gathered?(): Record<string, unknown>;
  /**
   * Keeps `state` for the next round of this call: on 2026-07-28 it is sealed into the
   * `requestState` of the call's next `input_required` answer (signed, not encrypted: the client can
   * read it); on a 2025-era call it stays with the call. A code-mode program keeps its record here.
   */
  keep?(state: unknown): void;
  /** What an earlier round of this call kept, if anything. */
  kept?(): unknown;
}

/** The user's answer to `RequestContext.elicit`: the form's DTO, filled in and checked, unless declined or cancelled. */
export type Elicitation<T> = { action: 'accept'; content: T } | { action: 'decline' } | { action: 'cancel' };

/** What `RequestContext.sample` sends: the SDK's `sampling/createMessage` parameters. */
export type SampleRequest = CreateMessageRequestParams;
