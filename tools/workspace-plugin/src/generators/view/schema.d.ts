export interface ViewGeneratorSchema {
  toolset: string;
  name: string;
  description?: string;
  tool?: string;
  skipInstall?: boolean;
}
