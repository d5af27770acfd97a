/**
 * A tool asked for a token for the API it calls on its caller's behalf (`context.exchangeToken`) and
 * none could be had: the call has no verified caller, the server has no client at the issuer, or
 * the issuer refused. The message says which and what to set; it never holds a token or a secret.
 * The call answers it as an `isError` result.
 */
export class TokenExchangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenExchangeError';
  }
}
