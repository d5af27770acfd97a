/**
 * `import()` that stays `import()`: the build emits CommonJS, which turns `import()` into
 * `require()`, and `require()` cannot load a package that exports only an ES module entry
 * (`@modelcontextprotocol/ext-tasks` lists only the `import` condition).
 */
export const importEsm = new Function('specifier', 'return import(specifier)') as <T>(specifier: string) => Promise<T>;
