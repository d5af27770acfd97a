import type { CompiledTool } from '../../compiled/tool-catalog';
import type { CallCaller, ToolCall } from '../../metadata/tool-interceptor';

/**
 * The call's own abort signal, aborted with the request's or by an interceptor; made only when the
 * tool's context or an interceptor asks for it (a toolset built with `new` and interceptors that
 * never abort cost no AbortController).
 */
export class CallAbort {
  #controller: AbortController | undefined;

  constructor(private readonly request: AbortSignal) {}

  get signal(): AbortSignal {
    return this.controller().signal;
  }

  abort(reason: unknown): void {
    this.controller().abort(reason);
  }

  private controller(): AbortController {
    if (this.#controller) return this.#controller;
    const controller = (this.#controller = new AbortController());
    const request = this.request;
    if (request.aborted) controller.abort(request.reason);
    else request.addEventListener('abort', () => controller.abort(request.reason), { once: true });
    return controller;
  }
}

/** One call as interceptors see it; who calls is worked out only if one asks. */
export class InterceptedCall implements ToolCall {
  readonly name: string;
  readonly toolset: string;
  readonly annotations: ToolCall['annotations'];
  readonly args: Readonly<Record<string, unknown>>;
  #caller: CallCaller | undefined;
  readonly #abort: CallAbort;
  readonly #whoCalls: () => CallCaller;

  constructor(tool: CompiledTool, args: Readonly<Record<string, unknown>>, abort: CallAbort, whoCalls: () => CallCaller) {
    this.args = args;
    this.#abort = abort;
    this.#whoCalls = whoCalls;
    this.name = tool.name;
    this.toolset = tool.toolset.name;
    this.annotations = tool.descriptor.annotations ?? NO_ANNOTATIONS;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get caller(): CallCaller {
    return (this.#caller ??= this.#whoCalls());
  }

  abort(reason?: unknown): void {
    this.#abort.abort(reason);
  }
}

const NO_ANNOTATIONS = Object.freeze({});
