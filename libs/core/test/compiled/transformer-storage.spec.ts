import 'reflect-metadata';
import { readableTransformerStorage } from '../../src/compiled/transformer-metadata';

// class-transformer's storage class, by path as core reads it (its declarations are under types/).
const { MetadataStorage } = require('class-transformer/cjs/MetadataStorage') as typeof import('class-transformer/types/MetadataStorage');

describe("class-transformer's metadata storage, as the compiled builder reads it", () => {
  it('is read when it holds what the public decorators record', () => {
    expect(readableTransformerStorage()).toBeDefined();
  });

  it('is refused when it is another instance than the decorators write to, as a bundler taking the ES module build makes it', () => {
    // A second, real MetadataStorage: the public @Type writes to the package's own, never to this one.
    const split = { defaultMetadataStorage: new MetadataStorage() };
    expect(readableTransformerStorage(() => split)).toBeUndefined();
  });

  it('is refused when it cannot be loaded or no longer looks like class-transformer 0.5', () => {
    expect(
      readableTransformerStorage(() => {
        throw new Error("Cannot find module 'class-transformer/cjs/storage'");
      }),
    ).toBeUndefined();
    expect(readableTransformerStorage(() => ({ defaultMetadataStorage: { findTypeMetadata: () => undefined } }))).toBeUndefined();
  });
});
