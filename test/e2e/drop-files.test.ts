/**
 * Dropping files over MCP (issue 27 item 2): electron_upload_file on an element that is not a file input
 * dispatches dragenter/dragover/drop with a DataTransfer of File objects built from the files' bytes; the
 * workbench app's drop zone reads `DataTransfer.files` (names, sizes, types, the text of one, the first bytes
 * of a PNG). An element that accepts no drag gets no drop; paths are confined to --app-root; size is bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inMemoryClient, type TestClient } from "../support/mcp.js"
import { launchWorkbench, workbenchApp } from "./workbench.js"

let mcp: TestClient
const scratch = mkdtempSync(join(tmpdir(), "sw-drop-"))
const dropFolder = join(workbenchApp, "drop")

beforeAll(async () => {
  mcp = await launchWorkbench()
})

afterAll(async () => {
  await mcp?.close()
  rmSync(scratch, { recursive: true, force: true })
})

const textOf = async (testid: string) => (await mcp.call("electron_get_text", { target: `testid=${testid}` })).text

describe("dropping files on an element", () => {
  it("drops a text file, a JSON file and a PNG on the drop zone, which reads their names, sizes and bytes", async () => {
    const dropped = await mcp.call("electron_upload_file", {
      target: "testid=drop-zone",
      paths: [join(dropFolder, "notes.txt"), join(dropFolder, "data.json"), join(dropFolder, "pixel.png")]
    })
    expect(dropped.isError, dropped.text).toBe(false)
    expect(dropped.text).toMatch(/^Dropped 3 file\(s\) on .+: notes\.txt, data\.json, pixel\.png\./)
    expect(dropped.structured.dropped).toEqual([
      { name: "notes.txt", type: "text/plain", bytes: 41 },
      { name: "data.json", type: "application/json", bytes: 36 },
      { name: "pixel.png", type: "image/png", bytes: 70 }
    ])
    expect(dropped.structured.handled).toBe(true)
    expect(await textOf("drop-count")).toBe("Dropped 3 files")
    const list = await mcp.call("electron_get_text", { target: "testid=drop-list >> role=listitem", all: true })
    expect(list.structured.texts).toEqual(["notes.txt (41 bytes, text/plain)", "data.json (36 bytes, application/json)", "pixel.png (70 bytes, image/png)"])
    expect(await textOf("drop-preview")).toBe("Meeting notes\nShip the editor on Friday.\n")
    expect(await textOf("drop-bytes")).toBe("pixel.png starts with 89 50 4e 47")
  })

  it("a file of unknown type is dropped with no type, and its text arrives as written", async () => {
    const file = join(scratch, "report.log")
    writeFileSync(file, "line one\nline two")
    const dropped = await mcp.call("electron_upload_file", { target: "testid=drop-zone", paths: [file] })
    expect(dropped.isError, dropped.text).toBe(false)
    expect(await textOf("drop-count")).toBe("Dropped 1 file")
    expect(await textOf("drop-list")).toBe("report.log (17 bytes, no type)")
  })

  it("an element that accepts no drag gets no drop and the call fails NOT_INTERACTABLE", async () => {
    const refused = await mcp.call("electron_upload_file", { target: "testid=drop-refuse", paths: [join(dropFolder, "notes.txt")] })
    expect(refused.code).toBe("NOT_INTERACTABLE")
    expect(refused.text).toContain("is not a drop target")
    expect(await textOf("refuse-result")).toBe("Nothing dropped here")
  })

  it("refuses folders, too many bytes and an empty list before dropping anything", async () => {
    const folder = join(scratch, "folder")
    mkdirSync(folder)
    const notFile = await mcp.call("electron_upload_file", { target: "testid=drop-zone", paths: [folder] })
    expect(notFile.code).toBe("INVALID_ARGUMENT")
    expect(notFile.text).toContain("not a regular file")
    const big = join(scratch, "big.bin")
    writeFileSync(big, "")
    truncateSync(big, 9 * 1024 * 1024)
    const tooBig = await mcp.call("electron_upload_file", { target: "testid=drop-zone", paths: [big] })
    expect(tooBig.code).toBe("INVALID_ARGUMENT")
    expect(tooBig.text).toContain("at most 8388608")
    const none = await mcp.call("electron_upload_file", { target: "testid=drop-zone", paths: [] })
    expect(none.code).toBe("INVALID_ARGUMENT")
    expect(await textOf("drop-count")).toBe("Dropped 1 file")
  })

  it("under --app-root a file outside the root is refused before the call runs", async () => {
    const root = join(scratch, "root")
    mkdirSync(root)
    const confined = await inMemoryClient({ appRoot: root })
    try {
      const refused = await confined.call("electron_upload_file", { target: "testid=drop-zone", paths: [join(dropFolder, "notes.txt")] })
      expect(refused.code).toBe("PATH_NOT_ALLOWED")
    } finally {
      await confined.close()
    }
  })
})
