/** The peer address of each HTTP request the transport hands the SDK, keyed by its `Request`. */
const addresses = new WeakMap<Request, string>();

/** Records where `request` came from (the socket's remote address). */
export function rememberClientAddress(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address);
}

/** The peer address of an HTTP request the transport made, if it recorded one. */
export function clientAddressOf(request: Request | undefined): string | undefined {
  return request ? addresses.get(request) : undefined;
}
