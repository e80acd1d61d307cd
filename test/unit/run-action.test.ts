/**
 * The driver's runAction over a fake run: a click whose events were taken before the time ran out ("click
 * action done") is the action done, while a check cut after its click (its state never confirmed) and an
 * action cut while under way stay failures that say the action may have taken effect.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { makeRunAction } from "../../src/layers/driver/actions.js"
import { fromPlaywright } from "../../src/layers/driver/playwright-errors.js"

const timeoutOf = (api: string, log: ReadonlyArray<string>) =>
  Object.assign(new Error([`${api}: Timeout 1000ms exceeded.`, "Call log:", ...log].join("\n")), { name: "TimeoutError" })

const run = <A>(what: string, f: () => Promise<A>) => Effect.tryPromise({ try: f, catch: (error) => fromPlaywright(error, what) })
const runAction = makeRunAction(run, (what, f) => Effect.as(run(what, f), undefined))

const attempt = (error: Error) =>
  Effect.runPromiseExit(
    runAction({ what: "click e3", timeoutMs: 5_000, perform: () => Promise.reject(error), ready: () => Promise.resolve(undefined), tryFirst: true })
  )

describe("runAction", () => {
  it("a click cut only in Playwright's wait after it (its events were taken) answers done", async () => {
    const done = await attempt(
      timeoutOf("locator.click", ["  - performing click action", "  - click action done", "  - waiting for scheduled navigations to finish"])
    )
    expect(Exit.isSuccess(done)).toBe(true)
  })

  it("a check cut after its click, and a click cut while under way, fail saying the action was performed", async () => {
    const check = await attempt(timeoutOf("locator.check", ["  - performing click action", "  - click action done", "  - navigations have finished"]))
    expect(Exit.isFailure(check) && JSON.stringify(check.cause)).toContain("the element was replaced")
    const midway = await attempt(timeoutOf("locator.click", ["  - waiting for locator('aria-ref=e3')", "  - performing click action"]))
    expect(Exit.isFailure(midway) && JSON.stringify(midway.cause)).toContain("may have partly taken effect")
  })
})
