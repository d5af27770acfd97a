import { ContractViolation, type ViolationSite } from './contract-violation';

/**
 * Something listed as an interceptor (`@UseInterceptors`, `buildServer({ interceptors })`) that
 * cannot run around a call: not a class, no `intercept` method, a constructor the call's container
 * cannot fill, or an interceptor that refuses the tool it is put on (`Cache` on a tool that writes).
 */
export class InvalidInterceptorError extends ContractViolation {
  private constructor(site: ViolationSite, problem: string, fix: string) {
    super(site, problem, fix);
  }

  static notAClass(site: ViolationSite, where: string, value: string): InvalidInterceptorError {
    return new InvalidInterceptorError(
      site,
      `${where} lists ${value} as an interceptor, which is not a class.`,
      'list interceptor classes (`class Audit implements ToolInterceptor { intercept(call, next) {…} }`), not instances or functions; a configured built-in is a call: RateLimit({ … }).',
    );
  }

  static noInterceptMethod(site: ViolationSite, where: string, className: string): InvalidInterceptorError {
    return new InvalidInterceptorError(
      site,
      `${where} lists the class ${className} as an interceptor, but it has no intercept(call, next) method.`,
      `give ${className} a method intercept(call: ToolCall, next: CallNext) that returns next() or a result of its own.`,
    );
  }

  static notInjectable(site: ViolationSite, where: string, className: string, parameters: number): InvalidInterceptorError {
    return new InvalidInterceptorError(
      site,
      `${where} lists the interceptor ${className}, whose constructor takes ${parameters} parameter(s) but has no recorded parameter types, so the call's container cannot build it.`,
      `decorate ${className} with @injectable() from tsyringe (with emitDecoratorMetadata on), or register it in the container passed to buildServer.`,
    );
  }

  static misplaced(site: ViolationSite, className: string, methodName: string): InvalidInterceptorError {
    return new InvalidInterceptorError(
      site,
      `@UseInterceptors is on ${className}.${methodName}(), which is not a @Tool; interceptors wrap tool calls only.`,
      `move @UseInterceptors to a @Tool method, or to the class ${className} to wrap all its tools.`,
    );
  }

  static refused(site: ViolationSite, className: string, problem: string, fix: string): InvalidInterceptorError {
    return new InvalidInterceptorError(site, `The interceptor ${className} cannot wrap this tool: ${problem}`, fix);
  }
}
