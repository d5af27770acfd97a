export { HelloToolset } from './lib/hello.toolset';
export { GreetTeamArgs, Greeting, HelloArgs, HelloResult, TeamGreetingResult } from './lib/hello.dto';
