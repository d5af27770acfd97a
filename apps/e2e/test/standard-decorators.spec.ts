import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { workspaceRoot } from './support/server-process';

// What `npx tsx file.ts` (esbuild) or tsc without experimentalDecorators makes of a toolset:
// TC39 standard decorators, called as (value, context), with no design:type anywhere.
const SOURCE = `
import 'reflect-metadata';
import { buildServer, Field, Result, Tool, ToolResult, Toolset } from '@toolsets/core';

class ForecastArgs {
  @Field({ description: 'City name.' })
  city!: string;
}

@Result({ description: 'A forecast.' })
class ForecastResult extends ToolResult {
  @Field()
  celsius!: number;
}

@Toolset({ description: 'Weather.' })
class WeatherToolset {
  @Tool({ description: 'Forecast for a city.', args: ForecastArgs, returns: ForecastResult })
  forecast(args: ForecastArgs): ForecastResult {
    return { message: args.city, celsius: 20 };
  }
}

buildServer({ name: 'weather', version: '1', toolsets: [WeatherToolset] });
`;

describe('a toolset compiled with TC39 standard decorators', () => {
  it('is refused once, with the tsconfig fix, instead of crashing inside a decorator', () => {
    const { outputText } = ts.transpileModule(SOURCE, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, experimentalDecorators: false },
    });
    const dir = mkdtempSync(join(tmpdir(), 'standard-decorators-'));
    const file = join(dir, 'weather.js');
    // The built core, as an app loads it; the file lives outside the workspace, so paths are absolute.
    const core = JSON.stringify(join(workspaceRoot, 'libs/core/dist/index.js'));
    const reflect = JSON.stringify(join(workspaceRoot, 'node_modules/reflect-metadata'));
    writeFileSync(file, outputText.replace('require("@toolsets/core")', `require(${core})`).replace('require("reflect-metadata")', `require(${reflect})`));
    const run = spawnSync(process.execPath, [file], { encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    expect(run.status).toBe(1);
    expect(run.stderr).not.toContain('TypeError');
    expect(run.stderr).toContain("The toolset 'weather' (class WeatherToolset) was compiled with TC39 standard decorators");
    expect(run.stderr).toContain('enable `"experimentalDecorators": true` and `"emitDecoratorMetadata": true`');
    expect(run.stderr).toContain("Server 'weather' refused to start: 1 contract violation.");
    expect(run.stderr).toContain('(on @Field city, @Field celsius, @Result ForecastResult, @Tool forecast)');
  });
});
