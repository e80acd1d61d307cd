/**
 * The a11y plugin end to end over MCP on the `a11y` sample app (three planted issues: an unlabeled
 * input, a low-contrast paragraph, a focus trap) and on the `hardened` app (strict CSP).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { join } from "node:path"
import { sampleAppPath } from "../../src/samples.js"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

export const a11yApp = join(packageRoot(), "test", "fixtures", "apps", "a11y")
let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient({ plugins: ["a11y"] })
  const launched = await mcp.call("electron_launch", { app: a11yApp, env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  const ready = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })
  expect(ready.isError, ready.text).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("a11y plugin", () => {
  it("electron_a11y_audit finds exactly the planted issues, with refs that work", async () => {
    const audit = await mcp.call("electron_a11y_audit")
    expect(audit.isError, audit.text).toBe(false)
    const rules = audit.structured.violations.map((v: any) => v.rule).sort()
    expect(rules).toEqual(["color-contrast", "label"])
    const label = audit.structured.violations.find((v: any) => v.rule === "label")
    expect(label.nodes).toHaveLength(1)
    expect(label.nodes[0]).toMatchObject({ role: "textbox", selector: "#nameless" })
    expect(label.nodes[0].ref).toMatch(/^e\d+$/)
    expect(audit.text).toContain("fix: give the field a <label for>")
    const contrast = audit.structured.violations.find((v: any) => v.rule === "color-contrast")
    expect(contrast.nodes).toMatchObject([{ role: "paragraph", selector: ".faint" }])
    // The ref is usable by core tools.
    const filled = await mcp.call("electron_fill", { target: label.nodes[0].ref, value: "typed" })
    expect(filled.isError, filled.text).toBe(false)
  })

  it("electron_a11y_audit takes rules, an impact threshold, a target and a raw file; bad input is INVALID_ARGUMENT", async () => {
    const onlyLabel = await mcp.call("electron_a11y_audit", { rules: ["label"] })
    expect(onlyLabel.structured.violations.map((v: any) => v.rule)).toEqual(["label"])
    const critical = await mcp.call("electron_a11y_audit", { impact: "critical" })
    expect(critical.structured.violations.map((v: any) => v.rule)).toEqual(["label"])
    const scoped = await mcp.call("electron_a11y_audit", { target: "css=.trap" })
    expect(scoped.isError, scoped.text).toBe(false)
    expect(scoped.structured.violations).toEqual([])
    const raw = await mcp.call("electron_a11y_audit", { rules: ["label"], raw: true })
    expect(raw.structured.rawFile).toMatch(/a11y-audit-w1-.*\.json$/)
    const unknownRule = await mcp.call("electron_a11y_audit", { rules: ["no-such-rule"] })
    expect(unknownRule.code).toBe("OPERATION_FAILED")
    expect(unknownRule.text).toContain("no-such-rule")
    const bad = await mcp.call("electron_a11y_audit", { impact: "huge" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
    expect(bad.text).toContain("impact")
  })

  it("electron_a11y_tab_order lists the stops and reports the focus trap", async () => {
    const order = await mcp.call("electron_a11y_tab_order")
    expect(order.isError, order.text).toBe(false)
    expect(order.structured.stops.map((s: any) => s.name ?? s.role)).toEqual(["textbox", "Email", "Before trap", "Trap first", "Trap last"])
    expect(order.structured.trap).toEqual({ kind: "cycle", stops: [4, 5] })
    expect(order.text).toContain("TRAP: Tab cycles within stops 4-5")
    expect(order.text).toContain("2 of 7 tabbable elements never reached")
    const fromAfter = await mcp.call("electron_a11y_tab_order", { from: "css=#after-trap" })
    expect(fromAfter.isError, fromAfter.text).toBe(false)
    // From below the trap, Tab passes the page's end, starts over at the top and still ends in the trap.
    expect(fromAfter.structured.stops.map((s: any) => s.name ?? s.role)).toEqual([
      "After trap",
      "Run slow task",
      "textbox",
      "Email",
      "Before trap",
      "Trap first",
      "Trap last"
    ])
    expect(fromAfter.structured.trap).toEqual({ kind: "cycle", stops: [6, 7] })
    const capped = await mcp.call("electron_a11y_tab_order", { maxStops: 2 })
    expect(capped.structured.stops).toHaveLength(2)
    expect(capped.text).toContain("Stopped after maxStops=2")
    const bad = await mcp.call("electron_a11y_tab_order", { maxStops: 0 })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_a11y_focus names the focused element", async () => {
    const click = await mcp.call("electron_click", { target: "css=#before-trap" })
    expect(click.isError, click.text).toBe(false)
    const focus = await mcp.call("electron_a11y_focus")
    expect(focus.isError, focus.text).toBe(false)
    expect(focus.structured.focused).toMatchObject({ role: "button", name: "Before trap", element: "button#before-trap" })
    expect(focus.text).toMatch(/button "Before trap" \[e\d+\]/)
    const bad = await mcp.call("electron_a11y_focus", { extra: 1 })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_a11y_contrast measures a target and scans the page", async () => {
    const faint = await mcp.call("electron_a11y_contrast", { target: "testid=faint" })
    expect(faint.isError, faint.text).toBe(false)
    expect(faint.structured).toMatchObject({ fg: "#c8c8c8", bg: "#ffffff", large: false, level: "fails AA" })
    expect(faint.structured.ratio).toBeCloseTo(1.67, 2)
    const heading = await mcp.call("electron_a11y_contrast", { target: "role=heading" })
    expect(heading.structured.level).toBe("AAA")
    expect(heading.structured.large).toBe(true)
    const page = await mcp.call("electron_a11y_contrast")
    expect(page.structured.below.map((b: any) => b.text)).toEqual(["Low contrast text"])
    expect(page.structured.below[0].ref).toMatch(/^e\d+$/)
    const missing = await mcp.call("electron_a11y_contrast", { target: "css=#nope" })
    expect(missing.isError).toBe(true)
    const bad = await mcp.call("electron_a11y_contrast", { level: "A" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("works under the hardened app's strict CSP", async () => {
    const launched = await mcp.call("electron_launch", { app: sampleAppPath("hardened"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
    expect(launched.isError, launched.text).toBe(false)
    await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })
    const audit = await mcp.call("electron_a11y_audit", { tags: ["wcag2a"] })
    expect(audit.isError, audit.text).toBe(false)
    expect(audit.text).toMatch(/axe-core \d+\.\d+/)
    // A page without a trap: Tab comes back to the first stop.
    const order = await mcp.call("electron_a11y_tab_order")
    expect(order.isError, order.text).toBe(false)
    expect(order.structured.trap).toBeNull()
    expect(order.structured.wrapped).toBe(true)
    expect(order.structured.stops.length).toBeGreaterThan(5)
    expect(order.text).toContain("No trap: Tab wrapped to the start")
  })
})

describe("a plugin that is not loaded", () => {
  it("answers PLUGIN_NOT_LOADED with the flag to use", async () => {
    const bare = await inMemoryClient()
    try {
      const result = await bare.call("electron_a11y_audit")
      expect(result.code).toBe("PLUGIN_NOT_LOADED")
      expect(result.text).toContain("restart with --plugin a11y")
    } finally {
      await bare.close()
    }
  })
})
