/**
 * The main-process half of the window relay (./main-relay.ts): code sent through the Node inspector of an
 * app attached without a debug port. It attaches Electron's `webContents.debugger` (a DevTools client of
 * its own per webContents) to every window, view and guest, now and later (`web-contents-created`), sends
 * each debugger event to the server through a binding the server added with `Runtime.addBinding`, and
 * runs the server's CDP commands with `debugger.sendCommand`. `close()` detaches every debugger and
 * removes its listeners: the app is left as it was, except for what the agent did.
 */
import type { ElectronModule, MainValue } from "./shape.js"

export interface RelayMainArg {
  /** The global the relay keeps its state under. */
  readonly key: string
  /** The binding (a global function) the server added: each call is a `Runtime.bindingCalled` event. */
  readonly binding: string
}

/** Installs the relay in the main process (once per key) and attaches to the webContents there are. */
export const installRelay = (electron: ElectronModule, { key, binding }: RelayMainArg): number => {
  const g = globalThis as MainValue
  if (g[key]) return g[key].attached.size
  const post = (message: unknown) => {
    try {
      g[binding](JSON.stringify(message))
    } catch {
      // the server's binding is gone (its connection closed): nothing to tell
    }
  }
  const KINDS = new Set(["window", "browserView", "webview"])
  const attached = new Map<number, { wc: MainValue; onMessage: MainValue; onDetach: MainValue }>()
  const release = (id: number) => {
    const entry = attached.get(id)
    if (!entry) return
    attached.delete(id)
    entry.wc.debugger.off("message", entry.onMessage)
    entry.wc.debugger.off("detach", entry.onDetach)
  }
  const attach = (wc: MainValue) => {
    if (attached.has(wc.id) || wc.isDestroyed() || !KINDS.has(wc.getType())) return
    try {
      wc.debugger.attach("1.3")
    } catch (error: any) {
      // any: whatever the app threw, in code serialized into its main process (Biome refuses an alias here)
      post({ kind: "refused", id: wc.id, message: String(error?.message ?? error) })
      return
    }
    const id = wc.id
    const onMessage = (_event: unknown, method: string, params: unknown, sessionId?: string) =>
      post({ kind: "event", id, method, params, sessionId: sessionId || undefined })
    const onDetach = (_event: unknown, reason: string) => {
      release(id)
      post({ kind: "detached", id, reason })
    }
    wc.debugger.on("message", onMessage)
    wc.debugger.on("detach", onDetach)
    attached.set(id, { wc, onMessage, onDetach })
    post({ kind: "attached", id })
  }
  const onCreated = (_event: unknown, wc: MainValue) => attach(wc)
  g[key] = {
    attached,
    attachAll: () => {
      for (const wc of electron.webContents.getAllWebContents()) attach(wc)
      return [...attached.keys()]
    },
    watch: () => electron.app.on("web-contents-created", onCreated),
    send: async (id: number, method: string, params: unknown, sessionId?: string) => {
      const entry = attached.get(id)
      if (!entry) return { error: `webContents ${id} is not attached` }
      try {
        return { result: await entry.wc.debugger.sendCommand(method, params, sessionId) }
      } catch (error: any) {
        // any: whatever the app threw (as above)
        return { error: String(error?.message ?? error) }
      }
    },
    close: () => {
      electron.app.off("web-contents-created", onCreated)
      for (const [id, entry] of [...attached]) {
        release(id)
        try {
          if (!entry.wc.isDestroyed()) entry.wc.debugger.detach()
        } catch {
          // already detached
        }
      }
      delete g[key]
    }
  }
  return 0
}

/** Attaches to every webContents there is and starts following new ones; answers the attached ids. */
export const attachAll = (_electron: ElectronModule, { key }: RelayMainArg): ReadonlyArray<number> => {
  const relay = (globalThis as MainValue)[key]
  relay.watch()
  return relay.attachAll()
}

/** One CDP command on a webContents' debugger: `{ result }` or `{ error }` (the protocol's message). */
export const sendCommand = (
  _electron: ElectronModule,
  arg: { key: string; id: number; method: string; params: unknown; sessionId?: string }
): Promise<unknown> => (globalThis as MainValue)[arg.key].send(arg.id, arg.method, arg.params, arg.sessionId)

/** The browser facts playwright-core asks for first (Browser.getVersion), from the main process. */
export const browserVersion = (electron: ElectronModule): { product: string; userAgent: string; jsVersion: string } => ({
  product: `Chrome/${process.versions.chrome ?? "0"}`,
  userAgent: (electron.app as MainValue).userAgentFallback ?? "",
  jsVersion: process.versions.v8 ?? ""
})

/** Closes the target of a DevTools target id (`webContents.close()`, as Playwright's page.close does on Electron). */
export const closeTarget = (electron: ElectronModule, targetId: string): boolean => {
  const wc = (electron.webContents as MainValue).fromDevToolsTargetId(targetId)
  if (!wc) return false
  wc.close()
  return true
}

/** Detaches every debugger and removes the relay. */
export const removeRelay = (_electron: ElectronModule, { key }: RelayMainArg): void => {
  ;(globalThis as MainValue)[key]?.close()
}
