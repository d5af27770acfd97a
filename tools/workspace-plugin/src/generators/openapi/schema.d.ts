export interface OpenApiGeneratorSchema {
  name: string;
  spec: string;
  includeTags?: string;
  excludeTags?: string;
  include?: string;
  exclude?: string;
  credentialHeader?: string;
  schemaBudget?: number;
  prefix?: string;
  groupBy?: 'tag';
  directory?: string;
  skipInstall?: boolean;
}
