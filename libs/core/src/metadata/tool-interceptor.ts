import type { ToolAnnotations } from './tool-metadata';

/** Who calls, as far as an interceptor needs to tell callers apart; never a credential's value. */
export interface CallCaller {
  /** The server (mount) the call came through: answers and limits on one mount are not another's. */
  readonly mount: string;
  /** Whether a verified access token stands behind the call (HTTP mounts with `AUTH_ISSUER`). */
  readonly authenticated: boolean;
  /** The token's issuer (`iss`), when a verified token stands behind the call. */
  readonly issuer?: string;
  /** The token's `sub`. */
  readonly subject?: string;
  readonly clientId?: string;
  /** The declared credential headers the caller sent, lower-case (their names only). */
  readonly credentials: readonly string[];
  /** A SHA-256 (hex) of the declared credential values the caller sent; absent when it sent none. */
  readonly credentialHash?: string;
  /** The client's IP address over HTTP (the peer's: a proxy's, behind one). */
  readonly address?: string;
}

/** The tool an interceptor is put on, as the startup gate shows it to `refuse`. */
export interface InterceptedTool {
  readonly name: string;
  readonly toolset: string;
  readonly annotations: Readonly<ToolAnnotations>;
}

/** One `tools/call`, as interceptors see it once its arguments passed validation. */
export interface ToolCall extends InterceptedTool {
  /** The arguments as the client sent them, validated against the input schema. */
  readonly args: Readonly<Record<string, unknown>>;
  readonly caller: CallCaller;
  /** Aborted when the client cancels or goes away, or when an interceptor calls `abort`. */
  readonly signal: AbortSignal;
  /** Aborts the call's signal (the tool's `context.signal`), e.g. on a deadline. */
  abort(reason?: unknown): void;
}

/**
 * Runs the rest of the chain (the next interceptor, at the end the tool) and gives what it
 * returned: a result DTO, a `ToolError`, or what a later interceptor returned instead. What the
 * tool throws, it rejects with.
 */
export type CallNext = () => Promise<unknown>;

/**
 * Code around every call of the tools it is put on (`@UseInterceptors`, `buildServer({ interceptors })`).
 * A new instance is resolved from each call's container, so it can inject services and
 * `RequestContext`; state that outlives a call belongs in a singleton service or a static.
 * What `intercept` returns (or throws) is what the tool returned (or threw): `next()`'s value, or
 * its own result or `ToolError` to answer without running the rest. Either way it is validated
 * against the tool's declared output before it is sent.
 */
export interface ToolInterceptor {
  intercept(call: ToolCall, next: CallNext): unknown;
}

/** What the startup gate asks an interceptor class before putting it on a tool. */
export interface InterceptorRefusal {
  /** Why it cannot wrap this tool. */
  problem: string;
  /** What to change. */
  fix: string;
}

/**
 * An interceptor class. Its optional static `refuse` lets the startup gate turn down tools it
 * cannot wrap (`Cache` refuses tools without `readOnlyHint`).
 */
export interface InterceptorClass<T extends ToolInterceptor = ToolInterceptor> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  new (...args: any[]): T;
  refuse?(tool: InterceptedTool): InterceptorRefusal | undefined;
}
