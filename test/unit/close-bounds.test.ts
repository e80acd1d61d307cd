/**
 * Closing an app is bounded even where Effect cannot interrupt: the server's shutdown closes the app in a
 * finalizer (uninterruptible), and an app whose close() never answers (a renderer blocked by a dialog or a
 * popped-up menu) must still be killed within the bound instead of hanging the shutdown.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { gracefulClose } from "../../src/layers/driver/process.js"
import type { AppSession } from "../../src/layers/driver/session.js"

describe("closing an app", () => {
  it.live("an app whose close() never answers is killed within the bound, even in an uninterruptible finalizer", () =>
    Effect.gen(function* () {
      const child = spawn("sleep", ["60"], { detached: true, stdio: "ignore" })
      const session = { electronApp: { close: () => new Promise<void>(() => undefined) }, child } as unknown as AppSession
      const started = Date.now()
      const graceful = yield* Effect.uninterruptible(gracefulClose(session, 500))
      expect(graceful).toBe(false)
      expect(Date.now() - started).toBeLessThan(5_000)
      expect(child.exitCode !== null || child.signalCode !== null).toBe(true)
    })
  )
})
