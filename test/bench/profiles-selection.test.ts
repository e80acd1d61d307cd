/**
 * The profile benchmark's selection proxy (pure apart from `git show`): tokenizing, BM25 ranking over tool
 * names, descriptions and instructions, the per-variant top-1 / top-3 summary and the before/after table.
 */
import { describe, expect, it } from "@effect/vitest"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import {
  descriptionsAt,
  rankItem,
  rankTools,
  selectionMarkdown,
  summarizeSelection,
  tokenize,
  withDescriptions,
  type ToolList
} from "../../src/bench/profiles/selection.js"
import { verdictOf, summarize } from "../../src/bench/profiles/scoring.js"

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..")

const list: ToolList = {
  instructions: "Start with electron_launch.\nAssert with electron_expect_*; errors name the next step.",
  tools: [
    { name: "electron_launch", description: "Start an Electron app and make its first window active." },
    { name: "electron_web_dialog", description: "Answer the open web dialog (alert, confirm, prompt): accept or dismiss." },
    { name: "electron_screenshot", description: "PNG of the active window or one element; with name it is saved to a file." },
    { name: "electron_expect_text", description: "Check an element's text contains text." },
    { name: "electron_click", description: "Click an element." }
  ]
}

describe("the selection proxy", () => {
  it("splits tool names into words, drops stop words and the electron prefix, and stems plurals", () => {
    expect(tokenize("electron_web_dialog")).toEqual(["web", "dialog"])
    expect(tokenize("Save the pictures of the windows")).toEqual(["save", "picture", "window"])
  })

  it("ranks the tool whose words the intent uses first, and uses the instruction sentences that name a tool", () => {
    expect(rankTools("save a picture of the window to a file", list)[0]).toBe("electron_screenshot")
    expect(rankTools("dismiss the confirm question", list)[0]).toBe("electron_web_dialog")
    // "assert" appears only in the instructions, in the sentence that names electron_expect_*.
    expect(rankTools("assert the status", list)[0]).toBe("electron_expect_text")
    // Without the instructions the word matches nothing: every tool scores 0 and the order is by name.
    expect(rankTools("assert the status", { ...list, instructions: "" })[0]).toBe("electron_click")
  })

  it("counts top-1, top-3 and steps whose tool was not listed, per variant", () => {
    const items = [
      rankItem("full", "t", "save a picture of the window to a file", "electron_screenshot", list),
      rankItem("full", "t", "press the button", "electron_launch", list),
      rankItem("full", "t", "say yes to the question", "electron_profile", list)
    ]
    expect(items.map((i) => i.rank)).toEqual([1, expect.any(Number), 0])
    const report = summarizeSelection(items, ["essential", "full"], "current")
    expect(report.summaries).toEqual([{ variant: "full", steps: 3, top1: 1, top3: items[1]!.rank <= 3 ? 2 : 1, notListed: 1 }])
    expect(selectionMarkdown(report)).toContain("| full | 3 | 1 (33.3%) |")
  })

  it("reads each tool's description from docs/TOOLS.md at a git ref and shows before and after", () => {
    const docs = descriptionsAt("HEAD", repoRoot)
    expect(docs.get("electron_click")).toMatch(/^Click /)
    expect(docs.size).toBeGreaterThan(50)
    const before = withDescriptions(list, new Map([["electron_screenshot", "Pixels."]]))
    expect(before.tools.find((t) => t.name === "electron_screenshot")?.description).toBe("Pixels.")
    const intent = "save a picture of the window to a file"
    const b = summarizeSelection([rankItem("full", "t", intent, "electron_screenshot", before)], ["full"], "ref")
    const a = summarizeSelection([rankItem("full", "t", intent, "electron_screenshot", list)], ["full"], "current")
    expect(selectionMarkdown(a, b)).toContain("| full | 1 | 0% | 100% |")
  })
})

describe("the rule on a proposed membership", () => {
  it("names the proposal and never says the default changes", () => {
    const r = (variant: string, success: boolean) => ({
      task: "x",
      variant,
      success,
      detail: "",
      fallbacks: [],
      calls: 1,
      failedCalls: 0,
      retries: 0,
      manifestBpe: 10,
      toolsListed: 1,
      responseBpe: 1,
      requestBpe: 1,
      totalBpe: 12,
      wallMs: 1,
      timedOut: false,
      toolsUsed: []
    })
    const v = verdictOf("p", summarize("essential+proposed", [r("essential+proposed", false)]), summarize("full", [r("full", true)]), "essential+proposed")
    expect(v?.text).toMatch(/^p: essential\+proposed solved 0\/1/)
    expect(v?.text).toContain("Would not meet the rule as essential")
  })
})
