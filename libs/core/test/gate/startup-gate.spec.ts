import 'reflect-metadata';
import { IsOptional, Matches } from 'class-validator';
import {
  buildServer,
  ContractError,
  CredentialArgumentError,
  DuplicateToolNameError,
  EmptyToolsetError,
  Field,
  InvalidArgsError,
  InvalidKeywordsError,
  InvalidOriginError,
  InvalidMessageFieldError,
  InvalidReturnsUnionError,
  InvalidToolNameError,
  MissingDescriptionError,
  MissingReturnsError,
  NoExplicitTypeError,
  NoFieldsError,
  NotAToolsetError,
  ResultNotToolResultError,
  ReturnsNotAClassError,
  TypeThunkError,
  Tool,
  ToolError,
  ToolResult,
  Toolset,
  UnsupportedPatternError,
  type ClassType,
  type ContractViolation,
  runContractGate,
} from '../../src';

class OkResult extends ToolResult {}

/** Runs the gate and returns the ContractError it must throw. */
function gateError(...toolsets: ClassType[]): ContractError {
  try {
    buildServer({ name: 'gate-test', version: '0.0.0', toolsets });
  } catch (error) {
    expect(error).toBeInstanceOf(ContractError);
    return error as ContractError;
  }
  throw new Error('the gate accepted toolsets that break the contract');
}

/** The single violation of the given class; fails when there is none or more than one. */
function onlyViolation<T extends ContractViolation>(error: ContractError, kind: abstract new (...args: never[]) => T): T {
  const found = error.violations.filter((v) => v instanceof kind);
  expect(found).toHaveLength(1);
  return found[0] as T;
}

// Casts for declarations TypeScript itself would reject: the gate also guards plain JS and `any`.
const loose = <T = never>(value: unknown) => value as T;

describe('startup gate', () => {
  it('refuses a tool without returns', () => {
    @Toolset({ name: 'ts' })
    class NoReturns {
      @Tool(loose({ description: 'No returns.' }))
      act() {
        return { message: '' };
      }
    }
    const violation = onlyViolation(gateError(NoReturns), MissingReturnsError);
    expect(violation.message).toContain("@Tool on 'act' of 'NoReturns' declares no `returns`");
    expect(violation.message).toContain('Fix: add `returns: XResult`');
    expect(violation).toMatchObject({ toolset: 'ts', tool: 'act' });
  });

  it('refuses a result class that does not extend ToolResult', () => {
    class Plain {
      @Field()
      message!: string;
    }
    @Toolset({ name: 'ts' })
    class PlainReturns {
      @Tool({ description: 'Plain.', returns: loose<typeof OkResult>(Plain) })
      act(): OkResult {
        return { message: '' };
      }
    }
    const violation = onlyViolation(gateError(PlainReturns), ResultNotToolResultError);
    expect(violation.message).toContain("'Plain' does not extend ToolResult");
    expect(violation.message).toContain('class Plain extends ToolResult');
  });

  it('refuses a result whose message is missing', () => {
    class NoMessage {
      @Field()
      text!: string;
    }
    @Toolset({ name: 'ts' })
    class MissingMessage {
      @Tool({ description: 'x', returns: loose<typeof OkResult>(NoMessage) })
      act(): OkResult {
        return { message: '' };
      }
    }
    const error = gateError(MissingMessage);
    // One cause, one violation: not extending ToolResult is why `message` is missing.
    expect(error.violations).toHaveLength(1);
    const violation = onlyViolation(error, ResultNotToolResultError);
    expect(violation.message).toContain("The result class 'NoMessage' does not extend ToolResult.");
  });

  it('refuses a `returns` that is not a class, saying what it got', () => {
    @Toolset({ name: 'ts' })
    class NotAClass {
      @Tool({ description: 'x', returns: loose<typeof OkResult>('SearchResult') })
      act(): OkResult {
        return { message: '' };
      }
    }
    const violation = onlyViolation(gateError(NotAClass), ReturnsNotAClassError);
    expect(violation.message).toContain('`returns` must be a result class, got the string "SearchResult".');
    expect(violation.fix).toContain('`returns: SearchResult`, or `returns: [SearchResult, ToolError]`');
  });

  it('refuses a type thunk that throws (an import cycle), naming the cycle as the likely cause', () => {
    class ThrowingResult extends ToolResult {
      @Field(() => {
        throw new ReferenceError("Cannot access 'Shelf' before initialization");
      })
      shelf!: unknown;
    }
    @Toolset({ name: 'ts' })
    class Throwing {
      @Tool({ description: 'x', returns: ThrowingResult })
      act(): ThrowingResult {
        return { message: '', shelf: {} };
      }
    }
    const violation = onlyViolation(gateError(Throwing), TypeThunkError);
    expect(violation.message).toContain(
      `The type thunk of 'shelf' of 'ThrowingResult' threw "Cannot access 'Shelf' before initialization". This is almost always an import cycle`,
    );
    expect(violation.fix).toContain('move the DTO classes both modules need into a module of their own');
  });

  it('refuses a result that makes message optional', () => {
    class OptionalMessage extends ToolResult {
      @Field()
      @IsOptional()
      declare message: string;
    }
    @Toolset({ name: 'ts' })
    class OptionalToolset {
      @Tool({ description: 'x', returns: OptionalMessage })
      act(): OptionalMessage {
        return { message: '' };
      }
    }
    const violation = onlyViolation(gateError(OptionalToolset), InvalidMessageFieldError);
    expect(violation.message).toContain('declares `message` optional');
    expect(violation.message).toContain("Fix: remove @IsOptional() from 'message' in 'OptionalMessage'");
    expect(violation.path).toBe('OptionalMessage.message');
  });

  it('refuses a result whose message is not a string', () => {
    class NumericMessage extends ToolResult {
      @Field(() => Number)
      declare message: string;
    }
    @Toolset({ name: 'ts' })
    class NumericToolset {
      @Tool({ description: 'x', returns: NumericMessage })
      act(): NumericMessage {
        return { message: '' };
      }
    }
    const violation = onlyViolation(gateError(NumericToolset), InvalidMessageFieldError);
    expect(violation.message).toContain('with a type other than string');
  });

  it('refuses a union other than one result arm plus ToolError', () => {
    class OtherResult extends ToolResult {}
    @Toolset({ name: 'ts' })
    class BadUnion {
      @Tool({ description: 'x', returns: loose<[typeof OkResult, typeof ToolError]>([OkResult, OtherResult]) })
      act(): OkResult {
        return { message: '' };
      }
    }
    const violation = onlyViolation(gateError(BadUnion), InvalidReturnsUnionError);
    expect(violation.message).toContain('`returns: [OkResult, OtherResult]` is not a supported union');
    expect(violation.message).toContain('Fix: write `returns: [XResult, ToolError]`');
  });

  it("refuses an ambiguous property without a type thunk, naming 'prop' of 'Class'", () => {
    class Match {
      @Field()
      id!: string;
    }
    class ListResult extends ToolResult {
      @Field()
      matches!: Match[];
    }
    @Toolset({ name: 'ts' })
    class Ambiguous {
      @Tool({ description: 'x', returns: ListResult })
      list(): ListResult {
        return { message: '', matches: [] };
      }
    }
    const violation = onlyViolation(gateError(Ambiguous), NoExplicitTypeError);
    expect(violation.message).toContain("'matches' of 'ListResult' reflects as Array");
    expect(violation.message).toContain('`@Field(() => [Item])`');
    expect(violation).toMatchObject({ toolset: 'ts', tool: 'list', path: 'ListResult.matches' });
  });

  it('refuses a nested class with no @Field properties', () => {
    class Bare {
      id!: string;
    }
    class WrapResult extends ToolResult {
      @Field(() => Bare)
      bare!: Bare;
    }
    @Toolset({ name: 'ts' })
    class Nested {
      @Tool({ description: 'x', returns: WrapResult })
      act(): WrapResult {
        return { message: '', bare: { id: '' } };
      }
    }
    const violation = onlyViolation(gateError(Nested), NoFieldsError);
    expect(violation.message).toContain("The nested class 'Bare' declares no @Field properties");
    expect(violation.message).toContain("decorate each property of 'Bare'");
  });

  it('refuses a missing or empty tool description', () => {
    @Toolset({ name: 'ts' })
    class Undescribed {
      @Tool(loose({ returns: OkResult }))
      first(): OkResult {
        return { message: '' };
      }

      @Tool({ description: '   ', returns: OkResult })
      second(): OkResult {
        return { message: '' };
      }
    }
    const error = gateError(Undescribed);
    const found = error.violations.filter((v) => v instanceof MissingDescriptionError);
    expect(found.map((v) => v.tool)).toEqual(['first', 'second']);
    expect(found[0].message).toContain("add `description: '...'` to @Tool");
  });

  it.each([
    ['a string', 'refund', "are string \"refund\", not an array"],
    ['an empty word', ['refund', ' '], 'have string " " at [1]'],
    ['a number', ['refund', 3], 'have number 3 at [1]'],
    ['too many', Array.from({ length: 65 }, (_, i) => `w${i}`), 'are 65, more than 64'],
  ])('refuses keywords that are %s, naming the tool and the fix', (_case, keywords, problem) => {
    @Toolset({ name: 'ts' })
    class BadKeywords {
      @Tool(loose({ description: 'Refund a charge.', returns: OkResult, keywords }))
      refund(): OkResult {
        return { message: '' };
      }
    }
    const violation = onlyViolation(gateError(BadKeywords), InvalidKeywordsError);
    expect(violation.tool).toBe('refund');
    expect(violation.message).toContain(problem);
    expect(violation.message).toContain("set `keywords:` in @Tool to an array of at most 64 short words");
  });

  it.each([
    ['empty', '', 'is string ""'],
    ['a number', 7, 'is number 7'],
    ['too long', 'x'.repeat(513), 'not a string of 1–512 characters'],
  ])('refuses an origin that is %s, naming the tool and the fix', (_case, origin, problem) => {
    @Toolset({ name: 'ts' })
    class BadOrigin {
      @Tool(loose({ description: 'Refund a charge.', returns: OkResult, origin }))
      refund(): OkResult {
        return { message: '' };
      }
    }
    const violation = onlyViolation(gateError(BadOrigin), InvalidOriginError);
    expect(violation.tool).toBe('refund');
    expect(violation.message).toContain(problem);
    expect(violation.message).toContain("set `origin:` in @Tool to what the tool stands for");
  });

  it('gives each tool its origin: its own, or its toolset class and method', () => {
    @Toolset({ name: 'ts' })
    class Refunds {
      @Tool({ description: 'Refund a charge.', returns: OkResult, origin: 'POST /charges/{id}/refunds' })
      refund(): OkResult {
        return { message: '' };
      }
      @Tool({ description: 'Look a refund up.', returns: OkResult })
      findRefund(): OkResult {
        return { message: '' };
      }
    }
    const catalog = runContractGate('origins', [Refunds]);
    expect([...catalog.tools.values()].map((tool) => [tool.name, tool.origin])).toEqual([
      ['refund', 'POST /charges/{id}/refunds'],
      ['find_refund', 'Refunds.findRefund'],
    ]);
    // Not advertised.
    expect(JSON.stringify(catalog.tools.get('refund')!.descriptor)).not.toContain('origin');
  });

  it.each([['has space'], ['x'.repeat(129)], ['émoji'], ['']])('refuses the tool name %j', (name) => {
    @Toolset({ name: 'ts' })
    class BadName {
      @Tool({ name, description: 'x', returns: OkResult })
      act(): OkResult {
        return { message: '' };
      }
    }
    const violation = onlyViolation(gateError(BadName), InvalidToolNameError);
    expect(violation.message).toContain('1 to 128 characters of A-Z a-z 0-9 _ - .');
  });

  it('refuses duplicate tool names across the toolsets of one server', () => {
    @Toolset({ name: 'first' })
    class First {
      @Tool({ description: 'x', returns: OkResult })
      search(): OkResult {
        return { message: '' };
      }
    }
    @Toolset({ name: 'second' })
    class Second {
      @Tool({ description: 'x', returns: OkResult })
      search(): OkResult {
        return { message: '' };
      }
    }
    const violation = onlyViolation(gateError(First, Second), DuplicateToolNameError);
    expect(violation.message).toContain(
      "The tool name 'search' is used by First.search() (toolset 'first') and by Second.search() (toolset 'second')",
    );
    expect(violation.toolset).toBe('second');
  });

  it("refuses an argument named like one of the toolset's credential headers", () => {
    class LeakyArgs {
      @Field()
      xDemoToken!: string;
    }
    @Toolset({ name: 'ts', credentialHeaders: ['x-demo-token'] })
    class Leaky {
      @Tool({ description: 'x', args: LeakyArgs, returns: OkResult })
      act(_args: LeakyArgs): OkResult {
        return { message: '' };
      }
    }
    const violation = onlyViolation(gateError(Leaky), CredentialArgumentError);
    expect(violation.message).toContain("'xDemoToken' of 'LeakyArgs' is an argument named like the credential header 'x-demo-token'");
    expect(violation.message).toContain("context.credential('x-demo-token')");
  });

  it('refuses args that are not a class, or a class without fields', () => {
    class NoFieldArgs {}
    @Toolset({ name: 'ts' })
    class BadArgs {
      @Tool({ description: 'x', args: loose<typeof NoFieldArgs>({ query: String }), returns: OkResult })
      first(): OkResult {
        return { message: '' };
      }

      @Tool({ description: 'x', args: NoFieldArgs, returns: OkResult })
      second(): OkResult {
        return { message: '' };
      }
    }
    const error = gateError(BadArgs);
    expect(onlyViolation(error, InvalidArgsError).message).toContain('`args` must be a class with @Field properties');
    expect(onlyViolation(error, NoFieldsError).message).toContain("The argument class 'NoFieldArgs' declares no @Field properties");
  });

  it('refuses a class passed as a toolset without @Toolset, and a toolset without tools', () => {
    class Undecorated {}
    @Toolset({ name: 'empty' })
    class Empty {}
    const error = gateError(Undecorated, Empty);
    expect(onlyViolation(error, NotAToolsetError).message).toContain("'Undecorated' was passed in `toolsets` but is not decorated with @Toolset");
    expect(onlyViolation(error, EmptyToolsetError).message).toContain("'Empty' has no @Tool methods");
  });

  it('refuses a type thunk that returns undefined (a circular import) and regex flags a pattern cannot carry', () => {
    class Later {}
    const holder: { cls?: typeof Later } = {};
    class ThunkResult extends ToolResult {
      @Field(() => holder.cls as typeof Later)
      later!: Later;

      @Field()
      @Matches(/^abc$/i)
      code!: string;
    }
    @Toolset({ name: 'ts' })
    class Thunks {
      @Tool({ description: 'x', returns: ThunkResult })
      act(): ThunkResult {
        return { message: '', later: {}, code: '' };
      }
    }
    const error = gateError(Thunks);
    expect(onlyViolation(error, TypeThunkError).message).toContain("The type thunk of 'later' of 'ThunkResult' returned undefined. This is almost always an import cycle");
    expect(onlyViolation(error, UnsupportedPatternError).message).toContain("uses the regex flag(s) 'i'");
  });

  it('reports every violation of every toolset at once, in one error message', () => {
    class Loose extends ToolResult {
      @Field()
      data!: object;
    }
    @Toolset({ name: 'alpha' })
    class Alpha {
      @Tool({ name: 'bad name', description: '', returns: Loose })
      act(): Loose {
        return { message: '', data: {} };
      }
    }
    @Toolset({ name: 'beta' })
    class Beta {
      @Tool(loose({ description: 'x' }))
      other() {
        return { message: '' };
      }
    }
    const error = gateError(Alpha, Beta);
    expect(error.violations.map((v) => v.constructor)).toEqual([
      InvalidToolNameError,
      MissingDescriptionError,
      NoExplicitTypeError,
      MissingReturnsError,
    ]);
    expect(error.message).toContain("Server 'gate-test' refused to start: 4 contract violations.");
    for (const violation of error.violations) expect(error.message).toContain(violation.message);
  });

  it('builds a server when every toolset follows the contract', () => {
    @Toolset({ name: 'fine' })
    class Fine {
      @Tool({ description: 'Fine.', returns: [OkResult, ToolError] })
      act(): OkResult | ToolError {
        return { message: '' };
      }
    }
    expect(() => buildServer({ name: 'ok', version: '1', toolsets: [Fine] })).not.toThrow();
  });
});
