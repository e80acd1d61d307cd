/**
 * Negative and richer assertions end to end over MCP on the `tasks` app: `not` on text, value, count, state
 * and window expectations (each waits for the opposite and fails with the actual value), an attribute
 * checked by pattern, a window's URL by regex (RE2: a pattern RE2 cannot run is refused), the viewport and
 * attached states, and the negated lines in the exported test.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { inMemoryClient, type TestClient } from "../support/mcp.js"
import { launchApp } from "../plugins/support.js"

let mcp: TestClient

type Called = Awaited<ReturnType<TestClient["call"]>>
const ok = (result: Called) => {
  expect(result.isError, result.text).toBe(false)
  return result
}

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "full" })
  await launchApp(mcp)
}, 120_000)

afterAll(async () => {
  await mcp?.close()
})

describe("negated and richer assertions", () => {
  it("not on text, value and count passes on the opposite and fails with the actual value", async () => {
    const notOther = ok(await mcp.call("electron_expect_text", { target: "testid=board-name", text: "Other", not: true }))
    expect(notOther.text).toBe('Passed: text of testid=board-name (not contains "Other"); actual "My board".')
    const stillMine = await mcp.call("electron_expect_text", { target: "testid=board-name", text: "My", not: true, timeoutMs: 300 })
    expect(stillMine.code).toBe("ASSERTION_FAILED")
    expect(stillMine.structured.error).toMatchObject({ expected: { not: 'contains "My"' }, actual: "My board" })

    ok(await mcp.call("electron_expect_value", { target: "testid=task-title-input", value: "Draft", not: true }))
    ok(await mcp.call("electron_fill", { target: "testid=task-title-input", value: "Draft" }))
    const sameValue = await mcp.call("electron_expect_value", { target: "testid=task-title-input", value: "Draft", not: true, timeoutMs: 300 })
    expect(sameValue.code).toBe("ASSERTION_FAILED")
    expect(sameValue.structured.error.actual).toBe("Draft")

    ok(await mcp.call("electron_expect_count", { target: "testid=task-row", count: 0, not: true }))
    const fortyTwo = await mcp.call("electron_expect_count", { target: "testid=task-row", count: 42, not: true, timeoutMs: 300 })
    expect(fortyTwo.code).toBe("ASSERTION_FAILED")
    expect(fortyTwo.structured.error).toMatchObject({ expected: { not: 42 }, actual: 42 })
    ok(await mcp.call("electron_click", { target: "testid=add-task-button" }))
    ok(await mcp.call("electron_expect_count", { target: "testid=task-row", count: 42, not: true }))
    ok(await mcp.call("electron_expect_count", { target: "testid=task-row", min: 44, not: true }))
  })

  it("an attribute is checked by value, pattern or presence, and its absence is said", async () => {
    const href = ok(await mcp.call("electron_expect_text", { target: "testid=external-link", attribute: "href", pattern: "^https://example\\.com/$" }))
    expect(href.text).toBe('Passed: attribute href of testid=external-link; actual "https://example.com/".')
    ok(await mcp.call("electron_expect_text", { target: "testid=external-link", attribute: "target", text: "_blank", exact: true }))
    ok(await mcp.call("electron_expect_text", { target: "testid=external-link", attribute: "rel" }))
    ok(await mcp.call("electron_expect_text", { target: "testid=external-link", attribute: "href", pattern: "^http:", not: true }))
    const missing = await mcp.call("electron_expect_text", { target: "testid=external-link", attribute: "download", timeoutMs: 300 })
    expect(missing.code).toBe("ASSERTION_FAILED")
    expect(missing.structured.error.actual).toBe("no download attribute")
    ok(await mcp.call("electron_expect_text", { target: "testid=external-link", attribute: "download", not: true }))
    const backtracking = await mcp.call("electron_expect_text", { target: "testid=external-link", attribute: "href", pattern: "(h)\\1" })
    expect(backtracking.code).toBe("INVALID_ARGUMENT")
  })

  it("a window's URL by regex, and not: no such window", async () => {
    const url = ok(await mcp.call("electron_expect_window", { urlPattern: "renderer/index\\.html$" }))
    expect(url.text).toMatch(/^Passed: 1 window\(s\) open; w1 "Tasks — My board" file:\/\/.*index\.html$/)
    ok(await mcp.call("electron_expect_window", { urlPattern: "settings\\.html", not: true }))
    // Linear-time matching: a pattern that would backtrack forever on V8 answers at once.
    ok(await mcp.call("electron_expect_window", { urlPattern: "^(a+)+$", not: true }))
    const open = await mcp.call("electron_expect_window", { title: "Tasks", not: true, timeoutMs: 300 })
    expect(open.code).toBe("ASSERTION_FAILED")
    const refused = await mcp.call("electron_expect_window", { urlPattern: "(?=index)" })
    expect(refused.code).toBe("INVALID_ARGUMENT")
    ok(await mcp.call("electron_expect_window", { count: 2, not: true }))
  })

  it("inViewport follows scrolling inside the list; attached:false holds for no match; not on states", async () => {
    const last = "testid=task-row >> nth=-1"
    const below = ok(await mcp.call("electron_expect_state", { target: last, state: { inViewport: false, attached: true } }))
    expect(below.text).toContain("actual inViewport=false, attached=true")
    ok(await mcp.call("electron_scroll", { target: last }))
    ok(await mcp.call("electron_expect_state", { target: last, state: { inViewport: true } }))
    ok(await mcp.call("electron_expect_state", { target: "testid=no-such-thing", state: { attached: false } }))
    const absent = await mcp.call("electron_expect_state", { target: "testid=no-such-thing", state: { attached: true }, timeoutMs: 300 })
    expect(absent.code).toBe("ASSERTION_FAILED")
    ok(await mcp.call("electron_expect_state", { target: "testid=rename-board", state: { enabled: true, focused: true }, not: true }))
    const both = await mcp.call("electron_expect_state", { target: "testid=rename-board", state: { enabled: true, visible: true }, not: true, timeoutMs: 300 })
    expect(both.code).toBe("ASSERTION_FAILED")
    expect(both.structured.error.actual).toEqual({ enabled: true, visible: true })
  })

  it("the exported test carries the negated and attribute assertions", async () => {
    const exported = ok(await mcp.call("electron_export_test", { name: "negated", inline: true }))
    expect(exported.text).toContain('.not.toContainText("Other")')
    expect(exported.text).toContain('.not.toHaveValue("Draft")')
    expect(exported.text).toContain(".not.toHaveCount(0)")
    expect(exported.text).toContain('toHaveAttribute("href", /^https:\\/\\/example\\.com\\/$/)')
    expect(exported.text).toContain('.not.toHaveAttribute("download")')
    expect(exported.text).toContain(".toBeInViewport()")
    expect(exported.text).toContain(".not.toBeAttached()")
  })
})
