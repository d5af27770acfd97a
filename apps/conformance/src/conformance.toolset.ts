import { Complete, Field, Prompt, RequestContext, Resource, ResourceTemplate, Result, Tool, ToolError, ToolResult, Toolset, audio, embeddedResource, image, userMessage, withContent } from '@toolsets/core';
import { IsIn, IsInt } from 'class-validator';
import { JSON_SCHEMA_2020_12, RED_PIXEL_PNG, SILENT_WAV, sleep } from './fixtures';

@Result({ description: 'What the fixture did, in words.' })
export class FixtureResult extends ToolResult {}

export class PromptArguments {
  @Field({ description: 'First test argument' })
  @Complete((value) => ['paris', 'park', 'party'].filter((word) => word.startsWith(value)))
  arg1!: string;

  @Field({ description: 'Second test argument' })
  arg2!: string;
}

export class EmbeddedResourceArguments {
  @Field({ description: 'URI of the resource to embed' })
  resourceUri!: string;
}

export class ElicitationArguments {
  @Field({ description: 'The message to show the user' })
  message!: string;
}

export class SamplingArguments {
  @Field({ description: 'The prompt to send to the LLM' })
  prompt!: string;
}

/** The form `test_elicitation` asks the user to fill in. */
export class ContactForm {
  @Field({ description: "User's response" })
  username!: string;

  @Field({ description: "User's email address" })
  email!: string;
}

/** SEP-1034: a default for every primitive type, from the property initializers. */
export class DefaultsForm {
  @Field(() => String)
  name = 'John Doe';

  @Field(() => Number)
  @IsInt()
  age = 30;

  @Field(() => Number)
  score = 95.5;

  @Field(() => String)
  @IsIn(['active', 'inactive', 'pending'])
  status = 'active';

  @Field(() => Boolean)
  verified = true;
}

/** SEP-1330: every enum variant of an elicitation form (untitled, titled, legacy enumNames; single and multi-select). */
export class EnumsForm {
  @Field(() => String)
  @IsIn(['option1', 'option2', 'option3'])
  untitledSingle!: string;

  @Field(() => String, { enumTitles: { value1: 'First Option', value2: 'Second Option', value3: 'Third Option' } })
  @IsIn(['value1', 'value2', 'value3'])
  titledSingle!: string;

  @Field(() => String, { enumTitles: { opt1: 'Option One', opt2: 'Option Two', opt3: 'Option Three' }, legacyEnumNames: true })
  @IsIn(['opt1', 'opt2', 'opt3'])
  legacyEnum!: string;

  @Field(() => [String])
  @IsIn(['option1', 'option2', 'option3'], { each: true })
  untitledMulti!: string[];

  @Field(() => [String], { enumTitles: { value1: 'First Choice', value2: 'Second Choice', value3: 'Third Choice' } })
  @IsIn(['value1', 'value2', 'value3'], { each: true })
  titledMulti!: string[];
}

export class TemplateArguments {
  @Field()
  id!: string;
}

/**
 * The server fixtures of `@modelcontextprotocol/conformance` (tools, prompts and resources its
 * scenarios call by name), written as any toolset is: decorated methods, typed results.
 */
@Toolset({ name: 'conformance', description: 'The official conformance suite server fixtures.' })
export class ConformanceToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Returns simple text.', returns: FixtureResult })
  testSimpleText(): FixtureResult {
    return { message: 'This is a simple text response for testing.' };
  }

  @Tool({ description: 'Returns an image beside its result.', returns: FixtureResult })
  testImageContent() {
    return withContent({ message: 'A 1x1 red pixel.' }, image(RED_PIXEL_PNG, 'image/png'));
  }

  @Tool({ description: 'Returns audio beside its result.', returns: FixtureResult })
  testAudioContent() {
    return withContent({ message: 'A silent WAV file.' }, audio(SILENT_WAV, 'audio/wav'));
  }

  @Tool({ description: 'Returns an embedded resource beside its result.', returns: FixtureResult })
  testEmbeddedResource() {
    return withContent({ message: 'An embedded resource.' }, embeddedResource({ uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' }));
  }

  @Tool({ description: 'Returns text, an image and an embedded resource.', returns: FixtureResult })
  testMultipleContentTypes() {
    return withContent(
      { message: 'Multiple content types test:' },
      image(RED_PIXEL_PNG, 'image/png'),
      embeddedResource({ uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) }),
    );
  }

  @Tool({ description: 'Logs three info lines to the client while it runs.', returns: FixtureResult })
  async testToolWithLogging(): Promise<FixtureResult> {
    await this.context.log('info', 'Tool execution started');
    await sleep(50);
    await this.context.log('info', 'Tool processing data');
    await sleep(50);
    await this.context.log('info', 'Tool execution completed');
    return { message: 'Logged three lines.' };
  }

  @Tool({ description: 'Reports progress 0, 50 and 100 of 100.', returns: FixtureResult })
  async testToolWithProgress(): Promise<FixtureResult> {
    await this.context.progress(0, 100);
    await sleep(50);
    await this.context.progress(50, 100);
    await sleep(50);
    await this.context.progress(100, 100);
    return { message: 'Progress reported.' };
  }

  @Tool({ description: 'Takes a moment, on a resumable stream (SEP-1699 polling).', returns: FixtureResult })
  async testReconnection(): Promise<FixtureResult> {
    await this.context.progress(0, 1);
    await sleep(100);
    return { message: 'Reconnection test completed.' };
  }

  @Tool({ description: 'Always fails, with a ToolError.', returns: [FixtureResult, ToolError] })
  testErrorHandling(): FixtureResult | ToolError {
    throw new ToolError('intentional_error', 'This tool intentionally returns an error for testing');
  }

  @Tool({ description: 'Asks the user for a username and an email (elicitation).', args: ElicitationArguments, returns: FixtureResult, elicits: [ContactForm] })
  async testElicitation(args: ElicitationArguments): Promise<FixtureResult> {
    const answer = await this.context.elicit(args.message, ContactForm);
    return { message: `User response: action=${answer.action}, content=${JSON.stringify(answer.action === 'accept' ? answer.content : {})}` };
  }

  @Tool({ description: 'Asks the user a form with a default for every primitive type (SEP-1034).', returns: FixtureResult, elicits: [DefaultsForm] })
  async testElicitationSep1034Defaults(): Promise<FixtureResult> {
    const answer = await this.context.elicit('Please review the defaults.', DefaultsForm);
    return { message: `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.action === 'accept' ? answer.content : {})}` };
  }

  @Tool({ description: 'Asks the user a form with every enum variant (SEP-1330).', returns: FixtureResult, elicits: [EnumsForm] })
  async testElicitationSep1330Enums(): Promise<FixtureResult> {
    const answer = await this.context.elicit('Please choose.', EnumsForm);
    return { message: `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.action === 'accept' ? answer.content : {})}` };
  }

  @Tool({ description: "Asks the client's model (sampling).", args: SamplingArguments, returns: FixtureResult })
  async testSampling(args: SamplingArguments): Promise<FixtureResult> {
    const reply = await this.context.sample({ messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }], maxTokens: 100 });
    return { message: `LLM response: ${reply.content.type === 'text' ? reply.content.text : `[${reply.content.type}]`}` };
  }

  @Tool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    // The full 2020-12 vocabulary (SEP-2106): references, an anchor, composition and a condition.
    inputSchema: {
      $schema: JSON_SCHEMA_2020_12,
      type: 'object',
      $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
    returns: FixtureResult,
  })
  jsonSchema(args: Record<string, unknown>): FixtureResult {
    return { message: `Received ${JSON.stringify(args)}.` };
  }

  @Prompt({ description: 'A simple prompt without arguments.' })
  testSimplePrompt() {
    return 'This is a simple prompt for testing.';
  }

  @Prompt({ description: 'A prompt with two required arguments.', args: PromptArguments })
  testPromptWithArguments(args: PromptArguments) {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }

  @Prompt({ description: 'A prompt that embeds a resource.', args: EmbeddedResourceArguments })
  testPromptWithEmbeddedResource(args: EmbeddedResourceArguments) {
    return [
      userMessage(embeddedResource({ uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' })),
      userMessage('Please process the embedded resource above.'),
    ];
  }

  @Prompt({ description: 'A prompt with an image.' })
  testPromptWithImage() {
    return [userMessage(image(RED_PIXEL_PNG, 'image/png')), userMessage('Please analyze the image above.')];
  }

  @Resource({ uri: 'test://static-text', name: 'static-text', description: 'A static text resource.', mimeType: 'text/plain' })
  staticText() {
    return 'This is the content of the static text resource.';
  }

  @Resource({ uri: 'test://static-binary', name: 'static-binary', description: 'A static binary resource (a PNG).', mimeType: 'image/png' })
  staticBinary() {
    return new Uint8Array(RED_PIXEL_PNG);
  }

  @Resource({ uri: 'test://watched-resource', name: 'watched-resource', description: 'A resource clients may subscribe to.', mimeType: 'text/plain' })
  watchedResource() {
    return 'Watch me.';
  }

  @ResourceTemplate({ uriTemplate: 'test://template/{id}/data', name: 'template-data', description: 'Data for an id.', mimeType: 'application/json', args: TemplateArguments })
  templateData(args: TemplateArguments) {
    return JSON.stringify({ id: args.id, templateTest: true, data: `Data for ID: ${args.id}` });
  }
}
