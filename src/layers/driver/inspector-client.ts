/**
 * A minimal Chrome DevTools Protocol client over WebSocket for the Node inspector of an Electron main
 * process that Stagewright attached to (launched apps use playwright-core's own connection). It runs
 * functions against `require('electron')` the way electronApplication.evaluate does, and lets go when the
 * main process ends: Node holds an ending process for its inspector's WebSocket clients.
 */
import type WebSocket from "ws"
import { dynamicImport } from "../../dynamic-import.js"

/** A message of the DevTools protocol: JSON whose shape depends on the method (no protocol types here). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped protocol JSON
type CdpValue = any

interface Pending {
  readonly resolve: (value: CdpValue) => void
  readonly reject: (error: Error) => void
}

export class InspectorClient {
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private electronObjectId: string | undefined
  private readonly listeners = new Set<(method: string, params: CdpValue) => void>()
  closed = false
  /** The main process said it is ending (it exited or signalled itself); the client let go of it. */
  ending = false
  /** Settles when the connection closed, from either end (the app closing its inspector closes it too). */
  readonly whenClosed: Promise<void>
  private markClosed: () => void = () => undefined

  private constructor(private readonly socket: WebSocket) {
    this.whenClosed = new Promise<void>((resolve) => (this.markClosed = resolve))
    socket.on("message", (data) => {
      const message = JSON.parse(String(data))
      if (typeof message.id === "number") {
        const waiter = this.pending.get(message.id)
        this.pending.delete(message.id)
        if (!waiter) return
        if (message.error) waiter.reject(new Error(message.error.message ?? "inspector error"))
        else waiter.resolve(message.result)
      } else if (typeof message.method === "string") {
        // The main process is ending (it exited, or signalled itself) and waits for its WebSocket clients to go.
        if (message.method === "NodeRuntime.waitingForDisconnect") {
          this.ending = true
          this.shutdown()
        }
        for (const listener of this.listeners) listener(message.method, message.params)
      }
    })
    socket.on("close", () => {
      this.closed = true
      for (const waiter of this.pending.values()) waiter.reject(new Error("The Node inspector connection closed"))
      this.pending.clear()
      this.markClosed()
    })
  }

  /**
   * Connects to `ws://host:port/id`, or to `http://host:port` / a bare port by asking /json/list. With `events:
   * false` the Runtime domain is not enabled: the client only calls (the app's console and contexts are not sent).
   */
  static async connect(endpoint: string, timeoutMs: number, options?: { readonly events?: boolean }): Promise<InspectorClient> {
    const url = await resolveInspectorUrl(endpoint, timeoutMs)
    // ws loads at the first attach with an inspector, never when the server starts.
    const { default: WebSocketClass } = await dynamicImport<typeof import("ws")>("ws")
    const socket = new WebSocketClass(url, { handshakeTimeout: timeoutMs })
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve())
      socket.once("error", reject)
    })
    const client = new InspectorClient(socket)
    if (options?.events !== false) await client.send("Runtime.enable")
    // Node keeps a process that ends until every WebSocket client has disconnected ("Waiting for the debugger to
    // disconnect"): asked to be told, the client closes then (above), and the app ends as it would without us.
    await client.send("NodeRuntime.notifyWhenWaitingForDisconnect", { enabled: true }).catch(() => undefined)
    return client
  }

  onEvent(listener: (method: string, params: CdpValue) => void): void {
    this.listeners.add(listener)
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<CdpValue> {
    if (this.closed) return Promise.reject(new Error("The Node inspector connection closed"))
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.socket.send(JSON.stringify({ id, method, params }))
    })
  }

  /**
   * Sends a command; `done` runs synchronously when its answer arrives, so answers and events reach
   * their listeners in the order the inspector sent them (a promise's continuation would run later than an
   * event that arrived in the same read).
   */
  sendOrdered(method: string, params: Record<string, unknown>, done: (error: Error | undefined, result: CdpValue) => void): void {
    if (this.closed) return done(new Error("The Node inspector connection closed"), undefined)
    const id = this.nextId++
    this.pending.set(id, { resolve: (value) => done(undefined, value), reject: (error) => done(error, undefined) })
    this.socket.send(JSON.stringify({ id, method, params }))
  }

  /** The remote object id of the main process's `require('electron')` (what evaluate's functions receive). */
  async electron(): Promise<string> {
    if (this.electronObjectId) return this.electronObjectId
    const { result, exceptionDetails } = await this.send("Runtime.evaluate", {
      expression: "require('electron')",
      includeCommandLineAPI: true
    })
    if (exceptionDetails || !result?.objectId) throw new Error("require('electron') failed in the attached main process")
    this.electronObjectId = result.objectId as string
    return this.electronObjectId
  }

  /** Runs `fn(electron, arg)` in the main process and returns its JSON value. */
  async evaluate<R, A>(fn: string | ((electron: CdpValue, arg: A) => R | Promise<R>), arg?: A): Promise<R> {
    const objectId = await this.electron()
    const { result, exceptionDetails } = await this.send("Runtime.callFunctionOn", {
      objectId,
      functionDeclaration: typeof fn === "string" ? fn : fn.toString(),
      arguments: [{ objectId }, { value: arg }],
      awaitPromise: true,
      returnByValue: true
    })
    if (exceptionDetails) {
      throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text ?? "evaluation failed")
    }
    return result?.value as R
  }

  /**
   * Set by an attach whose scope releases the connection itself (./attach-main.ts: what it opened in the app
   * is undone there first, and the inspector closed); `close()` then leaves the connection to that release.
   */
  releasedByScope = false

  close(): void {
    if (this.releasedByScope) return
    this.shutdown()
  }

  /** Closes the connection, whoever owns it. */
  shutdown(): void {
    this.closed = true
    this.socket.close()
  }
}

const resolveInspectorUrl = async (endpoint: string, timeoutMs: number): Promise<string> => {
  if (endpoint.startsWith("ws://") || endpoint.startsWith("wss://")) return endpoint
  const base = /^\d+$/.test(endpoint) ? `http://127.0.0.1:${endpoint}` : endpoint.replace(/\/$/, "")
  const response = await fetch(`${base}/json/list`, { signal: AbortSignal.timeout(timeoutMs) })
  const targets = (await response.json()) as Array<{ webSocketDebuggerUrl?: string }>
  const url = targets.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl
  if (!url) throw new Error(`No Node inspector target at ${base}`)
  return url
}
