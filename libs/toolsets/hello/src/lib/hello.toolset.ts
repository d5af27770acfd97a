import { Tool, ToolError, Toolset } from '@toolsets/core';
import { GreetTeamArgs, HelloArgs, HelloResult, TeamGreetingResult } from './hello.dto';

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
}
