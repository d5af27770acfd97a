/** A JSON value read by path in assertions (`schema["$defs"]["Address"]`). */
export type Loose = { [key: string]: Loose };
