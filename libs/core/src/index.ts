// Decorators record design:type through reflect-metadata, and tsyringe needs it: load it first.
import 'reflect-metadata';
import { metadataStorage as coreMetadata } from './metadata/metadata-storage';

export { Field } from './decorators/field.decorator';
export { Result } from './decorators/result.decorator';
export { Tool, type ToolOptions, type ToolMethod } from './decorators/tool.decorator';
export { Toolset } from './decorators/toolset.decorator';
export { curate, CuratedToolset, type ToolsetCuration, type ToolCuration, type ArgumentCuration, type MethodName, type ArgumentsOf } from './metadata/toolset-curation';
export { RequireScopes } from './decorators/require-scopes.decorator';
export { UseInterceptors } from './decorators/use-interceptors.decorator';
export type { ToolCall, ToolInterceptor, CallNext, CallCaller, InterceptedTool, InterceptorClass, InterceptorRefusal } from './metadata/tool-interceptor';
export { RateLimit, type RateLimitOptions } from './interceptors/rate-limit.interceptor';
export { Timeout, CallTimeoutError } from './interceptors/timeout.interceptor';
export { Cache, type CacheOptions } from './interceptors/cache.interceptor';
export { Timing } from './interceptors/timing.interceptor';
export type { CallerKey } from './interceptors/call-key';
export type { TelemetryOptions } from './telemetry/server-telemetry';
export { Prompt, type PromptOptions, type PromptMethod } from './decorators/prompt.decorator';
export { Resource, ResourceTemplate, type ResourceOptions, type ResourceTemplateOptions } from './decorators/resource.decorator';
export { Complete } from './decorators/complete.decorator';
export type { Completer, CompletionContext } from './metadata/completer-metadata';
export { userMessage, assistantMessage, type PromptMessage, type PromptOutput, type PromptContent } from './wire/prompt-message';
export type { ResourceBody } from './wire/resource-body';

export { ToolResult } from './results/tool-result';
export { ToolError } from './results/tool-error';
export { isToolError } from './results/is-tool-error';
export { withContent, ResultWithContent, image, audio, embeddedResource, resourceLink, type ExtraContent, type BinaryData } from './wire/tool-content';

export { unionOf, type TypeSpec, type TypeThunk, type UnionSpec, type EnumLike } from './types/type-spec';
export type { ClassType } from './types/class-type';
export type { ToolArgs, ToolOutput, ToolReturns } from './types/tool-returns';
export type { FieldOptions } from './metadata/field-metadata';
export { isolateMetadata } from './metadata/isolate-metadata';
export type { ResultOptions } from './metadata/result-metadata';
export type { ToolsetOptions } from './metadata/toolset-metadata';
export type { ToolAnnotations, ToolIcon } from './metadata/tool-metadata';
export { defineView, VIEW_MIME_TYPE, VIEWS_EXTENSION, type ViewOptions, type ViewDefinition, type ViewCsp, type ViewPermissions, type ViewVisibility, type ToolViewDeclaration } from './metadata/tool-view';
export { viewBundle } from './helpers/view-bundle';

export { runContractGate } from './gate/contract-gate';
export { findToolsets } from './gate/find-toolsets';
export { describeCatalog, type DescribeOptions } from './gate/catalog-description';
export { listHash, listHashOf } from './wire/list-hash';
export type { ToolCatalog, CompiledGroup, CompiledTool, CompiledToolset, CompiledPrompt, CompiledResource, CompiledResourceTemplate, CompiledView, ViewContent } from './compiled/tool-catalog';

export {
  buildServer,
  type BuildServerOptions,
  type ConnectionHandle,
  type ConnectionOptions,
  type ServerDefinition,
  type ToolsetServer,
} from './server/build-server';
export type { ServerCardOptions } from './server/server-card-options';
export { defineGroup, type ToolGroup, type ToolGroupOptions } from './metadata/tool-group';
export { SERVER_CARD_SCHEMA, SERVER_CARD_TYPE, CLIENT_CREDENTIALS_EXTENSION, CARD_META_KEY } from './wire/server-card';
export { stderrLogger, type Logger } from './server/logging/logger';
export { RESOURCE_UPDATES, RESOURCE_WATCHERS, type ResourceUpdates, type ResourceWatcher } from './server/members/resource-subscriptions';
export { LOGGER } from './server/logging/logger-token';

export { RequestContext, type ClientInfo, type ProtocolEra, type TransportKind } from './context/request-context';
export { AuthContext, type VerifiedCaller } from './context/auth-context';
export type { TokenExchangeRequest } from './context/token-exchange';
export { TokenExchangeError } from './errors/token-exchange.error';
export { TaskContext } from './context/task-context';
export type { TaskSupport, ToolTaskOptions, ToolTaskDeclaration } from './metadata/tool-task';
export type { TaskStore, TaskSignal } from './server/tasks/task-store';
export type { TaskRecord, TaskStatus, TaskChange } from './server/tasks/task-record';
export { MemoryTaskStore } from './server/tasks/memory-task-store';
export { RedisTaskStore } from './server/tasks/redis-task-store';
export { BullTaskQueue, type BullTaskQueueOptions } from './server/tasks/bull-task-queue';
export type { TaskQueue } from './server/tasks/task-queue';
export type { TaskEngine } from './server/tasks/task-engine';
export { DEFAULT_TASK_LIMITS, type TaskLimits, type TaskQuota, type TaskQuotaRefusal } from './server/tasks/task-limits';
export type { Elicitation, SampleRequest } from './context/client-requests';
export { ClientInputUnavailableError } from './server/request/sdk-client-input';
export { credentialEnvironmentVariable } from './context/credential-env';
export { secretForms, secretPattern } from './helpers/secret-forms';
export { plural } from './helpers/client-text';

export * from './errors';

export { DEFAULT_ARGUMENT_LIMITS, type ArgumentLimits } from './server/checks/argument-limits';
export { argumentChecker } from './server/checks/argument-errors';
export { resultCheck, type ResultCheck } from './server/checks/result-check';

export { serveHttp, type HttpServeOptions, type HttpServerHandle, type MountInfo } from './transport/http/http-server';
export { serveStdio, type StdioConnectionHandle, type StdioServeOptions } from './transport/stdio/stdio-server';
export { DEFAULT_SERVING_LIMITS, type ServingLimits } from './transport/serving-limits';
export { servingOptionsFromEnvironment, LIMIT_VARIABLES } from './app/serving-environment';
export type { Selection, SelectionText, CatalogMode } from './selection/selection';
export type { CatalogSlice } from './selection/catalog-slice';
export { CatalogSlices, SELECTION_HEADERS, SELECTION_QUERY } from './selection/catalog-slices';
export { formatCatalogSizes, listBudgetProblem, type CatalogSizes, type GroupSize, type ListSize } from './selection/list-sizes';
export { SEARCH_TOOLS, DESCRIBE_TOOLS, CALL_TOOL, type ToolEntry } from './selection/discovery-tools';
export { firstSentence } from './selection/search-text';
export type { AskedQuestion, CodeModeProvider, CodeModeRequest, ProgramQuestion } from './selection/code-mode-provider';
export { isCallSignal } from './server/request/call-signal';
export { runServer, startApp, banner, type RunServerOptions, type StdioCommand } from './app/run-server';

// Every module above has loaded, core's own decorated classes included: isolated stores keep them.
coreMetadata.markFrameworkClasses();
