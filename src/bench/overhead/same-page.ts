/**
 * The direct reference on the same page: playwright-core's direct reads made on a Stagewright runner's own app,
 * over a second CDP connection to it, in the same interleaved rounds. Each runner launches its own app, and apps
 * of one run differ by up to ~10% on the same calls (bench/overhead-issue42.md, ninth pass): a ratio to the
 * direct runner's app carries that difference, a ratio to the same page does not.
 *
 * Reads only: they leave the page as it was. A direct action on the same page would change what the runner's
 * next action meets (a check already checked is no click; a snapshot's change summary would see the direct
 * runner's changes), so actions keep the direct runner's own app as their reference.
 *
 * The app's port is the runner's own server's answer: its app's pid (electron_status) among the running apps
 * electron_attach lists. A real Electron launched by playwright-core with port 0 writes its port where that
 * listing cannot read it: the same-page runners need the stand-in.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { chromium, type Browser, type Page } from "playwright-core"
import type { Runner } from "./runners.js"

type Structured = { structuredContent?: Record<string, unknown> }

/** The debugging port of the app the client's server runs: its pid (electron_status) among the running apps (electron_attach's listing). */
const appPort = async (client: Client): Promise<number> => {
  const status = (await client.callTool({ name: "electron_status", arguments: {} })) as Structured
  const pid = (status.structuredContent?.["app"] as { pid?: unknown } | undefined)?.pid
  if (typeof pid !== "number") throw new Error(`electron_status gave no app pid: ${JSON.stringify(status.structuredContent)}`)
  const listing = (await client.callTool({ name: "electron_attach", arguments: {} })) as Structured
  const apps = (listing.structuredContent?.["apps"] ?? []) as ReadonlyArray<{ pid?: number; port?: number }>
  const port = apps.find((app) => app.pid === pid)?.port
  if (port === undefined) throw new Error(`the app (pid ${pid}) is not among the running apps electron_attach lists: ${JSON.stringify(apps)}`)
  return port
}

/** The page of `browser` that shows the tasks board. */
const boardPage = async (browser: Browser): Promise<Page> => {
  for (const context of browser.contexts()) {
    for (const page of context.pages()) if ((await page.locator("[data-testid=board-name]").count()) === 1) return page
  }
  throw new Error("no page of the app shows the tasks board")
}

/** Direct reads on `host`'s page (set up after it, torn down after it): its name and MCP client are what is used. */
export const samePageRunner = (host: Pick<Runner, "name" | "client">): Runner => {
  let browser: Browser | undefined
  let page: Page | undefined
  return {
    name: `direct on ${host.name}'s page`,
    kinds: new Set(["read"]),
    reference: host.name,
    setup: async () => {
      if (host.client === undefined) throw new Error(`${host.name} has no MCP client to ask for its app`)
      browser = await chromium.connectOverCDP(`http://127.0.0.1:${await appPort(host.client())}`, { timeout: 30_000 })
      page = await boardPage(browser)
    },
    call: async (type, i) => {
      await type.direct(page!, i)
    },
    // The host closed its app first: the connection may be gone already.
    teardown: async () => {
      await browser?.close().catch(() => undefined)
    }
  }
}
