/** What reading an upstream body gave: its bytes, up to the cap, and how the reading ended. */
export interface BodyRead {
  /** The bytes read, at most the cap. */
  bytes: Buffer;
  /** `complete`: the whole body; `over_cap`: the body is longer than the cap and the rest was not read; `cut_off`: the stream failed or was aborted. */
  ending: 'complete' | 'over_cap' | 'cut_off';
  /** With `cut_off`: why the stream ended. */
  error?: unknown;
}
