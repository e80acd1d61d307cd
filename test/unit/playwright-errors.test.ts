/** playwright-core rejections become the error an agent can act on, and never hide that an action ran. */
import { describe, expect, it } from "@effect/vitest"
import { fromPlaywright } from "../../src/layers/driver/playwright-errors.js"

const timeout = (log: ReadonlyArray<string>) =>
  Object.assign(new Error(["locator.check: Timeout 5000ms exceeded.", "Call log:", ...log].join("\n")), { name: "TimeoutError" })

describe("fromPlaywright", () => {
  it("says an action was performed when its element was replaced before Playwright could confirm it", () => {
    const error = fromPlaywright(
      timeout(["  - waiting for locator('aria-ref=e1')", "  - performing click action", "  - click action done", "  - navigations have finished"]),
      "check e1"
    )
    expect(error._tag).toBe("OperationFailed")
    expect(error.message).toBe(
      "check e1: the action was performed, then the element was replaced (the page re-rendered it) before its result could be confirmed"
    )
    expect(error.hint).toContain("may have taken effect")
  })

  it("says an action that started but was cut by the time may have partly taken effect (never REF_STALE: a repeat would type twice)", () => {
    const typing = fromPlaywright(timeout(["  - waiting for locator('aria-ref=e4')", '  - elementHandle.type("Order printer toner")']), "type into e4")
    expect(typing._tag).toBe("OperationFailed")
    expect(typing.message).toBe("type into e4: the action started but did not finish in time; it may have partly taken effect")
    expect(typing.details).toMatchObject({ performed: true })
    const pressing = fromPlaywright(timeout(["  - waiting for locator('aria-ref=e2')", "  - performing click action"]), "click e2")
    expect(pressing._tag).toBe("OperationFailed")
    // A drag whose source step is done and whose target is still awaited is a wait: the target is what is missing.
    const dragging = fromPlaywright(
      timeout([
        "  - waiting for locator('#source')",
        "  - performing move and down action",
        "  - move and down action done",
        "  - waiting for locator('#nothing')"
      ]),
      "drag #source to #nothing"
    )
    expect(dragging._tag).toBe("ElementNotFound")
  })

  it("keeps REF_STALE for a ref that never resolved, and ELEMENT_NOT_FOUND for a selector that matched nothing", () => {
    expect(fromPlaywright(timeout(["  - waiting for locator('aria-ref=e9')"]), "click e9")._tag).toBe("RefStale")
    expect(fromPlaywright(timeout(["  - waiting for locator('#nothing')"]), "click #nothing")._tag).toBe("ElementNotFound")
  })
  it("says what intercepts the pointer, or which state the element is not in: whichever the log says first", () => {
    const overlay = '<div class="overlay">Saving…</div> intercepts pointer events'
    const intercepted = fromPlaywright(
      timeout(["  - waiting for locator('#save')", "  - element is visible, enabled and stable", `    - ${overlay}`]),
      "click e2"
    )
    expect(intercepted._tag).toBe("NotInteractable")
    expect(intercepted.message).toBe(`click e2: - ${overlay}`)
    const hidden = fromPlaywright(timeout(["  - element is not visible", `    - ${overlay}`]), "click e2")
    expect(hidden.message).toBe("click e2: element is not visible")
    // A log line of 200,000 characters before it: read by lines, at once.
    const long = fromPlaywright(timeout([`  - ${"x".repeat(200_000)}`, `    - ${overlay}`]), "click e2")
    expect(long.message).toBe(`click e2: - ${overlay}`)
  })
})
