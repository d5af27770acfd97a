export { CredentialDemoToolset, DEMO_TOKEN_HEADER } from './lib/credential-demo.toolset';
export { ACCOUNT_RESOLVER, DigestAccountResolver, type AccountResolver } from './lib/account-resolver';
export { WhoamiResult } from './lib/whoami.dto';
