import type { HeaderSource, ProtocolEra, TransportKind } from '../../context/request-context';
import type { CatalogSlice } from '../../selection/catalog-slice';
import type { CatalogSlices } from '../../selection/catalog-slices';
import type { ArgumentLimits } from '../checks/argument-limits';

/** What the handlers of one SDK `Server` instance know about where its requests come from. */
export interface CallSite {
  transport?: TransportKind;
  era?: ProtocolEra;
  /** Headers of a long-lived connection; HTTP requests bring their own. */
  headers: HeaderSource;
  environment?: Readonly<Record<string, string | undefined>>;
  limits: Readonly<ArgumentLimits>;
  /**
   * The view this server instance serves (its connection's selection, or the one its first HTTP
   * request made) and the views it is drawn from; absent where a task's call runs, its tool chosen
   * when the task was made.
   */
  served?: { readonly views: CatalogSlices; readonly view: CatalogSlice };
}

/** The site of a server instance that serves a view: its requests' handlers. */
export type ServingSite = CallSite & Required<Pick<CallSite, 'served'>>;
