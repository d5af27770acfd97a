import type { CreateMessageRequestParams, CreateMessageResult, ElicitResult } from '@modelcontextprotocol/server';

/** How a tool reaches the client mid-call: ask the user (elicitation) or the client's model (sampling). */
export interface ClientInput {
  elicit(params: { message: string; requestedSchema: Record<string, unknown> }): Promise<ElicitResult>;
  sample(params: CreateMessageRequestParams): Promise<CreateMessageResult>;
}

/** The user's answer to `RequestContext.elicit`: the form's DTO, filled in and checked, unless declined or cancelled. */
export type Elicitation<T> = { action: 'accept'; content: T } | { action: 'decline' } | { action: 'cancel' };

/** What `RequestContext.sample` sends: the SDK's `sampling/createMessage` parameters. */
export type SampleRequest = CreateMessageRequestParams;
