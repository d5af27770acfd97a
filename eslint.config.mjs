import nx from '@nx/eslint-plugin';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    ignores: ['**/dist', '**/node_modules', '**/tmp', '**/.nx', '**/.reports', '**/.spike'],
  },
  {
    files: ['**/*.ts', '**/*.js'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            // Core depends on nothing of ours; toolsets on core and shared libs; apps compose them.
            { sourceTag: 'scope:core', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:toolset', onlyDependOnLibsWithTags: ['scope:core', 'type:shared', 'type:testing'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['scope:core'] },
            { sourceTag: 'type:shared', onlyDependOnLibsWithTags: ['scope:core', 'type:shared'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['scope:core', 'type:toolset', 'type:shared'] },
            { sourceTag: 'type:tools', onlyDependOnLibsWithTags: ['scope:core', 'type:toolset', 'type:testing', 'type:shared', 'type:tools'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['scope:core', 'type:testing', 'type:shared'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.ts'],
    rules: {
      // Decorated DTO properties are assigned by the framework, not constructors.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // A tool method may ignore its args; the leading underscore says so.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
];
