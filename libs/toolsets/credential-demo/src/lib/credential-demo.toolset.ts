import { inject, registry } from 'tsyringe';
import { LOGGER, RequestContext, Tool, Toolset, type Logger } from '@toolsets/core';
import { ACCOUNT_RESOLVER, DigestAccountResolver, type AccountResolver } from './account-resolver';
import { WhoamiResult } from './whoami.dto';

export const DEMO_TOKEN_HEADER = 'x-demo-token';

@Toolset({
  description: "Shows how a tool reads the caller's credential from an HTTP header.",
  credentialHeaders: [DEMO_TOKEN_HEADER],
})
// The default resolver; register another ACCOUNT_RESOLVER in the app's container to replace it.
@registry([{ token: ACCOUNT_RESOLVER, useClass: DigestAccountResolver }])
export class CredentialDemoToolset {
  constructor(
    private readonly context: RequestContext,
    @inject(ACCOUNT_RESOLVER) private readonly accounts: AccountResolver,
    @inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Tool({
    description:
      "Report which account the calling user's credential belongs to. " +
      `Requires the caller's token in the \`${DEMO_TOKEN_HEADER}\` HTTP header (over stdio: the X_DEMO_TOKEN environment variable). ` +
      'If it is missing, ask the user to configure their MCP client to send that header. ' +
      'The token cannot be passed as an argument.',
    returns: WhoamiResult,
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  async whoami(): Promise<WhoamiResult> {
    const present = this.context.hasCredential(DEMO_TOKEN_HEADER);
    // Presence and length only: the token itself never reaches a log line.
    this.logger.info('whoami', { tokenPresent: present, tokenLength: present ? this.context.credential(DEMO_TOKEN_HEADER).length : 0 });
    // Throws MissingCredentialError without the header: an isError result telling the user what to configure.
    const token = this.context.credential(DEMO_TOKEN_HEADER);
    const account = await this.accounts.resolve(token, this.context.signal);
    return { message: `The caller's credential belongs to account ${account}.`, account };
  }
}
