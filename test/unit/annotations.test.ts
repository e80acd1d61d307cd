/**
 * The annotations hosts approve calls by tell the truth: what runs caller code or changes the app is
 * destructive, what reaches URLs or files is open-world (src/tools/contract/annotations.ts), as tools/list lists them.
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createServer } from "../../src/index.js"
import { firstPartyPlugins } from "../../src/plugins/registry.js"
import { OVERRIDES } from "../../src/tools/contract/annotations.js"

describe("tool annotations", () => {
  it("destructive for caller code and app changes, open-world for URLs and files, as tools/list carries them", async () => {
    const server = await createServer({
      toolProfile: "full",
      plugins: Object.keys(firstPartyPlugins),
      allowEval: ["renderer", "main"],
      allowProfileSwitch: true,
      outputDir: mkdtempSync(join(tmpdir(), "sw-ann-"))
    })
    try {
      const tools = await server.listTools()
      const byName = new Map(tools.map((t) => [t.name, t.annotations as Record<string, boolean | undefined>]))
      const hints = (name: string) => {
        const a = byName.get(name)
        expect(a, name).toBeDefined()
        return a!
      }
      for (const name of ["electron_eval_main", "electron_eval_renderer"])
        expect(hints(name)).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true })
      for (const name of [
        "electron_click",
        "electron_type",
        "electron_fill",
        "electron_press_key",
        "electron_ipc_invoke",
        "electron_ipc_send",
        "electron_ipc_mock",
        "electron_network_route",
        "electron_menu_click",
        "electron_launch",
        "electron_clock_control",
        "electron_a11y_tab_order",
        "electron_visual_update_baseline"
      ]) {
        expect(hints(name), name).toMatchObject({ readOnlyHint: false, destructiveHint: true })
      }
      for (const name of [
        "electron_navigate",
        "electron_history",
        "electron_reload",
        "electron_launch",
        "electron_attach",
        "electron_upload_file",
        "electron_dialog_stub",
        "electron_export_test",
        "electron_screenshot",
        "electron_network_har_record",
        "electron_trace_start"
      ]) {
        expect(hints(name).openWorldHint, name).toBe(true)
      }
      // Additive: a record, the app untouched.
      for (const name of ["electron_trace_start", "electron_network_capture", "electron_select_window", "electron_profile"])
        expect(hints(name), name).toMatchObject({ readOnlyHint: false, destructiveHint: false })
      for (const name of ["electron_snapshot", "electron_status", "electron_expect_text"])
        expect(hints(name), name).toMatchObject({ readOnlyHint: true, openWorldHint: false })
      // No tool that is not read-only passes as non-destructive unless it is decided so, with a reason.
      for (const tool of tools) {
        const a = tool.annotations as Record<string, boolean | undefined>
        if (a.readOnlyHint === false && a.destructiveHint === false)
          expect(Object.keys(OVERRIDES).concat(["electron_export_test"]), tool.name).toContain(tool.name)
      }
      expect(tools.filter((t) => (t.annotations as Record<string, unknown>).destructiveHint === true).length).toBeGreaterThan(40)
    } finally {
      await server.close()
    }
  })
})
