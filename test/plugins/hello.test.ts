/**
 * The third-party example (examples/plugin-hello) through the real CLI: `node dist/cli.js serve --plugin
 * ./examples/plugin-hello/index.js --plugin-config hello=...` over stdio with the MCP SDK client. It is
 * listed with its tool and its configuration (the secret redacted), its tool runs with the configured
 * greeting, and a broken configuration value stops the server naming the plugin and the field.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { runCli } from "../support/cli.js"
import { stdioClient, type TestClient } from "../support/mcp.js"

const PLUGIN = "./examples/plugin-hello/index.js"
let mcp: TestClient

beforeAll(async () => {
  mcp = await stdioClient(["--plugin", PLUGIN, "--plugin-config", 'hello={"greeting":"Howdy","token":"s3cret-value"}'])
})

afterAll(async () => {
  await mcp?.close()
})

describe("examples/plugin-hello through the CLI", () => {
  it("is listed by electron_plugins with its tool and its configuration, the secret redacted", async () => {
    const tools = await mcp.client.listTools()
    expect(tools.tools.map((t) => t.name)).toContain("electron_hello_greet")
    const listed = await mcp.call("electron_plugins")
    expect(listed.isError, listed.text).toBe(false)
    expect(listed.text).toContain("hello: An example third-party plugin: a configured greeting.\n  electron_hello_greet")
    expect(listed.text).toContain('config: {"greeting":"Howdy","token":"<redacted>"}')
    expect(JSON.stringify(listed.raw)).not.toContain("s3cret-value")
  })

  it("runs its tool with the configured greeting, and refuses bad input", async () => {
    const greeted = await mcp.call("electron_hello_greet", { name: "Ada" })
    expect(greeted.isError, greeted.text).toBe(false)
    expect(greeted.text).toBe("Howdy, Ada! (no app is running; a token is configured)")
    expect(JSON.stringify(greeted.raw)).not.toContain("s3cret-value")
    const bad = await mcp.call("electron_hello_greet", { name: "" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("a broken plugin-config value stops the server at start-up, naming the plugin and the field", async () => {
    const broken = await runCli(["serve", "--plugin", PLUGIN, "--plugin-config", 'hello={"greeting":""}'])
    expect(broken.status).not.toBe(0)
    expect(broken.stderr).toContain("--plugin-config hello: greeting:")
    expect(broken.stdout).toBe("")
    const wrongType = await runCli(["serve", "--plugin", PLUGIN, "--plugin-config", 'hello={"token":42}'])
    expect(wrongType.status).not.toBe(0)
    expect(wrongType.stderr).toContain("--plugin-config hello: token:")
  })
})
