/**
 * The window relay of an app attached through its main-process inspector alone (no remote debugging
 * port): a browser-level DevTools endpoint on 127.0.0.1 that playwright-core's `chromium.connectOverCDP`
 * drives as it drives Chromium's own, made of the app's `webContents.debugger`s (./relay-main.ts runs in
 * the main process). This is the shape of playwright-core's own extension relay (a tab's debugger behind
 * a browser endpoint): each webContents is announced as an attached page target with a session of ours,
 * its commands go to its debugger, its child sessions (frames, workers) keep Chromium's ids; browser-level
 * commands are answered here or sent through a page's debugger.
 *
 * The endpoint listens on 127.0.0.1 only, on a port the system picks, at a random path, accepts one
 * client (the session's playwright-core) and lives as long as the session: `close()` detaches every
 * debugger in the app and stops listening.
 */
import { randomBytes, randomUUID } from "node:crypto"
import type { AddressInfo } from "node:net"
import type { WebSocket, WebSocketServer } from "ws"
import type { InspectorClient } from "./inspector-client.js"
import { attachAll, browserVersion, closeTarget, installRelay, removeRelay, sendCommand, type RelayMainArg } from "./relay-main.js"
import { mainSource } from "./selectors.js"
import { dynamicImport } from "../../dynamic-import.js"

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped protocol JSON
type CdpValue = any

interface Command {
  readonly id: number
  readonly method: string
  readonly params?: CdpValue
  readonly sessionId?: string
}

interface Target {
  readonly id: number
  readonly sessionId: string
  readonly targetId: string
  readonly children: Set<string>
  /** Sessions playwright-core's newCDPSession opened on this target: they share its debugger and get its events. */
  readonly aliases: Set<string>
}

const BROWSER_TARGET = { targetId: "stagewright-relay-browser", type: "browser", title: "", url: "", attached: true, canAccessOpener: false }

export class MainRelay {
  private readonly arg: RelayMainArg
  private readonly path = `/devtools/browser/${randomUUID()}`
  private server: WebSocketServer | undefined
  private client: WebSocket | undefined
  private autoAttach = false
  /** The main process's `require('electron')` object, the receiver of the relay's calls. */
  private objectId: string | undefined
  /** Attached in the main process, by webContents id; announced once Playwright asked for targets. */
  private readonly attached = new Set<number>()
  private readonly targets = new Map<number, Target>()
  private readonly announcing = new Map<number, Promise<void>>()
  /** Sessions of Target.attachToBrowserTarget: they take browser-level commands. */
  private readonly browserSessions = new Set<string>()
  private nextSession = 1
  endpoint = ""

  private constructor(private readonly inspector: InspectorClient) {
    const tag = randomBytes(6).toString("hex")
    this.arg = { key: `__stagewright_relay_${tag}`, binding: `__stagewright_relay_post_${tag}` }
  }

  /** Installs the relay in the main process and opens the endpoint; `endpoint` is its ws:// URL. */
  static async start(inspector: InspectorClient): Promise<MainRelay> {
    const relay = new MainRelay(inspector)
    inspector.onEvent((method, params) => {
      if (method === "Runtime.bindingCalled" && params?.name === relay.arg.binding) relay.fromMain(params.payload)
    })
    await inspector.send("Runtime.addBinding", { name: relay.arg.binding })
    await inspector.evaluate(mainSource(installRelay), relay.arg)
    relay.objectId = await inspector.electron()
    const { WebSocketServer: Server } = await dynamicImport<typeof import("ws")>("ws")
    const server = new Server({ host: "127.0.0.1", port: 0, path: relay.path, maxPayload: 256 * 1024 * 1024 })
    relay.server = server
    await new Promise<void>((resolve, reject) => {
      server.once("listening", () => resolve())
      server.once("error", reject)
    })
    server.on("connection", (socket) => relay.connected(socket))
    // The app ended (or closed its inspector): its windows went with it, and playwright-core learns it from this end.
    void inspector.whenClosed.then(() => relay.client?.terminate())
    relay.endpoint = `ws://127.0.0.1:${(server.address() as AddressInfo).port}${relay.path}`
    return relay
  }

  /** The global the relay keeps its state under in the main process (what undoes it there: `close()`). */
  get mainKey(): string {
    return this.arg.key
  }

  /** Detaches every debugger in the app, removes the relay there and stops listening. */
  async close(): Promise<void> {
    this.autoAttach = false
    if (!this.inspector.closed) {
      await this.inspector.evaluate(mainSource(removeRelay), this.arg).catch(() => undefined)
      await this.inspector.send("Runtime.removeBinding", { name: this.arg.binding }).catch(() => undefined)
    }
    this.client?.terminate()
    const server = this.server
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  private connected(socket: WebSocket) {
    if (this.client) {
      socket.close(1008, "the relay serves one client")
      return
    }
    this.client = socket
    socket.on("message", (data) => {
      let command: Command
      try {
        command = JSON.parse(String(data)) as Command
      } catch {
        return
      }
      this.dispatch(command)
    })
  }

  private emit(message: Record<string, unknown>) {
    if (this.client?.readyState === 1) this.client.send(JSON.stringify(message))
  }

  private main<R>(fn: (...args: Array<never>) => unknown, arg: unknown): Promise<R> {
    return this.inspector.evaluate<R, unknown>(mainSource(fn), arg)
  }

  /** A message of the main-process half (through the binding). */
  private fromMain(payload: string) {
    let message: CdpValue
    try {
      message = JSON.parse(payload)
    } catch {
      return
    }
    const id = message.id as number
    if (message.kind === "attached") {
      this.attached.add(id)
      if (this.autoAttach) void this.announce(id).catch(() => undefined)
    } else if (message.kind === "detached") {
      this.attached.delete(id)
      const target = this.targets.get(id)
      this.targets.delete(id)
      if (target) this.emit({ method: "Target.detachedFromTarget", params: { sessionId: target.sessionId, targetId: target.targetId } })
    } else if (message.kind === "event") {
      const target = this.targets.get(id)
      if (!target) return
      const child = message.sessionId as string | undefined
      const params = message.params ?? {}
      if (message.method === "Target.attachedToTarget" && params.sessionId) target.children.add(params.sessionId)
      if (message.method === "Target.detachedFromTarget" && params.sessionId) target.children.delete(params.sessionId)
      this.emit({ sessionId: child ?? target.sessionId, method: message.method, params })
      if (child === undefined) for (const alias of target.aliases) this.emit({ sessionId: alias, method: message.method, params })
    }
  }

  /** Announces an attached webContents to playwright-core as an attached page target (once). */
  private announce(id: number): Promise<void> {
    const known = this.announcing.get(id)
    if (known) return known
    const done = (async () => {
      const { targetInfo } = await this.command(id, "Target.getTargetInfo", {})
      const target: Target = { id, sessionId: `stagewright-relay-${id}`, targetId: targetInfo.targetId, children: new Set(), aliases: new Set() }
      this.targets.set(id, target)
      this.emit({
        method: "Target.attachedToTarget",
        params: {
          sessionId: target.sessionId,
          targetInfo: { ...targetInfo, attached: true, browserContextId: targetInfo.browserContextId ?? "default" },
          waitingForDebugger: false
        }
      })
    })()
    this.announcing.set(id, done)
    return done
  }

  /** One command on a webContents' debugger (`sessionId`: one of its child sessions). */
  private async command(id: number, method: string, params: CdpValue, sessionId?: string): Promise<CdpValue> {
    const answer = await this.main<{ result?: CdpValue; error?: string }>(sendCommand, {
      key: this.arg.key,
      id,
      method,
      params: params ?? {},
      ...(sessionId ? { sessionId } : {})
    })
    if (answer?.error !== undefined) throw new Error(answer.error)
    return answer?.result ?? {}
  }

  /** Sends a page session's command to its debugger; its answer is sent on in the order the inspector's messages arrive. */
  private forward(command: Command, id: number, child: string | undefined) {
    const { objectId } = this
    const reply = (error: string | undefined, result?: CdpValue) =>
      this.emit(
        error === undefined
          ? { id: command.id, sessionId: command.sessionId, result: result ?? {} }
          : { id: command.id, sessionId: command.sessionId, error: { code: -32000, message: error } }
      )
    if (objectId === undefined) return reply("the relay is not started")
    this.inspector.sendOrdered(
      "Runtime.callFunctionOn",
      {
        objectId,
        functionDeclaration: mainSource(sendCommand),
        arguments: [
          { objectId },
          { value: { key: this.arg.key, id, method: command.method, params: command.params ?? {}, ...(child ? { sessionId: child } : {}) } }
        ],
        awaitPromise: true,
        returnByValue: true
      },
      (error, answer) => {
        if (error) return reply(error.message)
        if (answer?.exceptionDetails) return reply(answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text ?? "evaluation failed")
        const value = answer?.result?.value as { result?: CdpValue; error?: string } | undefined
        reply(value?.error, value?.result)
      }
    )
  }

  /** A command of playwright-core: a page session's goes to its debugger, a browser-level one is answered here. */
  private dispatch(command: Command) {
    const { sessionId } = command
    if (sessionId && !this.browserSessions.has(sessionId)) {
      for (const target of this.targets.values()) {
        if (target.sessionId === sessionId || target.aliases.has(sessionId)) return this.forward(command, target.id, undefined)
        if (target.children.has(sessionId)) return this.forward(command, target.id, sessionId)
      }
      return this.emit({ id: command.id, sessionId, error: { code: -32001, message: `No session with given id: ${sessionId}` } })
    }
    void this.handle(command).then(
      (result) => this.emit({ id: command.id, sessionId, result: result ?? {} }),
      (error: unknown) => this.emit({ id: command.id, sessionId, error: { code: -32000, message: error instanceof Error ? error.message : String(error) } })
    )
  }

  private async handle({ method, params }: Command): Promise<CdpValue> {
    switch (method) {
      case "Browser.getVersion":
        return { protocolVersion: "1.3", revision: "", ...(await this.main<object>(browserVersion, undefined)) }
      case "Target.setAutoAttach": {
        this.autoAttach = true
        const ids = await this.main<ReadonlyArray<number>>(attachAll, this.arg)
        for (const id of ids) this.attached.add(id)
        await Promise.all([...this.attached].map((id) => this.announce(id).catch(() => undefined)))
        return {}
      }
      case "Target.getTargetInfo":
        return { targetInfo: BROWSER_TARGET }
      case "Target.closeTarget":
        return { success: await this.main<boolean>(closeTarget, params?.targetId) }
      case "Target.attachToBrowserTarget": {
        const id = `stagewright-relay-browser-${this.nextSession++}`
        this.browserSessions.add(id)
        return { sessionId: id }
      }
      case "Target.attachToTarget": {
        // A second client of a target (playwright-core's newCDPSession): a session of ours on its one debugger.
        const target = [...this.targets.values()].find((t) => t.targetId === params?.targetId)
        if (!target) throw new Error(`No target with given id found: ${params?.targetId}`)
        const alias = `${target.sessionId}-${this.nextSession++}`
        target.aliases.add(alias)
        return { sessionId: alias }
      }
      case "Target.detachFromTarget": {
        for (const target of this.targets.values()) target.aliases.delete(params?.sessionId)
        this.browserSessions.delete(params?.sessionId)
        return {}
      }
      case "Target.createTarget":
        throw new Error("An app attached through its main process opens its own windows: Target.createTarget is not available")
      case "Browser.close":
      case "Browser.setDownloadBehavior":
      case "Target.setDiscoverTargets":
        return {}
      default: {
        // A browser-level command goes through any page's debugger (as playwright-core's extension relay does).
        const first = this.targets.values().next().value
        if (!first) throw new Error(`${method}: no window of the app is attached`)
        return this.command(first.id, method, params)
      }
    }
  }
}
