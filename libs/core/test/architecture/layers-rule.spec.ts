import { join } from 'node:path';
import { RuleTester } from 'eslint';
const { rules } = require('../../eslint/layers-rule.cjs');

const root = '/repo/src';
const options = [{ root, order: ['helpers', 'metadata', 'decorators', 'server', 'transport', ['transport/http', 'transport/stdio'], 'app'] }];
const at = (file: string) => join(root, file);
// A parent folder that composes its children, ranked above them (core's server/ and build-server.ts).
const composing = [{ root, order: ['helpers', 'server/tools', 'server/tasks', 'server', 'transport', 'transport/http'] }];
const tester = new RuleTester({ languageOptions: { parser: require('@typescript-eslint/parser'), ecmaVersion: 2022, sourceType: 'module' } });

// RuleTester declares its own describe and it blocks (one per case).
describe("core's layers rule: imports down the order, within a folder, and type-only imports up are allowed; any other import up or between peers is reported", () => {
  tester.run('layers', rules.layers, {
      valid: [
        { filename: at('server/build-server.ts'), code: "import { x } from '../metadata/storage';", options },
        { filename: at('server/build-server.ts'), code: "import { x } from './logger';", options },
        { filename: at('transport/http/router.ts'), code: "import { x } from '../serving-limits';", options },
        { filename: at('decorators/tool.ts'), code: "import type { X } from '../server/x';", options },
        { filename: at('decorators/tool.ts'), code: "import { type X, type Y } from '../server/x';", options },
        { filename: at('decorators/tool.ts'), code: "import { z } from 'typebox';", options },
        { filename: at('index.ts'), code: "export { x } from './app/run';", options },
        { filename: at('server/build-server.ts'), code: "import { x } from './tasks/engine';", options: composing },
        { filename: at('transport/http/router.ts'), code: "import { x } from '../serving-limits';", options: composing },
      ],
      invalid: [
        { filename: at('metadata/storage.ts'), code: "import { Field } from '../decorators/field';", options, errors: [{ message: /'decorators' is above 'metadata' in the layers/ }] },
        { filename: at('server/build-server.ts'), code: "export { serve } from '../transport/http/serve';", options, errors: [{ message: /'transport\/http' is above 'server'/ }] },
        { filename: at('transport/stdio/serve.ts'), code: "import { reply } from '../http/replies';", options, errors: [{ message: /'transport\/http' is a peer of 'transport\/stdio'/ }] },
        { filename: at('helpers/text.ts'), code: "import { type X, y } from '../app/x';", options, errors: [{ message: /move what 'helpers' needs/ }] },
        { filename: at('server/tasks/engine.ts'), code: "import { buildServer } from '../build-server';", options: composing, errors: [{ message: /'server' is above 'server\/tasks'/ }] },
      ],
  });
});
