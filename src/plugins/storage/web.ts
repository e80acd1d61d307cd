/**
 * electron_storage_local (local and session storage: read, set, remove, clear) and
 * electron_storage_indexeddb (databases, object stores, record counts), run in a page of the origin.
 */
import { Effect, Schema } from "effect"
import { PageOps } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument } from "../../tools/errors.js"
import { defineTool } from "../../tools/Tool.js"
import { OptionalWindow, Origin, pageFor } from "./windows.js"

type Area = "local" | "session"

interface AreaContent {
  readonly area: Area
  readonly count: number
  readonly chars: number
  readonly items: ReadonlyArray<{ readonly key: string; readonly value: string; readonly length: number }>
}

interface StorageOp {
  readonly action: "read" | "set" | "remove" | "clear"
  readonly areas: ReadonlyArray<Area>
  readonly key?: string | undefined
  readonly value?: string | undefined
}

/** Runs in the page: applies the action, then reads the areas (values cut at 300 chars, 100 keys). */
const storageInPage = (op: StorageOp): { readonly areas: ReadonlyArray<AreaContent>; readonly removed: boolean | null } => {
  const storeOf = (area: Area) => (area === "local" ? window.localStorage : window.sessionStorage)
  const first = storeOf(op.areas[0]!)
  if (op.action === "set") first.setItem(op.key!, op.value!)
  const existed = op.action === "remove" ? first.getItem(op.key!) !== null : undefined
  if (op.action === "remove") first.removeItem(op.key!)
  if (op.action === "clear") first.clear()
  const out = op.areas.map((area) => {
    const store = storeOf(area)
    const items: Array<{ key: string; value: string; length: number }> = []
    let chars = 0
    for (let i = 0; i < store.length; i++) {
      const key = store.key(i)!
      const value = store.getItem(key) ?? ""
      chars += key.length + value.length
      if (items.length < 100) items.push({ key, value: value.length > 300 ? `${value.slice(0, 300)}…` : value, length: value.length })
    }
    items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    return { area, count: store.length, chars, items }
  })
  return { areas: out, removed: existed === undefined ? null : existed }
}

export const localTool = defineTool({
  name: "electron_storage_local",
  description:
    "localStorage/sessionStorage of an origin, from a window showing it: read (both areas by default), set or remove a key, or clear an area. Long values are cut in the listing.",
  type: "interact",
  destructive: true,
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "OPERATION_FAILED"],
  input: Schema.Struct({
    action: Schema.optional(Schema.Literal("read", "set", "remove", "clear")).annotations({ description: "default read" }),
    area: Schema.optional(Schema.Literal("local", "session")).annotations({ description: "default local (read: both)" }),
    key: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({ description: "set/remove: the key" }),
    value: Schema.optional(Schema.String).annotations({ description: "set: the value" }),
    origin: Origin,
    window: OptionalWindow
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const action = input.action ?? "read"
      if ((action === "set" || action === "remove") && input.key === undefined) {
        return yield* new InvalidArgument({ message: `key: required to ${action}`, hint: 'Example: { "action": "set", "key": "tasks.filter", "value": "open" }' })
      }
      if (action === "set" && input.value === undefined) {
        return yield* new InvalidArgument({ message: "value: required to set (a string)", hint: 'Example: { "action": "set", "key": "tasks.filter", "value": "open" }' })
      }
      const pages = yield* PageOps
      const { entry, origin } = yield* pageFor(input)
      const areas: ReadonlyArray<Area> = input.area !== undefined ? [input.area] : action === "read" ? ["local", "session"] : ["local"]
      const op: StorageOp = { action, areas, key: input.key, value: input.value }
      const result = yield* pages.evaluate(entry, `${action} ${areas[0]}Storage`, storageInPage, op)
      const contents = result.areas
      const done =
        action === "set" ? `Set ${areas[0]}Storage["${input.key}"]. ` :
        action === "remove" ? (result.removed === true ? `Removed ${areas[0]}Storage["${input.key}"]. ` : `${areas[0]}Storage had no key "${input.key}" (nothing removed). `) :
        action === "clear" ? `Cleared ${areas[0]}Storage. ` : ""
      const body = contents.map((c) => {
        const head = `${c.area}Storage of ${origin} (${entry.id}): ${c.count} key${c.count === 1 ? "" : "s"}, ${c.chars} chars`
        const lines = c.items.map((i) => `  ${i.key} = ${JSON.stringify(i.value)}${i.length > 300 ? ` (${i.length} chars)` : ""}`)
        return [head, ...lines, ...(c.count > c.items.length ? [`  … ${c.count - c.items.length} more keys`] : [])].join("\n")
      })
      return { text: `${done}${body.join("\n")}`, structured: { origin, window: entry.id, action, areas: contents } }
    })
})

interface DatabaseInfo {
  readonly name: string
  readonly version: number
  readonly stores: ReadonlyArray<{ readonly name: string; readonly count: number; readonly keyPath: unknown; readonly indexes: ReadonlyArray<string> }>
  readonly error?: string
}

/** Runs in the page: every database (or the named one) with its object stores and their record counts. */
const readDatabases = async (only: string | null): Promise<{ readonly supported: boolean; readonly databases: ReadonlyArray<DatabaseInfo> }> => {
  if (typeof indexedDB === "undefined" || typeof indexedDB.databases !== "function") return { supported: false, databases: [] }
  const listed = (await indexedDB.databases()).filter((d) => d.name !== undefined && (only === null || d.name === only)).slice(0, 50)
  const request = <T>(r: IDBRequest<T>) => new Promise<T>((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))))
  const databases: Array<DatabaseInfo> = []
  for (const info of listed) {
    const name = info.name!
    try {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name)
        open.onsuccess = () => resolve(open.result)
        open.onerror = () => reject(open.error)
        open.onblocked = () => reject(new Error("blocked by another connection"))
      })
      try {
        const names = Array.from(db.objectStoreNames)
        const stores = []
        if (names.length > 0) {
          const tx = db.transaction(names, "readonly")
          for (const store of names) {
            const os = tx.objectStore(store)
            stores.push({ name: store, count: await request(os.count()), keyPath: os.keyPath, indexes: Array.from(os.indexNames) })
          }
        }
        databases.push({ name, version: db.version, stores })
      } finally {
        db.close()
      }
    } catch (error) {
      databases.push({ name, version: info.version ?? 0, stores: [], error: String(error) })
    }
  }
  return { supported: true, databases }
}

export const indexedDbTool = defineTool({
  name: "electron_storage_indexeddb",
  description: "IndexedDB databases of an origin, from a window showing it: name, version, object stores with record counts, key paths and indexes.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "OPERATION_FAILED"],
  input: Schema.Struct({
    database: Schema.optional(Schema.String).annotations({ description: "only this database" }),
    origin: Origin,
    window: OptionalWindow
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const pages = yield* PageOps
      const { entry, origin } = yield* pageFor(input)
      const result = yield* pages.evaluate(entry, "read IndexedDB", readDatabases, input.database ?? null)
      const where = `${origin} (${entry.id})`
      if (!result.supported) return { text: `IndexedDB is not available in ${where}.`, structured: { origin, window: entry.id, databases: [] } }
      if (result.databases.length === 0) {
        return {
          text: input.database !== undefined ? `${where} has no IndexedDB database "${input.database}".` : `${where} has no IndexedDB databases.`,
          structured: { origin, window: entry.id, databases: [] }
        }
      }
      const lines = result.databases.map((db) =>
        [
          `${db.name} v${db.version}: ${db.error !== undefined ? `could not open: ${db.error}` : `${db.stores.length} object store${db.stores.length === 1 ? "" : "s"}`}`,
          ...db.stores.map((s) => `  ${s.name}: ${s.count} record${s.count === 1 ? "" : "s"}${s.keyPath !== null ? `, keyPath ${JSON.stringify(s.keyPath)}` : ""}${s.indexes.length > 0 ? `, indexes ${s.indexes.join(", ")}` : ""}`)
        ].join("\n")
      )
      return { text: `IndexedDB of ${where}:\n${lines.join("\n")}`, structured: { origin, window: entry.id, databases: result.databases } }
    })
})
