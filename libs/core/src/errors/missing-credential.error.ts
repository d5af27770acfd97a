/**
 * A tool needs a credential the caller did not send. It becomes an `isError` result whose message
 * tells the user how to configure it; it never crashes the server.
 */
export class MissingCredentialError extends Error {
  readonly header: string;

  constructor(header: string, environmentVariable: string) {
    super(
      `This tool needs the caller's credential in the \`${header}\` HTTP header, and the request did not carry it. ` +
        `Ask the user to configure their MCP client to send the \`${header}\` header with every request ` +
        `(over stdio, start the server with the ${environmentVariable} environment variable set). ` +
        'It cannot be passed as a tool argument.',
    );
    this.name = 'MissingCredentialError';
    this.header = header;
  }
}
