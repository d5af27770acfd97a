export interface AppGeneratorSchema {
  name: string;
  toolsets: string;
  directory?: string;
  publishable?: boolean;
  /** The MCP Registry name of a publishable app (`io.github.<you>/<app>`), written as `mcpName` in its package.json. */
  mcpName?: string;
}
