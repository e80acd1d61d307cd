/**
 * What the perf tools share: the process to measure ("main" or a window id), a DevTools protocol
 * session on a window's page (detached however the call ends), and Node built-ins in the main process.
 */
import { Effect, Schema } from "effect"
import type { CDPSession } from "playwright-core"
import { type Surface } from "../../layers/driver/ElectronDriver.js"
import { callHandle } from "../../tools/contract/handle.js"
export { pageFunction } from "../../layers/driver/ElectronDriver.js"

export const ProcessTarget = Schema.String.pipe(Schema.pattern(/^(main|w\d+)$/)).annotations({
  description: "main (the main process) or a window id (w1); default the active window"
})

export type Measured = { readonly kind: "main" } | { readonly kind: "window"; readonly entry: Surface }

/** Resolves "main", a window id or the active window. */
export const resolveTarget = (target: string | undefined) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    if (target === "main") {
      yield* call.session
      return { kind: "main" } as Measured
    }
    return { kind: "window", entry: yield* call.surface(target) } as Measured
  })

export const targetName = (m: Measured) => (m.kind === "main" ? "main" : m.entry.id)

/**
 * A DevTools protocol session on the window's page for the scope of the effect: for a session that must
 * last across Effect waits (a profile started, an Effect sleep, then stopped on the same session). One
 * exchange that fits in a Promise uses `call.cdp` instead.
 */
export const cdpSession = (entry: Surface) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    return yield* Effect.acquireRelease(
      Effect.flatMap(call.session, (s) => call.run("open a DevTools session", () => s.context.newCDPSession(entry.page))),
      (cdp: CDPSession) => Effect.promise(() => cdp.detach().catch(() => undefined))
    )
  })

/** Sends a DevTools protocol command, typed by the caller. */
export const send = <R>(cdp: CDPSession, method: string, params?: Record<string, unknown>) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    // playwright-core types `send` by the protocol's method names; ours are chosen at run time.
    return yield* call.run(method, () => cdp.send(method as "Runtime.evaluate", params as never) as unknown as Promise<R>)
  })

/**
 * Source prelude for main-process functions: `load(name)` returns a Node built-in whether the app's main
 * is CommonJS or an ES module (process.getBuiltinModule, Node >= 20.16, else the main module's require).
 */
export const LOAD_BUILTIN = `const load = (n) => (process.getBuiltinModule ? process.getBuiltinModule(n) : process.mainModule.require(n));`

export const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString("en-US")} KB`
