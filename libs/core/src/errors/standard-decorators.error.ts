import { ContractViolation } from './contract-violation';

export class StandardDecoratorsError extends ContractViolation {
  constructor(where: string, members: readonly string[]) {
    super(
      {},
      `${where} was compiled with TC39 standard decorators${members.length ? ` (on ${members.slice(0, 8).join(', ')}${members.length > 8 ? ', …' : ''})` : ''}, which carry no type metadata; none of its tools can be reflected.`,
      'enable `"experimentalDecorators": true` and `"emitDecoratorMetadata": true` in tsconfig and compile with tsc or swc; esbuild-based runners (tsx, Vite) cannot emit the metadata (see Gotchas in docs/authoring-toolsets.md).',
    );
  }
}
