/** A type error in the model's program, at its own line and column (1-based). */
export interface TypeProblem {
  line: number;
  column: number;
  message: string;
  /** TypeScript's error number (`TS2345`). */
  code: string;
}
