import { OpenApiDocumentError } from './load-document';

interface Converter {
  convertObj(swagger: unknown, options: Record<string, unknown>): Promise<{ openapi: unknown }>;
}

/**
 * A Swagger 2.0 document as OpenAPI 3.0, by `swagger2openapi` (Mermade's converter, the one
 * APIs.guru uses for its catalog): converting by hand would miss the corners it already handles
 * (`consumes`/`produces`, `formData` parameters, `securityDefinitions`). `patch` fixes the small
 * errors real documents have; what it cannot convert is refused with its words.
 */
export async function fromSwagger2(document: unknown, source: string): Promise<unknown> {
  const version = String((document as { swagger?: unknown }).swagger);
  if (version !== '2.0') throw new OpenApiDocumentError(source, `it says swagger: ${JSON.stringify(version)}; only Swagger 2.0 is converted, and OpenAPI 3.0 or 3.1 read as they are.`);
  const { convertObj } = require('swagger2openapi') as Converter;
  try {
    const { openapi } = await convertObj(structuredClone(document), { patch: true, warnOnly: true, resolve: false });
    return { ...(openapi as object), 'x-converted-from': 'Swagger 2.0' };
  } catch (error) {
    throw new OpenApiDocumentError(source, `it is Swagger 2.0, and swagger2openapi could not convert it: ${(error as Error).message}`);
  }
}
