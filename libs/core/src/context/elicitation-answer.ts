/** Messages that mean "not one of the field's choices", from TypeBox or the SDK's Ajv. */
const NOT_A_CHOICE = /must be equal to (one of the allowed values|constant)|must match (exactly one schema in oneOf|a schema in anyOf)/;

/**
 * One problem of an elicitation answer, naming the form field: `'tags': must NOT have more than 2
 * items`, `'priorities' (item 1): is not one of its choices`. `path` is a JSON pointer into the
 * answer (`/tags/0`), as the validators report it.
 */
export function answerProblem(path: string, message: string): string {
  const [field, item] = path.split('/').filter(Boolean);
  const where = field === undefined ? 'the answer' : `'${field}'${item !== undefined && /^\d+$/.test(item) ? ` (item ${Number(item) + 1})` : ''}`;
  return `${where}: ${NOT_A_CHOICE.test(message) ? 'is not one of its choices' : message}`;
}

/**
 * The problems in the SDK's own refusal of a 2025-era answer (`Elicitation response content does
 * not match requested schema: data/region must …, data/tags must …`), one per field.
 */
export function sdkAnswerProblems(sdkMessage: string): string[] {
  const byField = new Map<string, string>();
  for (const [, path, message] of sdkMessage.matchAll(/data(\/[^\s,]*)? ([^,]+)/g)) {
    const problem = answerProblem(path ?? '', message!.trim());
    // Ajv lists each oneOf arm before its summary: the last line for a field says it best.
    byField.set(problem.slice(0, problem.indexOf(': ')), problem);
  }
  return [...byField.values()];
}

/**
 * The action of a client's answer, or undefined when it is none of the three: an answer is data like
 * any argument, and a made-up action ("maybe") must never reach a tool typed to expect three.
 */
export function answerAction(answer: unknown): 'accept' | 'decline' | 'cancel' | undefined {
  const action = (answer as { action?: unknown } | null | undefined)?.action;
  return action === 'accept' || action === 'decline' || action === 'cancel' ? action : undefined;
}

/** A 2025-era answer the SDK found not to fit the form it was asked with. */
export class ElicitationAnswerMismatch extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
    this.name = 'ElicitationAnswerMismatch';
  }
}
