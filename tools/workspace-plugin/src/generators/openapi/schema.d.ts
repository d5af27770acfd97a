export interface OpenApiGeneratorSchema {
  name: string;
  spec: string;
  includeTags?: string;
  excludeTags?: string;
  include?: string;
  exclude?: string;
  credentialHeader?: string;
  directory?: string;
  skipInstall?: boolean;
}
