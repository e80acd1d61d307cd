/**
 * What the operator did not allow does not happen: the single eval gate, --app-root confinement,
 * refused environment variables, argument bounds, the response cap, redacted breadcrumbs and MCP
 * cancellation. Each test fails when its protection is removed.
 */
import { describe, expect, it } from "@effect/vitest"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { createServer, type CreateServerOptions } from "../../src/index.js"

const samplePlugin = fileURLToPath(new URL("../fixtures/plugins/sample-plugin.mjs", import.meta.url))

const withServer = async <A>(options: CreateServerOptions, f: (call: (name: string, args?: Record<string, unknown>) => Promise<any>) => Promise<A>) => {
  const server = await createServer({ toolProfile: "full", outputDir: mkdtempSync(join(tmpdir(), "sw-sec-out-")), ...options })
  try {
    return await f((name, args = {}) => server.callTool(name, args))
  } finally {
    await server.close()
  }
}

const code = (result: any): string | undefined => result.structuredContent?.error?.code

describe("one eval gate", () => {
  const paths: ReadonlyArray<readonly [string, Record<string, unknown>, "renderer" | "main"]> = [
    ["electron_eval_renderer", { function: "() => 1" }, "renderer"],
    ["electron_eval_main", { function: "() => 1" }, "main"],
    ["electron_navigate", { url: "javascript:void(document.title='x')" }, "renderer"],
    ["electron_navigate", { url: "  JavaScript:alert(1)" }, "renderer"],
    ["electron_navigate", { url: "data:text/html,<script>document.title='x'</script>" }, "renderer"],
    ["electron_navigate", { url: "\tDATA:text/html;base64,PHNjcmlwdD4=" }, "renderer"],
    ["electron_navigate", { url: "blob:http://127.0.0.1/1234" }, "renderer"],
    ["electron_launch", { app: "/nonexistent", args: ["--inspect=127.0.0.1:9229"] }, "main"],
    ["electron_launch", { app: "/nonexistent", args: ["-r", "/tmp/x.js"] }, "main"],
    ["sample_eval", { code: "1" }, "renderer"]
  ]

  it("refuses every path that runs caller code without its --allow-eval target", async () => {
    await withServer({ plugins: [samplePlugin] }, async (call) => {
      for (const [tool, args, target] of paths) {
        const result = await call(tool, args)
        expect(code(result), tool).toBe("EVAL_NOT_AUTHORIZED")
        expect(result.content[0].text).toContain(`--allow-eval ${target}`)
      }
    })
  })

  it("lets each path past the gate with the flag (no app: it stops at APP_NOT_RUNNING instead)", async () => {
    await withServer({ plugins: [samplePlugin], allowEval: ["renderer", "main"] }, async (call) => {
      for (const [tool, args] of paths) {
        const result = await call(tool, args)
        // The sample plugin's eval tool needs no app: past the gate it simply runs.
        if (tool === "sample_eval") expect(result.isError, tool).toBeUndefined()
        else if (tool === "electron_launch") expect(code(result), tool).toBe("LAUNCH_FAILED")
        else expect(code(result), tool).toBe("APP_NOT_RUNNING")
      }
    })
  })

  it("allowing one target does not allow the other", async () => {
    await withServer({ allowEval: ["renderer"] }, async (call) => {
      expect(code(await call("electron_eval_main", { function: "() => 1" }))).toBe("EVAL_NOT_AUTHORIZED")
      expect(code(await call("electron_eval_renderer", { function: "() => 1" }))).toBe("APP_NOT_RUNNING")
    })
  })
})

describe("--app-root confinement", () => {
  const root = mkdtempSync(join(tmpdir(), "sw-root-"))
  const outside = mkdtempSync(join(tmpdir(), "sw-outside-"))
  mkdirSync(join(root, "app"))
  writeFileSync(join(root, "app", "main.js"), "")
  writeFileSync(join(outside, "secret.txt"), "secret")
  symlinkSync(outside, join(root, "link-out"))

  it("refuses launch paths, cwd, uploads and dialog answers outside the root, symlinks resolved", async () => {
    await withServer({ appRoot: root }, async (call) => {
      const refused: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
        ["electron_launch", { app: join(outside, "main.js") }],
        ["electron_launch", { app: join(root, "link-out", "main.js") }],
        ["electron_launch", { app: "../../etc", cwd: root }],
        ["electron_launch", { app: join(root, "app"), executablePath: "/usr/bin/env" }],
        ["electron_launch", { app: join(root, "app"), cwd: outside }],
        ["electron_upload_file", { target: "e1", paths: [join(root, "link-out", "secret.txt")] }],
        ["electron_dialog_stub", { action: "set", rules: [{ kind: "open", answer: { filePaths: [join(outside, "secret.txt")] } }] }],
        ["electron_dialog_stub", { action: "set", rules: [{ kind: "save", answer: { filePath: join(root, "link-out", "new.json") } }] }]
      ]
      for (const [tool, args] of refused) {
        const result = await call(tool, args)
        expect(code(result), `${tool} ${JSON.stringify(args)}`).toBe("PATH_NOT_ALLOWED")
        expect(result.content[0].text).toContain("--app-root")
      }
      // Inside the root the same calls get past the check (and fail later for other reasons).
      expect(code(await call("electron_launch", { app: join(root, "missing") }))).toBe("LAUNCH_FAILED")
      expect(code(await call("electron_upload_file", { target: "e1", paths: [join(root, "app", "main.js")] }))).toBe("APP_NOT_RUNNING")
      expect(code(await call("electron_dialog_stub", { action: "set", rules: [{ kind: "save", answer: { filePath: join(root, "out.json") } }] }))).toBe(
        "APP_NOT_RUNNING"
      )
    })
  })

  it("runtime-altering environment variables at launch need --allow-eval main; names that are not names are refused", async () => {
    await withServer({}, async (call) => {
      for (const name of [
        "ELECTRON_RUN_AS_NODE",
        "NODE_OPTIONS",
        "node_options",
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "DYLD_INSERT_LIBRARIES",
        "NODE_PATH",
        "GCONV_PATH",
        "BASH_ENV"
      ]) {
        const result = await call("electron_launch", { app: join(root, "app"), env: { [name]: "x" } })
        expect(code(result), name).toBe("EVAL_NOT_AUTHORIZED")
        expect(result.content[0].text).toContain(name)
        expect(result.content[0].text).toContain("--allow-eval main")
      }
      for (const name of ["NODE_OPTIONS=--import=data:x", "A B", "1ABC", "", "X\u0000Y"]) {
        const result = await call("electron_launch", { app: join(root, "app"), env: { [name]: "" } })
        expect(code(result), JSON.stringify(name)).toBe("INVALID_ARGUMENT")
      }
    })
  })
})

describe("bounds", () => {
  it("bounds text, key and pattern arguments and refuses catastrophic patterns", async () => {
    await withServer({}, async (call) => {
      expect(code(await call("electron_fill", { target: "e1", value: "x".repeat(100_001) }))).toBe("INVALID_ARGUMENT")
      expect(code(await call("electron_press_key", { key: "K".repeat(501) }))).toBe("INVALID_ARGUMENT")
      expect(code(await call("electron_click", { target: "x".repeat(2_001) }))).toBe("INVALID_ARGUMENT")
      // Matched on RE2 (linear time): what it cannot express is refused; (a+)+$ and friends are simply safe there.
      for (const pattern of ["(.)\\1", "(?<=a)b", "(?=x)y", "(?!x)y", "x".repeat(1_001)]) {
        const result = await call("electron_expect_text", { target: "e1", pattern })
        expect(code(result), pattern).toBe("INVALID_ARGUMENT")
        expect(result.content[0].text).toContain("pattern")
      }
      // Harmless patterns, and the shapes that backtrack catastrophically elsewhere, get past the check.
      for (const pattern of ["^Saved \\d+ tasks$", "(a+)+$", "(a|aa)*b", "^(\\w+\\s?)*$"]) {
        expect(code(await call("electron_expect_text", { target: "e1", pattern })), pattern).toBe("APP_NOT_RUNNING")
      }
    })
  })

  it("cuts a result over the cap and links the full payload written under the output folder", async () => {
    await withServer({ plugins: [samplePlugin], maxResponseChars: 2_000 }, async (call) => {
      const small = await call("sample_big", { chars: 1_500 })
      expect(small.content).toHaveLength(1)
      const big = await call("sample_big", { chars: 50_000 })
      expect(big.content[0].text.length).toBeLessThan(2_200)
      expect(big.content[0].text).toContain("cut at 2000 of 50000 characters")
      const link = big.content.find((c: any) => c.type === "resource_link")
      expect(link).toMatchObject({ mimeType: "text/plain", uri: expect.stringMatching(/^stagewright:\/\/output\/responses\//) })
      const full = readFileSync(/the full result is in (\S+)/.exec(big.content[0].text)![1]!, "utf8")
      expect(full).toHaveLength(50_000)
      expect(full.endsWith("-end")).toBe(true)
    })
  })
})

describe("privacy of the last_error breadcrumb", () => {
  it("never keeps eval source, typed text, environment values or file contents", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "sw-priv-")), "notes.txt")
    const contents = "FILE-CONTENT-LINE-ONE\nFILE-CONTENT-LINE-TWO"
    writeFileSync(file, contents)
    const planted = {
      eval: "EVAL-SOURCE-SECRET-4711",
      typed: "TYPED-TEXT-SECRET-0815",
      env: "ENV-VALUE-SECRET-1234",
      attr: "ATTRIBUTE-NAME-SECRET"
    }
    await withServer({ allowEval: ["renderer", "main"] }, async (call) => {
      const checks: Array<readonly [string, Record<string, unknown>]> = [
        ["electron_eval_main", { function: `() => { throw new Error("${planted.eval}") }` }],
        ["electron_navigate", { url: `javascript:alert("${planted.eval}")` }],
        ["electron_fill", { target: `text=${planted.typed}`, value: planted.typed }],
        ["electron_type", { text: planted.typed }],
        ["electron_launch", { app: "/nonexistent/app", env: { SAFE: planted.env, NODE_OPTIONS: planted.env } }],
        ["electron_launch", { app: `/nonexistent/${planted.env}` }],
        ["electron_get_attribute", { target: "e1", name: planted.attr }],
        ["electron_fill_form", { fields: [{ target: `label=${contents}`, value: contents }] }]
      ]
      for (const [tool, args] of checks) {
        const result = await call(tool, args)
        expect(result.isError, tool).toBe(true)
        const status = await call("electron_status")
        const breadcrumb = JSON.stringify(status.structuredContent.server.lastError)
        expect(status.structuredContent.server.lastError.tool).toBe(tool)
        for (const secret of [...Object.values(planted), "FILE-CONTENT-LINE-ONE", "FILE-CONTENT-LINE-TWO"]) {
          expect(breadcrumb, `${tool} leaked ${secret}`).not.toContain(secret)
          expect(status.content[0].text, `${tool} leaked ${secret}`).not.toContain(secret)
        }
        expect(breadcrumb.length).toBeLessThan(600)
      }
    })
  })
})

describe("MCP cancellation", () => {
  it("notifications/cancelled interrupts the running call, and the server keeps serving", async () => {
    const server = await createServer({ toolProfile: "full", plugins: [samplePlugin], outputDir: mkdtempSync(join(tmpdir(), "sw-cancel-")) })
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
    await server.connect(serverTransport)
    const client = new Client({ name: "cancel-test", version: "1" })
    await client.connect(clientTransport)
    try {
      const marker = join(mkdtempSync(join(tmpdir(), "sw-marker-")), "interrupted")
      const controller = new AbortController()
      const pending = client.callTool({ name: "sample_wait", arguments: { ms: 30_000, marker } }, undefined, { signal: controller.signal })
      // Cancel once the handler runs (its marker says "started").
      await expect.poll(() => existsSync(marker), { timeout: 10_000 }).toBe(true)
      controller.abort("test cancels")
      await expect(pending).rejects.toThrow()
      await expect.poll(() => readFileSync(marker, "utf8"), { timeout: 5_000 }).toBe("interrupted")
      const after = await client.callTool({ name: "sample_echo", arguments: { text: "still serving" } })
      expect((after.content as any)[0].text).toBe("echo: still serving")
    } finally {
      await client.close()
      await server.close()
    }
  })
})
