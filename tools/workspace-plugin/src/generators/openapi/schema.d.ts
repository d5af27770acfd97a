export interface OpenApiGeneratorSchema {
  name: string;
  spec: string;
  specHeader?: string;
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
