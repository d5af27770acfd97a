export interface InitGeneratorSchema {
  skipInstall?: boolean;
}
