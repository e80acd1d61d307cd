/**
 * A cancelled call stops driving the app: after the fiber running electron_wait_for, an electron_expect_*
 * poll, electron_wait_for_window or an electron_click still waiting for its element is interrupted (an MCP
 * cancellation, the operation timeout), no further playwright-core call is made, and none is left running
 * in the page (a Playwright wait is cut in slices of at most a second; an action waits with a trial of
 * itself, so none lands later). Every method of the window's Page and of its Locators is counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, ManagedRuntime } from "effect"
import { Windows } from "../../src/layers/driver/ElectronDriver.js"
import { Dispatcher, coreLayer } from "../../src/index.js"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData } from "../support/mcp.js"

const runtime = ManagedRuntime.make(coreLayer({ toolProfile: "full", operationTimeoutMs: 60_000 }) as Layer.Layer<Dispatcher | Windows, unknown>)
const run = <A, E>(effect: Effect.Effect<A, E, Dispatcher | Windows>) => runtime.runPromise(effect)
const call = (name: string, args: Record<string, unknown>) => Effect.flatMap(Dispatcher, (d) => d.call(name, args))

let calls = 0
/** Calls whose promise has not settled: a Playwright wait still running in the page. */
let pending = 0
const restore: Array<() => void> = []

/** Counts every call of the prototype's methods (playwright-core's client API for pages and locators). */
const countCalls = (prototype: object) => {
  for (const key of Object.getOwnPropertyNames(prototype)) {
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key)
    if (key === "constructor" || !descriptor || typeof descriptor.value !== "function") continue
    const original = descriptor.value as (...args: Array<unknown>) => unknown
    Object.defineProperty(prototype, key, {
      ...descriptor,
      value: function (this: unknown, ...args: Array<unknown>) {
        calls++
        const result = original.apply(this, args)
        if (result instanceof Promise) {
          pending++
          result.then(
            () => pending--,
            () => pending--
          )
        }
        return result
      }
    })
    restore.push(() => Object.defineProperty(prototype, key, descriptor))
  }
}

/** Starts the call, lets it drive the app for a while, interrupts it, and counts the calls made afterwards. */
const callsAfterCancel = (name: string, args: Record<string, unknown>) =>
  run(
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(call(name, args))
      yield* Effect.sleep("1500 millis")
      const before = calls
      expect(before, "the call drove the app before it was cancelled").toBeGreaterThan(0)
      const exit = yield* Fiber.interrupt(fiber)
      expect(Exit.isInterrupted(exit)).toBe(true)
      const atCancel = calls
      yield* Effect.sleep("2500 millis")
      return { further: calls - atCancel, stillRunning: pending }
    })
  )

beforeAll(async () => {
  const launched = await run(call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } }))
  expect(launched.isError, JSON.stringify(launched.content)).toBeUndefined()
  const page = await run(Effect.flatMap(Windows, (windows) => Effect.map(windows.window(), (w) => w.page)))
  countCalls(Object.getPrototypeOf(page))
  countCalls(Object.getPrototypeOf(page.locator("body")))
})

afterAll(async () => {
  for (const undo of restore) undo()
  await runtime.dispose()
})

describe("cancellation", () => {
  it("a cancelled electron_wait_for makes no further Playwright call", async () => {
    calls = 0
    pending = 0
    expect(await callsAfterCancel("electron_wait_for", { text: "a text this app never shows", timeoutMs: 30_000 })).toEqual({ further: 0, stillRunning: 0 })
  })

  it("a cancelled electron_expect_text poll makes no further Playwright call", async () => {
    calls = 0
    pending = 0
    expect(await callsAfterCancel("electron_expect_text", { target: "testid=board-name", text: "never this name", timeoutMs: 30_000 })).toEqual({
      further: 0,
      stillRunning: 0
    })
  })

  it("a cancelled electron_click on an element that appears only later makes no further Playwright call, and never clicks it", async () => {
    const page = await run(Effect.flatMap(Windows, (windows) => Effect.map(windows.window(), (w) => w.page)))
    // The button appears 3 s from now: after the click (timeoutMs 30 s) is cancelled at 1.5 s, and before the
    // counting ends at 4 s, so a Playwright click left waiting would have clicked it by then.
    await page.evaluate(() => {
      setTimeout(() => {
        const button = document.createElement("button")
        button.dataset["testid"] = "late-click"
        button.textContent = "Late"
        button.addEventListener("click", () => ((window as unknown as { lateClicked: boolean }).lateClicked = true))
        document.body.append(button)
      }, 3_000)
    })
    calls = 0
    pending = 0
    expect(await callsAfterCancel("electron_click", { target: "testid=late-click", timeoutMs: 30_000 })).toEqual({ further: 0, stillRunning: 0 })
    // The button is there now, and nothing clicked it.
    await page.locator("[data-testid=late-click]").waitFor({ state: "attached", timeout: 10_000 })
    expect(await page.evaluate(() => (window as unknown as { lateClicked?: boolean }).lateClicked === true)).toBe(false)
  })

  it("a cancelled electron_wait_for_window makes no further Playwright call", async () => {
    calls = 0
    pending = 0
    expect(await callsAfterCancel("electron_wait_for_window", { title: "a window that never opens", timeoutMs: 30_000 })).toEqual({
      further: 0,
      stillRunning: 0
    })
  })
})
