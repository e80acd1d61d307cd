/**
 * electron_storage_snapshot: what an origin stores, in one call — local and session storage, IndexedDB
 * databases with their stores and record counts, and the cookies (values hidden unless asked for).
 */
import { Effect, Schema } from "effect"
import { defineTool } from "../../tools/contract/Tool.js"
import { databaseLines, readDatabases } from "./indexeddb.js"
import { cookiesOf, describeCookie, shownCookie, type Cookie } from "./session.js"
import { storageInPage } from "./web.js"
import { OptionalWindow, Origin, pageFor } from "./windows.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

const MAX_COOKIES = 50
const MAX_KEYS = 20

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

export const snapshotTool = defineTool({
  name: "electron_storage_snapshot",
  description:
    "Everything an origin stores, in one call, from a window showing it: local/sessionStorage (20 keys each), IndexedDB databases, stores and record counts, cookies (file://: all of the session; values hidden unless showCookieValues).",
  type: "read",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "OPERATION_FAILED"],
  input: Schema.Struct({ origin: Origin, window: OptionalWindow, showCookieValues: Schema.optional(Schema.Boolean) }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const { entry, origin } = yield* pageFor(input)
      const web = yield* call.evaluate(entry, "read web storage", storageInPage, { action: "read", areas: ["local", "session"] })
      const idb = yield* call.evaluate(entry, "read IndexedDB", readDatabases, null)
      const http = origin.startsWith("http://") || origin.startsWith("https://")
      // Cookies live in the window's session, read from the main process; without one they are left out, and said so.
      const cookies = yield* call.evaluateWindow(entry, "read cookies", cookiesOf, { action: "list", filter: http ? { url: `${origin}/` } : {} }).pipe(
        Effect.map((list): ReadonlyArray<Cookie> | string => list),
        Effect.catchTag("NeedsMainProcess", (e) => Effect.succeed(`not readable: ${e.message}`))
      )
      const show = input.showCookieValues === true
      const areaLines = web.areas.flatMap((area) => [
        `${area.area}Storage: ${plural(area.count, "key")}, ${area.chars} chars`,
        ...area.items.slice(0, MAX_KEYS).map((i) => `  ${i.key} = ${JSON.stringify(i.value)}${i.length > 300 ? ` (${i.length} chars)` : ""}`),
        ...(area.count > MAX_KEYS ? [`  … ${area.count - MAX_KEYS} more keys (electron_storage_local lists 100)`] : [])
      ])
      const idbLines = !idb.supported
        ? ["IndexedDB: not available"]
        : [`IndexedDB: ${plural(idb.databases.length, "database")}`, ...databaseLines(idb.databases).map((block) => block.replace(/^/gm, "  "))]
      const scope = http ? `sent to ${origin}` : `all of ${entry.id}'s session`
      const cookieLines =
        typeof cookies === "string"
          ? [`Cookies: ${cookies}`]
          : [
              `Cookies (${scope}): ${cookies.length}${!show && cookies.length > 0 ? ", values hidden (showCookieValues=true shows them)" : ""}`,
              ...cookies.slice(0, MAX_COOKIES).map((c) => `  ${describeCookie(c, show)}`),
              ...(cookies.length > MAX_COOKIES ? [`  … ${cookies.length - MAX_COOKIES} more (electron_storage_cookies filters them)`] : [])
            ]
      return answer([`Storage of ${origin} (${entry.id}):`, ...areaLines, ...idbLines, ...cookieLines].join("\n"), {
        origin,
        window: entry.id,
        areas: web.areas.map((a) => ({ ...a, items: a.items.slice(0, MAX_KEYS) })),
        indexedDb: idb.supported ? idb.databases : null,
        cookies: typeof cookies === "string" ? null : cookies.slice(0, MAX_COOKIES).map((c) => shownCookie(c, show)),
        ...(typeof cookies === "string" ? { cookiesNote: cookies } : { cookieCount: cookies.length })
      })
    })
})
