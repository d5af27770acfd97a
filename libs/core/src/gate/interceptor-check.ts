import type { ContractViolation, ViolationSite } from '../errors/contract-violation';
import { InvalidInterceptorError } from '../errors/invalid-interceptor.error';
import type { InterceptedTool, InterceptorClass } from '../metadata/tool-interceptor';
import { describeEntry } from '../helpers/describe-value';

/**
 * The interceptor classes in `listed`, each checked: a class, with an `intercept` method, whose
 * constructor the call's container can fill. What is wrong is reported and left out.
 */
export function checkedInterceptors(listed: readonly unknown[], site: ViolationSite, where: string, report: (violation: ContractViolation) => void): InterceptorClass[] {
  const valid: InterceptorClass[] = [];
  for (const entry of listed) {
    if (typeof entry !== 'function' || entry.prototype === undefined) {
      report(InvalidInterceptorError.notAClass(site, where, describeEntry(entry)));
      continue;
    }
    const cls = entry as InterceptorClass;
    if (typeof cls.prototype.intercept !== 'function') {
      report(InvalidInterceptorError.noInterceptMethod(site, where, cls.name || 'an anonymous class'));
      continue;
    }
    if (cls.length > 0 && Reflect.getMetadata('design:paramtypes', cls) === undefined) {
      report(InvalidInterceptorError.notInjectable(site, where, cls.name, cls.length));
      continue;
    }
    valid.push(cls);
  }
  return valid;
}

/** Each interceptor on `tool` that turns it down (its static `refuse`), reported. */
export function checkRefusals(interceptors: readonly InterceptorClass[], tool: InterceptedTool, report: (violation: ContractViolation) => void): void {
  for (const cls of new Set(interceptors)) {
    const refusal = cls.refuse?.(tool);
    if (refusal) report(InvalidInterceptorError.refused({ toolset: tool.toolset, tool: tool.name }, cls.name, refusal.problem, refusal.fix));
  }
}
