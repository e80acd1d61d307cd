/**
 * What an HTTP session is bound to, and when it counts as idle (the parts of a session the Streamable
 * HTTP transport in ./HttpServer.ts keeps beside the SDK's transport).
 */
import { Duration, Effect, Redacted, Stream, SubscriptionRef } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"
import type { IncomingMessage } from "node:http"

/** The bounds of the HTTP transport when its options leave them out. */
export const httpDefaults = {
  /** Sessions open at once (each owns a service graph and possibly an app). */
  maxSessions: 16,
  /** A session with no request in flight and no open SSE stream for this long is closed, as a DELETE would. */
  sessionIdleTimeoutMs: 10 * 60_000,
  /** TCP connections open at once; Node drops a connection over the cap as soon as it is accepted. */
  maxConnections: 128
} as const

export const digest = (value: string) => createHash("sha256").update(value).digest()

/** The token of `Authorization: Bearer <token>`, or "" when the header is absent or another scheme. */
export const presentedBearer = (header: string | undefined): string => /^Bearer (.+)$/i.exec(header ?? "")?.[1] ?? ""

/** The client's address, with IPv4-mapped IPv6 (`::ffff:1.2.3.4`, a dual-stack listener) as plain IPv4. */
const clientAddress = (req: IncomingMessage): string => (req.socket.remoteAddress ?? "").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "")

/**
 * The binding of a session to the client that created it: a SHA-256 of the credential it presented
 * (the bearer token, when the server requires one), of its network address (the remote IP, not the
 * port, which changes with every connection) and, on loopback, of the local process at the other end
 * (./http-peer.ts: uid, pid and start time, the same for every connection a client opens). Every later
 * request naming the session (POST, GET of the SSE stream, DELETE) must produce the same fingerprint, or
 * it is answered exactly as an unknown session (404). So a leaked session id is useless to another client:
 * another credential, the same token from another address, or the same token from the same host in
 * another process. Without a token the binding is the address and process. Two clients behind the same
 * proxy or NAT (a remote address, no process to tell them apart) share a binding, so there the random id
 * is all that separates them; a client whose address changes mid-session gets 404 and, as the MCP
 * specification asks, initializes a new session.
 */
export const sessionBinding = (req: IncomingMessage, authToken: Redacted.Redacted<string> | undefined, peer: string): Buffer =>
  digest(`stagewright-session-binding\0${authToken === undefined ? "" : presentedBearer(req.headers.authorization)}\0${clientAddress(req)}\0${peer}`)

/** Compares two bindings in constant time (both are SHA-256 digests, so lengths never differ). */
export const sameClient = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b)

/**
 * Completes once `open` (the session's HTTP responses in flight: POSTs being answered, the GET SSE
 * stream) has stayed at zero for `idle`. Any change restarts the wait: the sleep of the previous value
 * is interrupted (switch), so a request in flight or an open stream keeps a session alive however long.
 */
export const idleFor = (open: SubscriptionRef.SubscriptionRef<number>, idle: Duration.DurationInput): Effect.Effect<void> =>
  open.changes.pipe(
    Stream.flatMap((n) => (n === 0 ? Stream.fromEffect(Effect.sleep(idle)) : Stream.empty), { switch: true }),
    Stream.runHead,
    Effect.asVoid
  )
