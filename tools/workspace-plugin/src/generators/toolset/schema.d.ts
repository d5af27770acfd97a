export interface ToolsetGeneratorSchema {
  name: string;
  description?: string;
  credentialHeader?: string[];
  directory?: string;
  skipInstall?: boolean;
}
