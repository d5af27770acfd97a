import { ArrayMaxSize, ArrayMinSize, IsIn, IsOptional, MaxLength, MinLength } from 'class-validator';
import { Complete, Field, Result, ToolResult } from '@toolsets/core';

export class HelloArgs {
  @Field({ description: 'Who to greet.' })
  @IsOptional()
  @MinLength(1)
  @MaxLength(100)
  name?: string = 'world';
}

@Result({ description: 'A greeting, in the message.' })
export class HelloResult extends ToolResult {}

export class GreetTeamArgs {
  @Field(() => [String], { description: 'The names of the people to greet, each once.' })
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @MinLength(1, { each: true })
  @MaxLength(100, { each: true })
  names!: string[];
}

export class Greeting {
  @Field({ description: 'The person greeted.' })
  name!: string;

  @Field({ description: 'The greeting for that person.' })
  text!: string;
}

@Result({ description: 'One greeting per team member, in the order given.' })
export class TeamGreetingResult extends ToolResult {
  @Field(() => [Greeting])
  greetings!: Greeting[];
}

export class WelcomeArgs {
  @Field({ description: 'The new team member.' })
  @MinLength(1)
  @MaxLength(100)
  name!: string;

  @Field({ description: 'The team they join.' })
  @MinLength(1)
  @MaxLength(100)
  team!: string;
}

/** The word for hello, by language. */
export const GREETING_LANGUAGES: Readonly<Record<string, string>> = { english: 'Hello', french: 'Bonjour', german: 'Hallo', spanish: 'Hola', swahili: 'Jambo' };

export class GreetingInArgs {
  @Field({ description: 'A language from hello://languages.' })
  @IsIn(Object.keys(GREETING_LANGUAGES))
  @Complete((value) => Object.keys(GREETING_LANGUAGES).filter((language) => language.startsWith(value.toLowerCase())))
  language!: string;
}
