import { knownMethod } from '../shared/http-method.js';
import type { Series } from './series.js';

type Child = ReturnType<Series['httpDuration']['labels']>;

/**
 * `http_server_request_duration_seconds`, fed by the adapters for every request. The method
 * is the client's: one outside the known set is `_OTHER`; the route is the adapter's (a path it
 * serves, else `_OTHER`); the status is the server's. So the label sets are few, and each one's
 * series child is made once and found again by one Map lookup.
 */
export function httpMetrics(
  series: Series,
): (method: string, route: string, statusCode: number, seconds: number) => void {
  const children = new Map<string, Child>();
  return (method, route, statusCode, seconds) => {
    const known = knownMethod(method);
    const key = `${known} ${statusCode} ${route}`;
    let child = children.get(key);
    if (!child) {
      child = series.httpDuration.labels(known, route, String(statusCode));
      children.set(key, child);
    }
    child.observe(seconds);
  };
}
