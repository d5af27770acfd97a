import { Field, Prompt, RequestContext, Result, Tool, ToolResult, Toolset } from '@toolsets/core';
import type { CreateMessageResult } from '@modelcontextprotocol/server';
import { ColorForm, NameForm } from './forms';

@Result({ description: 'What the round-trip fixture did, in words.' })
export class RoundTripResult extends ToolResult {}

export class ContextForm {
  @Field({ description: 'What the prompt should take into account' })
  context!: string;
}

export class OkForm {
  @Field(() => Boolean, { description: 'Go ahead?' })
  ok!: boolean;
}

export class ValueForm {
  @Field({ description: 'A value' })
  value!: string;
}

const textOf = (reply: CreateMessageResult) => (reply.content.type === 'text' ? reply.content.text : `[${reply.content.type}]`);
const ask = (text: string, maxTokens: number) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }], maxTokens });

/**
 * The fixtures of the conformance suite's multi round-trip scenarios (`input-required-result-*`)
 * and its stateless diagnostics: tools that ask the client (the user, its model, its roots) in
 * the middle of a call, written with RequestContext as any tool is. Each question is named as the
 * scenario expects (`{ key }`).
 */
@Toolset({ name: 'conformance-round-trips', description: 'Multi round-trip fixtures of the official conformance suite.' })
export class ConformanceRoundTripsToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ name: 'test_input_required_result_elicitation', description: 'Asks the user their name, then greets them.', returns: RoundTripResult, elicits: [NameForm] })
  async elicitation(): Promise<RoundTripResult> {
    const answer = await this.context.elicit('What is your name?', NameForm, { key: 'user_name' });
    return { message: `Hello, ${answer.action === 'accept' ? answer.content.name : 'stranger'}!` };
  }

  @Tool({ name: 'test_input_required_result_sampling', description: "Asks the client's model a question.", returns: RoundTripResult })
  async sampling(): Promise<RoundTripResult> {
    const reply = await this.context.sample(ask('What is the capital of France?', 100), { key: 'sample_request' });
    return { message: `Sampling result: ${textOf(reply)}` };
  }

  @Tool({ name: 'test_input_required_result_list_roots', description: "Lists the client's roots.", returns: RoundTripResult })
  async listRoots(): Promise<RoundTripResult> {
    const roots = await this.context.roots({ key: 'roots_request' });
    return { message: `Found ${roots.length} root(s)` };
  }

  @Tool({ name: 'test_input_required_result_request_state', description: 'Asks for a confirmation; the answer comes back in sealed request state.', returns: RoundTripResult, elicits: [OkForm] })
  async requestState(): Promise<RoundTripResult> {
    const answer = await this.context.elicit('Please confirm', OkForm, { key: 'confirm' });
    return { message: answer.action === 'accept' && answer.content.ok ? 'state-ok: requestState validated' : 'not confirmed' };
  }

  @Tool({ name: 'test_input_required_result_multiple_inputs', description: "Asks the user, the client's model and the client's roots at once.", returns: RoundTripResult, elicits: [NameForm] })
  async multipleInputs(): Promise<RoundTripResult> {
    const [name, greeting, roots] = await Promise.all([
      this.context.elicit('What is your name?', NameForm, { key: 'user_name' }),
      this.context.sample(ask('Generate a greeting', 50), { key: 'greeting' }),
      this.context.roots({ key: 'client_roots' }),
    ]);
    return { message: `Name: ${name.action === 'accept' ? name.content.name : 'unknown'}; Greeting: ${textOf(greeting)}; Roots: ${roots.length}` };
  }

  @Tool({ name: 'test_input_required_result_multi_round', description: 'Asks two questions, one round after the other.', returns: RoundTripResult, elicits: [NameForm, ColorForm] })
  async multiRound(): Promise<RoundTripResult> {
    const name = await this.context.elicit('Step 1: What is your name?', NameForm, { key: 'step1' });
    const color = await this.context.elicit('Step 2: What is your favorite color?', ColorForm, { key: 'step2' });
    const who = name.action === 'accept' ? name.content.name : 'friend';
    return { message: `Multi-round complete for ${who} who likes ${color.action === 'accept' ? color.content.color : 'nothing'}` };
  }

  @Tool({ name: 'test_input_required_result_tampered_state', description: 'Asks for a confirmation; altered request state is refused.', returns: RoundTripResult, elicits: [OkForm] })
  async tamperedState(): Promise<RoundTripResult> {
    await this.context.elicit('Please confirm', OkForm, { key: 'confirm' });
    return { message: 'integrity-ok: state verified' };
  }

  @Tool({ name: 'test_input_required_result_capabilities', description: 'Asks only what the client declared it can answer.', returns: RoundTripResult, elicits: [ValueForm] })
  async capabilities(): Promise<RoundTripResult> {
    const declared = this.context.clientCapabilities ?? {};
    const received: string[] = [];
    const asks: Promise<unknown>[] = [];
    if (declared.elicitation) asks.push(this.context.elicit('Elicitation input', ValueForm, { key: 'elicit_input' }).then(() => received.push('elicit_input')));
    if (declared.sampling) asks.push(this.context.sample(ask('Sample request', 50), { key: 'sample_input' }).then(() => received.push('sample_input')));
    if (asks.length === 0) return { message: 'No supported capabilities declared' };
    await Promise.all(asks);
    return { message: `capabilities-ok: received ${received.sort().join(',')}` };
  }

  @Prompt({ name: 'test_input_required_result_prompt', description: 'Asks the user for context before it answers.', elicits: [ContextForm] })
  async promptWithContext(): Promise<string> {
    const answer = await this.context.elicit('What context should the prompt use?', ContextForm, { key: 'user_context' });
    return `Prompt with context: ${answer.action === 'accept' ? answer.content.context : 'none'}`;
  }

  @Tool({ name: 'test_missing_capability', description: "Needs the client's model: a client that declared no sampling is refused.", returns: RoundTripResult })
  async missingCapability(): Promise<RoundTripResult> {
    const reply = await this.context.sample(ask('Say something.', 20));
    return { message: `Success: ${textOf(reply)}` };
  }

  @Tool({ name: 'test_streaming_elicitation', description: 'Reports progress while it works, then answers.', returns: RoundTripResult })
  async streaming(): Promise<RoundTripResult> {
    await this.context.progress(50, 100);
    return { message: 'Streaming complete' };
  }

  @Tool({ name: 'test_logging_tool', description: 'Logs a line; a client that asked for no log level gets none.', returns: RoundTripResult })
  async logging(): Promise<RoundTripResult> {
    await this.context.log('info', 'Diagnostic trace logging activated');
    return { message: 'Logging evaluated' };
  }
}
