/**
 * Values written into TypeScript in the style of the code around them: strings in single quotes,
 * object keys bare where they are identifiers. JSON.stringify would write double quotes beside the
 * single-quoted imports and decorators the templates write. The one printer of literals: the
 * workspace plugin's generators and code mode's declarations both use it (imports nothing, and is
 * exported on its own as `@toolsets/core/ts-literal`).
 */
export declare function tsLiteral(value: unknown): string;
/** A string as a single-quoted literal, with JSON's escapes (so control characters and U+2028 stay escaped). */
export declare function tsString(text: string): string;
/** An object key: bare when it is an identifier, else quoted. */
export declare function tsKey(key: string): string;
