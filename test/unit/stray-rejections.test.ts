/**
 * The served process's listener for stray rejections outlives serve's scope: a launch cut short by the
 * shutdown leaves playwright-core's rejection for after the scope has closed, and without the listener
 * Node 20 would end a clean shutdown with exit code 1 (seen in test/e2e/pending-launch.test.ts under load).
 */
import { afterAll, describe, expect, it, vi } from "@effect/vitest"
import { Effect, Logger } from "effect"
import { keepServingOnStrayRejections } from "../../src/cli/stray-rejections.js"

const logged: Array<string> = []
const recording = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ message }) => logged.push(String(Array.isArray(message) ? message.join(" ") : message)))
)
let listener: ((reason: unknown) => void) | undefined

afterAll(() => {
  if (listener !== undefined) process.off("unhandledRejection", listener)
})

describe("keepServingOnStrayRejections", () => {
  it("stays installed after serve's scope closes, once per process, and logs what it ignores", async () => {
    const before = process.listenerCount("unhandledRejection")
    listener = await Effect.runPromise(Effect.scoped(keepServingOnStrayRejections).pipe(Effect.provide(recording)))
    expect(process.listeners("unhandledRejection")).toContain(listener)
    expect(process.listenerCount("unhandledRejection")).toBe(before + 1)

    const again = await Effect.runPromise(Effect.scoped(keepServingOnStrayRejections))
    expect(again).toBe(listener)
    expect(process.listenerCount("unhandledRejection")).toBe(before + 1)

    listener(new Error("Process failed to launch!"))
    await vi.waitFor(() => expect(logged).toContain("an unhandled promise rejection was ignored (the server keeps serving)"))
  })
})
