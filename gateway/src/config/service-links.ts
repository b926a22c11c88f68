/**
 * Kubernetes injects `<SERVICE>_PORT=tcp://10.0.0.9:4090`, `<SERVICE>_SERVICE_HOST=10.0.0.9`,
 * `<SERVICE>_PORT_<n>_TCP…` for every Service in the namespace (unless the pod sets
 * `enableServiceLinks: false`), so a Service named `metrics` sets METRICS_PORT. Such a value
 * in a setting is the cluster's, not the operator's: it is ignored with a warning.
 */
const SERVICE_LINK_VALUE = /^(tcp|udp|sctp):\/\/[^\s/]+:\d+$/i;
const SERVICE_LINK_NAME = /_(SERVICE_HOST|SERVICE_PORT(_[A-Z0-9_]+)?|PORT(_\d+_(TCP|UDP|SCTP)(_(PROTO|PORT|ADDR))?)?)$/;

/** Whether `name=value` is a service link Kubernetes set, not a setting someone chose. */
export function isServiceLink(name: string, value: string): boolean {
  return SERVICE_LINK_NAME.test(name) && (SERVICE_LINK_VALUE.test(value) || !name.endsWith('_PORT'));
}

/** Whether `name` has the shape of a service-link variable (never a typo of one of ours). */
export function hasServiceLinkName(name: string): boolean {
  return SERVICE_LINK_NAME.test(name);
}

export function serviceLinkWarning(name: string, value: string): string {
  const service = name.replace(SERVICE_LINK_NAME, '').toLowerCase().replaceAll('_', '-');
  return (
    `${name}=${value} is what Kubernetes sets for a Service named "${service}", not a value for this setting: ` +
    'ignored (set enableServiceLinks: false on the pod)'
  );
}
