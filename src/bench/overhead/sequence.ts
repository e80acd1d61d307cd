/**
 * The workload of the overhead benchmark (src/bench/overhead.ts): eight call types on the `tasks`
 * sample app, four reads and four actions, each as a Stagewright tool call and as the playwright-core
 * call an author would write directly. Every step is repeatable (the actions toggle or overwrite, the
 * board does not grow), so round 1 and round 25 cost the same.
 */
import type { Page } from "playwright-core"

export type CallKind = "read" | "action"

export interface CallType {
  readonly name: string
  readonly kind: CallKind
  /** The Stagewright tool and its arguments for round `i`. */
  readonly tool: (i: number) => { readonly name: string; readonly arguments: Record<string, unknown> }
  /** The same thing through playwright-core directly. */
  readonly direct: (page: Page, i: number) => Promise<unknown>
}

const PRIORITIES = ["low", "medium", "high"] as const

export const CALL_TYPES: ReadonlyArray<CallType> = [
  {
    name: "get_text",
    kind: "read",
    tool: () => ({ name: "electron_get_text", arguments: { target: "[data-testid=board-name]" } }),
    direct: (page) => page.locator("[data-testid=board-name]").innerText({ timeout: 5_000 })
  },
  {
    name: "get_attribute",
    kind: "read",
    tool: () => ({ name: "electron_get_attribute", arguments: { target: "[data-testid=task-title-input]", name: "placeholder" } }),
    direct: (page) => page.locator("[data-testid=task-title-input]").getAttribute("placeholder", { timeout: 5_000 })
  },
  {
    name: "expect_visible",
    kind: "read",
    tool: () => ({ name: "electron_expect_visible", arguments: { target: "[data-testid=notice]" } }),
    direct: (page) => page.locator("[data-testid=notice]").isVisible()
  },
  {
    name: "expect_text",
    kind: "read",
    tool: () => ({ name: "electron_expect_text", arguments: { target: "[data-testid=board-name]", text: "My board" } }),
    direct: async (page) => {
      const text = await page.locator("[data-testid=board-name]").innerText({ timeout: 5_000 })
      if (!text.includes("My board")) throw new Error(`unexpected board name ${text}`)
    }
  },
  {
    name: "fill",
    kind: "action",
    tool: (i) => ({ name: "electron_fill", arguments: { target: "[data-testid=task-title-input]", value: `Task ${i}` } }),
    direct: (page, i) => page.locator("[data-testid=task-title-input]").fill(`Task ${i}`, { timeout: 5_000 })
  },
  {
    name: "click",
    kind: "action",
    tool: () => ({ name: "electron_click", arguments: { target: "[data-testid=toggle-theme-button]" } }),
    direct: (page) => page.locator("[data-testid=toggle-theme-button]").click({ timeout: 5_000 })
  },
  {
    name: "check",
    kind: "action",
    tool: (i) => ({ name: "electron_check", arguments: { target: "[data-testid=task-urgent-checkbox]", checked: i % 2 === 0 } }),
    direct: (page, i) => page.locator("[data-testid=task-urgent-checkbox]").setChecked(i % 2 === 0, { timeout: 5_000 })
  },
  {
    name: "select_option",
    kind: "action",
    tool: (i) => ({ name: "electron_select_option", arguments: { target: "[data-testid=task-priority-select]", values: [PRIORITIES[i % 3]!] } }),
    direct: (page, i) => page.locator("[data-testid=task-priority-select]").selectOption([PRIORITIES[i % 3]!], { timeout: 5_000 })
  }
]

/** 25 rounds of the 8 call types: 200 calls. */
export const ROUNDS = 25
