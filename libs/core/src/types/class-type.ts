/** A class whose instances are `T`; abstract classes included, so `ToolResult` itself qualifies. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ClassType<T = unknown> = abstract new (...args: any[]) => T;

/** A class the framework can instantiate (argument DTOs, toolsets). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ConcreteClass<T = unknown> = new (...args: any[]) => T;
