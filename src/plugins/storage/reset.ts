/**
 * electron_storage_reset: clears the app's web storage (session.clearStorageData on the default session
 * and every window's session) and, when named, files of userData; counts what was there before and after,
 * so the answer says exactly what it cleared.
 */
import { Effect, Schema } from "effect"
import { lstat, rm } from "node:fs/promises"
import { type ElectronModule } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument, OperationFailed } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { insideUserData, userDataPath } from "./userdata.js"
import { originOf } from "./windows.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

/** Electron's clearStorageData storage names. */
const STORAGES = ["cookies", "filesystem", "indexdb", "localstorage", "shadercache", "websql", "serviceworkers", "cachestorage"] as const

interface PageCensus {
  readonly window: string
  readonly origin: string
  readonly localKeys: number
  readonly databases: number
}

/** Runs in a page: how many localStorage keys and IndexedDB databases its origin has. */
const pageCounts = async () => {
  let localKeys = -1
  let databases = -1
  try {
    localKeys = window.localStorage.length
  } catch {
    /* opaque origin */
  }
  try {
    databases = (await indexedDB.databases()).length
  } catch {
    /* not available */
  }
  return { localKeys, databases }
}

/** Runs in the main process: the distinct sessions (default + windows') and their cookie counts. */
const cookieCount = async ({ session, BrowserWindow }: ElectronModule) => {
  const sessions = new Set([session.defaultSession, ...BrowserWindow.getAllWindows().map((w) => w.webContents.session)])
  let count = 0
  for (const s of sessions) count += (await s.cookies.get({})).length
  return { sessions: sessions.size, cookies: count }
}

const census = Effect.gen(function* () {
  const call = yield* callHandle
  const counted = yield* Effect.forEach(
    yield* (yield* callHandle).surfaces(),
    (entry) =>
      call.evaluate(entry, "count storage", pageCounts).pipe(
        Effect.map((counts): PageCensus => ({ window: entry.id, origin: originOf(entry.page.url()), ...counts })),
        Effect.orElseSucceed((): PageCensus => ({ window: entry.id, origin: originOf(entry.page.url()), localKeys: -1, databases: -1 }))
      ),
    { concurrency: "unbounded" }
  )
  const cookies = yield* call.evaluateMain("count cookies", cookieCount, undefined)
  return { pages: counted, ...cookies }
})

/** Runs in the main process: clearStorageData on every distinct session. */
const clearSessions = async ({ session, BrowserWindow }: ElectronModule, options: { storages?: Array<string>; origin?: string }) => {
  const sessions = new Set([session.defaultSession, ...BrowserWindow.getAllWindows().map((w) => w.webContents.session)])
  // "websql" is no longer in Electron 45's published storages; older Electrons (and the stand-in) take it.
  for (const s of sessions) await s.clearStorageData(options as Parameters<typeof s.clearStorageData>[0])
  return sessions.size
}

const count = (n: number) => (n < 0 ? "?" : String(n))

export const resetTool = defineTool({
  name: "electron_storage_reset",
  description:
    "DESTRUCTIVE: clear the app's web storage (clearStorageData on every session: cookies, localStorage, IndexedDB, caches...; every origin unless origin) and delete the userData files named, so the next launch starts fresh. Reports counts before/after. Relaunch after: the app keeps its in-memory state.",
  type: "lifecycle",
  idempotent: true,
  destructive: true,
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "PATH_NOT_ALLOWED", "OPERATION_FAILED"],
  input: Schema.Struct({
    storages: Schema.optional(Schema.Array(Schema.Literal(...STORAGES)).pipe(Schema.minItems(1))).annotations({ description: "default all" }),
    origin: Schema.optional(
      Schema.String.pipe(Schema.pattern(/^[a-z][a-z0-9+.-]*:\/\/[^\s/]*$/, { message: () => "an origin like https://host:port" }))
    ).annotations({
      description: "only this origin (scheme://host[:port])"
    }),
    files: Schema.optional(Schema.Array(Schema.String).pipe(Schema.maxItems(50))).annotations({
      description: "userData files to delete (relative paths)"
    })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      // Check every file before anything is cleared: a bad name stops the reset whole.
      const root = yield* userDataPath
      const files = yield* Effect.forEach(input.files ?? [], (file, i) =>
        Effect.gen(function* () {
          const path = yield* insideUserData(root, file, `files[${i}]`, false)
          const stat = yield* Effect.promise(() => lstat(path).catch(() => undefined))
          if (stat?.isDirectory())
            return yield* new InvalidArgument({
              message: `files[${i}]: ${file} is a folder; only files are deleted`,
              hint: "Name the files inside it (electron_storage_userdata lists them)."
            })
          return { file, path, size: stat?.size }
        })
      )
      const before = yield* census
      const options = { ...(input.storages ? { storages: [...input.storages] } : {}), ...(input.origin ? { origin: input.origin } : {}) }
      const sessions = yield* call.evaluateMain("clear the storage data", clearSessions, options)
      const deleted: Array<string> = []
      const missing: Array<string> = []
      for (const f of files) {
        if (f.size === undefined) {
          missing.push(f.file)
          continue
        }
        yield* Effect.tryPromise({
          try: () => rm(f.path, { force: true }),
          catch: (cause) =>
            new OperationFailed({
              message: `could not delete ${f.file}: ${String(cause)}`,
              hint: "Storage was cleared already; retry with the remaining files."
            })
        })
        deleted.push(`${f.file} (${f.size} B)`)
      }
      const after = yield* census
      const what = input.storages
        ? input.storages.join(", ")
        : "all storage types (cookies, localStorage, IndexedDB, cache storage, service workers, file system, WebSQL, shader cache)"
      const lines = [
        `Cleared ${what} of ${sessions} session${sessions === 1 ? "" : "s"}${input.origin ? ` for ${input.origin}` : " for every origin"}.`,
        `Cookies: ${before.cookies} → ${after.cookies}.`,
        ...before.pages.map((p) => {
          const later = after.pages.find((q) => q.window === p.window)
          return `${p.window} ${p.origin}: localStorage keys ${count(p.localKeys)} → ${count(later?.localKeys ?? -1)}, IndexedDB databases ${count(p.databases)} → ${count(later?.databases ?? -1)}.`
        }),
        input.files
          ? `userData files deleted: ${deleted.join(", ") || "none"}${missing.length > 0 ? `; not found: ${missing.join(", ")}` : ""}.`
          : "No userData files deleted (name them in files).",
        "sessionStorage lives with each open page; the app still holds what it loaded in memory: electron_close then electron_launch to start fresh."
      ]
      return answer(lines.join("\n"), { sessions, storages: input.storages ?? "all", origin: input.origin ?? null, before, after, deleted, missing })
    })
})
