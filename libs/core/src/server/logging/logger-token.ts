import type { InjectionToken } from 'tsyringe';
import type { Logger } from './logger';

/** Inject the server's logger into a toolset: `constructor(@inject(LOGGER) logger: Logger)`. */
export const LOGGER: InjectionToken<Logger> = Symbol.for('@toolsets/core:Logger');
