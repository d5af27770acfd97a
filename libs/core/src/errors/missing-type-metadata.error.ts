import { ContractViolation, type ViolationSite } from './contract-violation';

export class MissingTypeMetadataError extends ContractViolation {
  constructor(site: ViolationSite, className: string, properties: readonly string[]) {
    super(
      site,
      `${properties.map((p) => `'${p}'`).join(', ')} of '${className}' ${properties.length === 1 ? 'has' : 'have'} no reflected type (design:type); the class was compiled without decorator metadata.`,
      'compile with `"emitDecoratorMetadata": true` and `"experimentalDecorators": true` using tsc or swc (esbuild drops the metadata), or give @Field an explicit type thunk.',
    );
  }
}
