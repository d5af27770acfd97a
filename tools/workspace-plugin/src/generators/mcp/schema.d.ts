export interface McpGeneratorSchema {
  name: string;
  url?: string;
  command?: string;
  header?: string;
  env?: string;
  prefix?: string;
  include?: string;
  exclude?: string;
  directory?: string;
  skipInstall?: boolean;
}
