/**
 * The launch's active surface when a window's views can show before its own page: the surfaces app with its
 * window page's document held back (SURFACES_SLOW_WINDOW_MS), so playwright-core may report a view's page
 * first (measured before the fix: 5 of 15 launches answered with a view active, or with no active row). The
 * launch answers once the window's own page is there, with it active, so the agent's next call (a wait for
 * the page's text) looks at the window and not at whichever view happened to be first.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { join } from "node:path"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

const app = join(import.meta.dirname, "..", "fixtures", "apps", "surfaces")
const LAUNCHES = 3
let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "full" })
})

afterAll(async () => {
  await mcp?.close()
})

describe("launching an app whose views can show before its window's own page", () => {
  it(`answers with the window's page active, and the next wait reads the window (${LAUNCHES} launches)`, { timeout: 120_000 }, async () => {
    for (let i = 0; i < LAUNCHES; i++) {
      const launched = await mcp.call("electron_launch", {
        app,
        env: { SAMPLE_APP_USER_DATA: freshUserData(), SURFACES_SLOW_WINDOW_MS: "1500" }
      })
      expect(launched.isError, launched.text).toBe(false)
      // The listing is consistent: the active row is the window's page, and the views it lists name it as their parent.
      expect(launched.text, `launch ${i + 1}`).toMatch(/^\* w1 "[^"]*" \S+index\.html/m)
      expect(launched.structured.windows.filter((w: { active: boolean }) => w.active)).toEqual([expect.objectContaining({ id: "w1", kind: "window" })])
      const ready = await mcp.call("electron_wait_for", { text: "Guest ready", timeoutMs: 15_000 })
      expect(ready.isError, ready.text).toBe(false)
    }
  })
})
