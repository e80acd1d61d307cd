/**
 * Response sizes of the calls issue 10 is about, on the tasks app, as JSON rows (label, tool, code, ms,
 * text BPE in o200k_base, _meta.size.chars, inline image base64 chars). Skipped unless SIZES_OUT names
 * the file to write: SIZES_OUT=/tmp/after.json npx vitest run test/bench/issue10-sizes.test.ts
 * (run under vitest, not tsx: tsx's keepNames wraps functions sent to the main process in __name()).
 */
import { it } from "@effect/vitest"
import { writeFileSync } from "node:fs"
import { countTokens } from "gpt-tokenizer/encoding/o200k_base"
import { sampleAppPath } from "../../src/index.js"
import { freshUserData, inMemoryClient } from "../support/mcp.js"
it.skipIf(process.env.SIZES_OUT === undefined)("issue 10 response sizes", async () => {
  const rows: Array<Record<string, unknown>> = []
  const measure = async (mcp: any, label: string, name: string, args: Record<string, unknown> = {}) => {
    const started = Date.now()
    const r = await mcp.call(name, args)
    const ms = Date.now() - started
    const images = (r.raw.content ?? []).filter((c: any) => c.type === "image")
    const imageChars = images.reduce((n: number, c: any) => n + c.data.length, 0)
    rows.push({ label, tool: name, code: r.code ?? "ok", ms, textBPE: countTokens(r.text), chars: r.raw._meta?.size?.chars, imageBase64Chars: imageChars })
    return r
  }
  
  const launch = async (options: Record<string, unknown>) => {
    const mcp = await inMemoryClient(options)
    await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
    await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })
    await mcp.call("electron_wait_for", { target: "testid=late-panel" })
    return mcp
  }
  
  // 1. essential: a confirm() opens, then the calls of the issue.
  {
    const mcp = await launch({ toolProfile: "essential", operationTimeoutMs: 10_000 })
    await measure(mcp, "1 confirm opens", "electron_click", { target: 'role=button[name="Delete Renew passport"]' })
    await measure(mcp, "1 snapshot while open", "electron_snapshot")
    await measure(mcp, "1 press Enter while open", "electron_press_key", { key: "Enter" })
    await measure(mcp, "1 expect_text while open", "electron_expect_text", { target: "testid=notice", text: "Deleted" })
    await measure(mcp, "1 status while open", "electron_status")
    await mcp.close()
  }
  {
    const mcp = await launch({})
    await measure(mcp, "full snapshot (reference)", "electron_snapshot")
    // 2
    await mcp.call("electron_dialog_stub", { action: "set", rules: [{ kind: "message", answer: { response: 0 } }] })
    await mcp.call("electron_click", { target: "testid=about-button" })
    await mcp.call("electron_expect_text", { target: "testid=dialog-result", text: "About: OK" })
    await measure(mcp, "2 dialog_stub list", "electron_dialog_stub", { action: "list" })
    // 3
    await mcp.call("electron_snapshot")
    await measure(mcp, "3 fill search (summary)", "electron_fill", { target: "testid=search-input", value: "passport" })
    await measure(mcp, "3 since:last after it", "electron_snapshot", { since: "last" })
    await mcp.call("electron_fill", { target: "testid=search-input", value: "" })
    await mcp.call("electron_snapshot")
    // 4
    await measure(mcp, "4 screenshot (inline)", "electron_screenshot")
    await measure(mcp, "4 screenshot name (file)", "electron_screenshot", { name: "measure.png" })
    // 5
    await measure(mcp, "5 expect_text pass", "electron_expect_text", { target: "testid=board-name", text: "My" })
    await measure(mcp, "5 expect_count pass", "electron_expect_count", { target: "testid=task-row", min: 1 })
    // 6
    await measure(mcp, "6 snapshot depth 3", "electron_snapshot", { depth: 3 })
    // 7
    await measure(mcp, "7 find zero match", "electron_find", { target: 'role=button[name="Delete Renew"]' })
    await measure(mcp, "7 click not found", "electron_click", { target: 'role=button[name="Edit Renew"]', timeoutMs: 500 })
    // 8
    await mcp.call("electron_snapshot")
    await measure(mcp, "8 click Edit", "electron_click", { target: 'role=button[name="Edit Renew passport"]' })
    await measure(mcp, "8 click Cancel", "electron_click", { target: "testid=edit-cancel" })
    await measure(mcp, "8 fill_form 2 fields", "electron_fill_form", { fields: [{ target: "testid=task-title-input", value: "Buy milk" }, { target: "testid=task-notes-input", value: "two litres" }] })
    await measure(mcp, "export_test", "electron_export_test", { name: "measure" })
    await mcp.close()
  }
  writeFileSync(process.env.SIZES_OUT!, JSON.stringify(rows))
  
}, 600_000)
