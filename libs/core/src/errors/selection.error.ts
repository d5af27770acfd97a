/**
 * A request's selection (`?toolsets=`, `X-MCP-Toolsets`, `--toolsets=`, the read-only switch or the
 * mode) names something this server does not have or a value it does not understand. Over HTTP it
 * is a 400; over stdio the server does not start.
 */
export class SelectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectionError';
  }
}
