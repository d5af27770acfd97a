export interface AppGeneratorSchema {
  name: string;
  toolsets: string;
  directory?: string;
  publishable?: boolean;
}
