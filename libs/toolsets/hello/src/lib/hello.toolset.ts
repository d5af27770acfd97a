import { Prompt, Resource, ResourceTemplate, Tool, ToolError, Toolset, assistantMessage, image, userMessage, withContent } from '@toolsets/core';
import { GREETING_LANGUAGES, GreetingInArgs, GreetTeamArgs, HelloArgs, HelloResult, TeamGreetingResult, WelcomeArgs } from './hello.dto';

@Toolset({ description: 'Greetings: the smallest toolset, and one with a structured failure.' })
export class HelloToolset {
  @Tool({
    description: 'Greet someone by name (default: world). Returns the greeting as the message.',
    args: HelloArgs,
    returns: HelloResult,
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  hello(args: HelloArgs): HelloResult {
    return { message: `Hello, ${args.name}!` };
  }

  @Tool({
    description:
      'Greet every member of a team. Returns one greeting per name; fails with duplicate_names when a name appears twice.',
    args: GreetTeamArgs,
    returns: [TeamGreetingResult, ToolError],
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  greetTeam(args: GreetTeamArgs): TeamGreetingResult | ToolError {
    const seen = new Set<string>();
    const duplicates = args.names.filter((name) => seen.size === seen.add(name.toLowerCase()).size);
    if (duplicates.length > 0) {
      return new ToolError(
        'duplicate_names',
        `These names appear more than once: ${[...new Set(duplicates)].join(', ')}. Send each person once.`,
      );
    }
    const greetings = args.names.map((name) => ({ name, text: `Hello, ${name}!` }));
    return { message: `Greeted ${greetings.length} team member(s).`, greetings };
  }

  @Tool({
    description: 'Greet someone with a greeting card: the greeting as the message, and the card as an SVG image beside it.',
    args: HelloArgs,
    returns: HelloResult,
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  helloCard(args: HelloArgs) {
    const text = `Hello, ${args.name}!`;
    const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120"><rect width="320" height="120" rx="12" fill="#fdf6e3"/><text x="160" y="68" font-size="24" text-anchor="middle">${escaped}</text></svg>`;
    return withContent({ message: text }, image(Buffer.from(svg), 'image/svg+xml'));
  }

  @Prompt({ description: 'Ask the model to write a short, warm welcome note for someone joining a team.', args: WelcomeArgs })
  welcome(args: WelcomeArgs) {
    return [
      userMessage(`Write a two-sentence welcome note for ${args.name}, who is joining the ${args.team} team. Keep it warm and specific.`),
      assistantMessage(`Welcome, ${args.name}!`),
    ];
  }

  @Resource({ uri: 'hello://languages', description: 'The languages hello can greet in, one per line.', mimeType: 'text/plain' })
  languages() {
    return Object.keys(GREETING_LANGUAGES).join('\n');
  }

  @ResourceTemplate({ uriTemplate: 'hello://greeting/{language}', description: 'The word for hello in a language (see hello://languages).', mimeType: 'text/plain', args: GreetingInArgs })
  greetingIn(args: GreetingInArgs) {
    return GREETING_LANGUAGES[args.language];
  }
}
