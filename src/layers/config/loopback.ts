/**
 * Which host names stay on this machine: `localhost`, IPv6 `::1` (bare or bracketed, as a URL's hostname has it)
 * and a dotted IPv4 address in 127.0.0.0/8. Anything else, a name that merely starts with "127." included, may
 * reach other machines. One rule for the HTTP transport's bind address, an attached app's inspector and the
 * main lane's address.
 */
export const isLoopbackHost = (host: string): boolean =>
  host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
