/**
 * `npm start`: the built server driven over the real MCP protocol (an SDK client over stdio to
 * dist/cli.js) by a scripted session on the bundled `tasks` sample app. Prints each call, a one-line
 * summary of its result and its size. Screenshots land in ./stagewright-output/.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { packageRoot, resolveElectronRuntime } from "./layers/driver/electron-runtime.js"
import { sampleAppPath } from "./samples.js"

// This program runs on the project's Electron stand-in unless STAGEWRIGHT_ELECTRON names a real Electron.
process.env.STAGEWRIGHT_ELECTRON ||= "standin"

interface Step {
  readonly tool: string
  readonly args: Record<string, unknown>
  readonly why: string
}

const TITLE = "Demo: ship the Stagewright release"

const steps = (userData: string): ReadonlyArray<Step> => [
  { tool: "electron_launch", args: { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: userData } }, why: "start the tasks app" },
  { tool: "electron_wait_for", args: { target: "testid=late-panel" }, why: "wait for the late Recommendations panel" },
  { tool: "electron_snapshot", args: { compact: true }, why: "read the page with refs" },
  {
    tool: "electron_fill_form",
    args: {
      fields: [
        { target: "testid=task-title-input", value: TITLE },
        { target: "testid=task-notes-input", value: "Tag, publish, announce." },
        { target: "testid=task-priority-select", value: "high" },
        { target: "testid=task-urgent-checkbox", value: true },
        { target: "testid=category-home", value: true }
      ]
    },
    why: "fill the add-task form"
  },
  { tool: "electron_click", args: { target: 'role=button[name="Add task"]' }, why: "add the task" },
  { tool: "electron_expect_text", args: { target: "testid=notice", text: `Added "${TITLE}"` }, why: "check the app confirmed it" },
  { tool: "electron_find", args: { target: "testid=task-title", limit: 3 }, why: "check it is at the top of the list" },
  { tool: "electron_click", args: { target: "testid=open-settings" }, why: "open the settings window" },
  { tool: "electron_wait_for", args: { window: "Settings" }, why: "wait for it and make it active" },
  { tool: "electron_screenshot", args: { name: "settings-window.png" }, why: "screenshot the settings window" },
  { tool: "electron_select_window", args: { index: 0 }, why: "back to the board" },
  { tool: "electron_screenshot", args: { name: "task-board.png" }, why: "screenshot the board" },
  { tool: "electron_close", args: {}, why: "close the app" }
]

type Content = { readonly type: string; readonly text?: string }
const summarize = (result: { readonly content?: ReadonlyArray<Content> }): string => {
  const text: string = (result.content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text ?? "")
    .join(" ")
  const images = (result.content ?? []).filter((c) => c.type === "image").length
  const firstLine = text.split("\n")[0] ?? ""
  const lines = text.split("\n").length
  return `${firstLine.length > 110 ? firstLine.slice(0, 109) + "…" : firstLine}${lines > 1 ? ` (+${lines - 1} lines)` : ""}${images > 0 ? ` [${images} image]` : ""}`
}

const main = async () => {
  const root = packageRoot()
  const runtime = resolveElectronRuntime()
  const outputDir = resolve("stagewright-output")
  const userData = mkdtempSync(join(tmpdir(), "stagewright-demo-"))
  process.stdout.write(`Stagewright demo on the tasks sample app — runtime: ${runtime.kind} (${runtime.reason})\n`)
  process.stdout.write(`Screenshots go to ${outputDir}\n\n`)
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, "dist", "cli.js"), "serve", "--screenshot-dir", outputDir],
    stderr: "ignore",
    // The SDK passes the server only a few variables: the Electron chosen above goes with them.
    env: { ...getDefaultEnvironment(), STAGEWRIGHT_ELECTRON: process.env.STAGEWRIGHT_ELECTRON ?? "standin" }
  })
  const client = new Client({ name: "stagewright-demo", version: "1.0.0" })
  await client.connect(transport)
  const { tools } = await client.listTools()
  const listBytes = Buffer.byteLength(JSON.stringify({ tools }))
  process.stdout.write(`tools/list: ${tools.length} tools, ${listBytes} bytes\n\n`)
  let failures = 0
  let totalChars = 0
  try {
    for (const [index, step] of steps(userData).entries()) {
      const started = Date.now()
      const result: any = await client.callTool({ name: step.tool, arguments: step.args })
      const size = result._meta?.size ?? { chars: 0, approxTokens: 0 }
      totalChars += size.chars
      const ok = result.isError !== true
      if (!ok) failures++
      process.stdout.write(`${String(index + 1).padStart(2)}. ${step.tool} — ${step.why}\n`)
      process.stdout.write(`    ${ok ? "ok " : "ERR"} ${summarize(result)}\n`)
      process.stdout.write(`    ${size.chars} chars ≈ ${size.approxTokens} tokens${size.images ? ` + ${size.images} image` : ""}, ${Date.now() - started} ms\n`)
      if (!ok && step.tool === "electron_launch") break
    }
  } finally {
    await client.close()
    rmSync(userData, { recursive: true, force: true })
  }
  process.stdout.write(`\n${failures === 0 ? "All steps passed" : `${failures} step(s) failed`}; results totalled ${totalChars} chars.\n`)
  process.exitCode = failures === 0 ? 0 : 1
}

main().catch((error) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
