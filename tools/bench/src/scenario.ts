// One benchmark scenario per process: `node --expose-gc scenario.js <scenario> [argument]`.
// Prints `RESULT <json>` as its last line for main.js to collect.
import { catalogSize } from './scenarios/catalog';
import { httpScenario } from './scenarios/http-load';
import { startHttpContender } from './scenarios/http-servers';
import { memoryScenario } from './scenarios/memory';
import { perCall, richResult } from './scenarios/per-call';
import { stallScenario } from './scenarios/stall';
import { coldStartProcess, openApiScaleScenario } from './scenarios/openapi-scale';
import { openApiDocumentsScenario } from './scenarios/openapi-documents';
import { discoveryScenario } from './scenarios/discovery';
import { mockCallsScenario } from './scenarios/mock-calls';
import { devLoopScenario } from './scenarios/dev-loop';
import { tasksScenario } from './scenarios/tasks';
import { authScenario } from './scenarios/auth';
import { telemetryScenario } from './scenarios/telemetry';
import { upstreamTransportScenario } from './scenarios/upstream-transport';
import { viewsScenario } from './scenarios/views';
import { codeModeScenario } from './scenarios/code-mode/code-mode';
import { codeModeSearchScenario } from './scenarios/code-mode/code-mode-search';
import { codeModeHeldOutScenario } from './scenarios/code-mode/code-mode-held-out';
import { curatedCatalogsScenario } from './scenarios/curated-catalogs';
import { catalogModesScenario } from './scenarios/catalog-modes';
import { startUpstreamApp, upstreamMcpScenario } from './scenarios/upstream-mcp';
import { upstreamLegScenario } from './scenarios/upstream-leg';
import { startStdioApp, stdioServingScenario } from './scenarios/stdio-serving';

const [scenario, argument] = process.argv.slice(2);

const scenarios: Record<string, () => Promise<unknown>> = {
  'per-call': perCall,
  'rich-result': richResult,
  'catalog-size': () => catalogSize(Number(argument)),
  http: () => httpScenario(__filename),
  memory: memoryScenario,
  stall: () => stallScenario(__filename),
  'openapi-scale': () => openApiScaleScenario(__filename),
  'openapi-documents': () => openApiDocumentsScenario(__filename),
  discovery: discoveryScenario,
  'mock-calls': mockCallsScenario,
  auth: authScenario,
  telemetry: telemetryScenario,
  'upstream-transport': upstreamTransportScenario,
  'dev-loop': devLoopScenario,
  tasks: tasksScenario,
  views: viewsScenario,
  'code-mode': codeModeScenario,
  'code-mode-search': codeModeSearchScenario,
  'code-mode-held-out': codeModeHeldOutScenario,
  'curated-catalogs': curatedCatalogsScenario,
  'catalog-modes': catalogModesScenario,
  'upstream-mcp': upstreamMcpScenario,
  'upstream-leg': upstreamLegScenario,
  'stdio-serving': stdioServingScenario,
};

async function main(): Promise<void> {
  if (scenario === 'http-server') return startHttpContender(argument);
  if (scenario === 'upstream-mcp-app') return startUpstreamApp(argument ?? 'stdio', process.argv[4], process.argv[5]);
  if (scenario === 'stdio-app') return startStdioApp(argument);
  if (scenario === 'openapi-cold-start') return coldStartProcess(argument, process.argv.slice(4));
  const run = scenarios[scenario];
  if (!run) throw new Error(`Unknown scenario '${scenario}'. Scenarios: ${Object.keys(scenarios).join(', ')}.`);
  const result = await run();
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  process.exit(0);
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
