export interface ToolGeneratorSchema {
  toolset: string;
  name: string;
  description?: string;
}
