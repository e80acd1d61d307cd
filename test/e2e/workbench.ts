/**
 * The workbench sample app (test/fixtures/apps/workbench) launched through an MCP client, for the
 * end-to-end tests of editors, dropped files, key sequences and app events.
 */
import { expect } from "@effect/vitest"
import { join } from "node:path"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"
import type { CreateServerOptions } from "../../src/index.js"

export const workbenchApp = join(packageRoot(), "test", "fixtures", "apps", "workbench")

/** A client with the workbench app launched and its page ready. */
export const launchWorkbench = async (options: CreateServerOptions = {}): Promise<TestClient> => {
  const mcp = await inMemoryClient(options)
  const launched = await mcp.call("electron_launch", { app: workbenchApp, env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  const ready = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]', state: "attached" })
  expect(ready.isError, ready.text).toBe(false)
  return mcp
}
