/**
 * electron_storage_indexeddb: an origin's IndexedDB, run in a page of that origin — its databases (object
 * stores, record counts, key paths, indexes), and by store: read a record or the first ones, list keys,
 * put, delete or clear records. A database or store that does not exist is never created.
 */
import { Effect, Schema } from "effect"
import { InvalidArgument, OperationFailed } from "../../tools/contract/errors.js"
import { answer, cut } from "../../tools/contract/respond.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { OptionalWindow, Origin, pageFor } from "./windows.js"
import { callHandle } from "../../tools/contract/handle.js"

export interface DatabaseInfo {
  readonly name: string
  readonly version: number
  readonly stores: ReadonlyArray<{ readonly name: string; readonly count: number; readonly keyPath: unknown; readonly indexes: ReadonlyArray<string> }>
  readonly error?: string
}

/** Runs in the page: every database (or the named one) with its object stores and their record counts. */
export const readDatabases = async (only: string | null): Promise<{ readonly supported: boolean; readonly databases: ReadonlyArray<DatabaseInfo> }> => {
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

type RecordAction = "get" | "keys" | "set" | "delete" | "clear"

interface RecordOp {
  readonly action: RecordAction
  readonly database: string
  readonly store: string
  readonly hasKey: boolean
  readonly key: unknown
  readonly value: unknown
  readonly limit: number
}

interface Shown {
  readonly key: string
  readonly value?: string
}

type RecordResult =
  | { readonly problem: "unsupported" }
  | { readonly problem: "no-database"; readonly names: ReadonlyArray<string> }
  | { readonly problem: "no-store"; readonly names: ReadonlyArray<string> }
  | { readonly problem: "failed"; readonly message: string }
  | {
      readonly problem: null
      readonly count: number
      readonly before: number
      readonly found: boolean
      readonly records: ReadonlyArray<Shown>
      readonly keyPath: unknown
      readonly autoIncrement: boolean
      readonly stored: string | null
    }

/**
 * Runs in the page: one action on one object store, in one transaction (values are shown as JSON, cut at
 * 300 characters; Dates, binary data, Maps and Sets by a short description).
 */
const recordsInPage = async (op: RecordOp): Promise<RecordResult> => {
  if (typeof indexedDB === "undefined" || typeof indexedDB.databases !== "function") return { problem: "unsupported" }
  const names = (await indexedDB.databases()).map((d) => d.name ?? "").filter((n) => n !== "")
  if (!names.includes(op.database)) return { problem: "no-database", names: names.slice(0, 50) }
  const request = <T>(r: IDBRequest<T>) => new Promise<T>((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))))
  const show = (value: unknown): string => {
    let text: string | undefined
    try {
      text = JSON.stringify(value, (_key, v: unknown) => {
        if (v instanceof Date) return `Date(${v.toISOString()})`
        if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return `(binary, ${(v as ArrayBuffer).byteLength} bytes)`
        if (typeof Blob !== "undefined" && v instanceof Blob) return `(Blob, ${v.size} bytes)`
        if (v instanceof Map) return `(Map, ${v.size} entries)`
        if (v instanceof Set) return `(Set, ${v.size} values)`
        return v
      })
    } catch (error) {
      text = `(not shown: ${String(error)})`
    }
    const shown = text ?? String(value)
    return shown.length > 300 ? `${shown.slice(0, 299)}… (${shown.length} chars)` : shown
  }
  let db: IDBDatabase
  try {
    db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(op.database)
      open.onsuccess = () => resolve(open.result)
      open.onerror = () => reject(open.error)
    })
  } catch (error) {
    return { problem: "failed", message: String(error) }
  }
  try {
    if (!db.objectStoreNames.contains(op.store)) return { problem: "no-store", names: Array.from(db.objectStoreNames) }
    const writes = op.action === "set" || op.action === "delete" || op.action === "clear"
    const tx = db.transaction(op.store, writes ? "readwrite" : "readonly")
    const done = new Promise<void>(
      (resolve, reject) => (
        (tx.oncomplete = () => resolve()), (tx.onerror = () => reject(tx.error)), (tx.onabort = () => reject(tx.error ?? new Error("transaction aborted")))
      )
    )
    // Awaited once every request is made; a failed request ends the transaction, and that is answered below.
    done.catch(() => undefined)
    const os = tx.objectStore(op.store)
    const before = await request(os.count())
    const records: Array<Shown> = []
    let found = false
    let stored: string | null = null
    if (op.action === "get" && op.hasKey) {
      const value = await request(os.get(op.key as IDBValidKey))
      found = value !== undefined
      if (found) records.push({ key: show(op.key), value: show(value) })
    } else if (op.action === "get") {
      const cursor = os.openCursor()
      await new Promise<void>((resolve, reject) => {
        cursor.onerror = () => reject(cursor.error)
        cursor.onsuccess = () => {
          const at = cursor.result
          if (at === null || records.length >= op.limit) return resolve()
          records.push({ key: show(at.key), value: show(at.value) })
          at.continue()
        }
      })
    } else if (op.action === "keys") {
      for (const key of await request(os.getAllKeys(null, op.limit))) records.push({ key: show(key) })
    } else if (op.action === "set") {
      const key = await request(op.hasKey ? os.put(op.value, op.key as IDBValidKey) : os.put(op.value))
      stored = show(key)
    } else if (op.action === "delete") {
      found = (await request(os.count(op.key as IDBValidKey))) > 0
      await request(os.delete(op.key as IDBValidKey))
    } else {
      await request(os.clear())
    }
    const count = await request(os.count())
    const { keyPath, autoIncrement } = os
    await done
    return { problem: null, count, before, found, records, keyPath, autoIncrement, stored }
  } catch (error) {
    return { problem: "failed", message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }
  } finally {
    db.close()
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

/** The lines of a database listing (also the IndexedDB part of an origin's snapshot). */
export const databaseLines = (databases: ReadonlyArray<DatabaseInfo>) =>
  databases.map((db) =>
    [
      `${db.name} v${db.version}: ${db.error !== undefined ? `could not open: ${db.error}` : plural(db.stores.length, "object store")}`,
      ...db.stores.map(
        (s) =>
          `  ${s.name}: ${plural(s.count, "record")}${s.keyPath !== null ? `, keyPath ${JSON.stringify(s.keyPath)}` : ""}${s.indexes.length > 0 ? `, indexes ${s.indexes.join(", ")}` : ""}`
      )
    ].join("\n")
  )

export const indexedDbTool = defineTool({
  name: "electron_storage_indexeddb",
  description:
    "IndexedDB of an origin, from a window showing it. list (default): databases, stores, record counts, key paths, indexes. By database+store: get (key, or the first limit), keys, set (value, key unless the store has a keyPath), delete (key), clear.",
  type: "interact",
  destructive: true,
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "OPERATION_FAILED"],
  input: Schema.Struct({
    action: Schema.optional(Schema.Literal("list", "get", "keys", "set", "delete", "clear")),
    database: Schema.optional(Schema.String.pipe(Schema.maxLength(500))).annotations({ description: "list: only this one" }),
    store: Schema.optional(Schema.String.pipe(Schema.maxLength(500))).annotations({ description: "object store" }),
    key: Schema.optional(Schema.Unknown).annotations({ description: "string, number or array" }),
    value: Schema.optional(Schema.Unknown).annotations({ description: "set: the record" }),
    limit: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 100))).annotations({ description: "get/keys: default 20" }),
    origin: Origin,
    window: OptionalWindow
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const action = input.action ?? "list"
      const call = yield* callHandle
      if (action === "list") {
        const { entry, origin } = yield* pageFor(input)
        const result = yield* call.evaluate(entry, "read IndexedDB", readDatabases, input.database ?? null)
        const where = `${origin} (${entry.id})`
        if (!result.supported) return answer(`IndexedDB is not available in ${where}.`, { origin, window: entry.id, databases: [] })
        if (result.databases.length === 0) {
          return answer(input.database !== undefined ? `${where} has no IndexedDB database "${input.database}".` : `${where} has no IndexedDB databases.`, {
            origin,
            window: entry.id,
            databases: []
          })
        }
        return answer(`IndexedDB of ${where}:\n${databaseLines(result.databases).join("\n")}`, { origin, window: entry.id, databases: result.databases })
      }
      const example = `Example: { "action": "${action}", "database": "app", "store": "items"${action === "set" ? ', "key": 1, "value": { "title": "x" }' : action === "delete" ? ', "key": 1' : ""} }`
      if (input.database === undefined || input.store === undefined) {
        return yield* new InvalidArgument({
          message: `${input.database === undefined ? "database" : "store"}: required to ${action}`,
          hint: `${example}; list shows the databases and stores.`
        })
      }
      if (action === "delete" && input.key === undefined)
        return yield* new InvalidArgument({ message: "key: required to delete (clear empties the store)", hint: example })
      if (action === "set" && input.value === undefined) return yield* new InvalidArgument({ message: "value: required to set", hint: example })
      const { entry, origin } = yield* pageFor(input)
      const op: RecordOp = {
        action,
        database: input.database,
        store: input.store,
        hasKey: input.key !== undefined,
        key: input.key ?? null,
        value: input.value ?? null,
        limit: input.limit ?? 20
      }
      const result = yield* call.evaluate(entry, `${action} in IndexedDB ${input.database}/${input.store}`, recordsInPage, op)
      const where = `${origin} (${entry.id})`
      if (result.problem === "unsupported")
        return yield* new OperationFailed({ message: `IndexedDB is not available in ${where}`, hint: "Pick another window (window) or origin." })
      if (result.problem === "no-database") {
        return yield* new InvalidArgument({
          message: `database: ${where} has no IndexedDB database "${input.database}" (none is created)`,
          hint: `Databases: ${result.names.join(", ") || "none"}.`
        })
      }
      if (result.problem === "no-store")
        return yield* new InvalidArgument({
          message: `store: ${input.database} has no object store "${input.store}"`,
          hint: `Stores: ${result.names.join(", ") || "none"}.`
        })
      if (result.problem === "failed") {
        const keyHint =
          action === "set" ? " A store with a keyPath takes the key from the value (give no key); one without a keyPath or autoIncrement needs a key." : ""
        return yield* new OperationFailed({
          message: `IndexedDB ${action} in ${input.database}/${input.store} failed: ${cut(result.message, 300)}`,
          hint: `Keys are strings, numbers or arrays of them.${keyHint}`
        })
      }
      const at = `${input.database}/${input.store} of ${where}`
      const keyText = input.key !== undefined ? cut(JSON.stringify(input.key), 100) : ""
      const head =
        action === "get" && input.key !== undefined
          ? result.found
            ? `${at}: record ${keyText} =`
            : `${at} has no record with key ${keyText}.`
          : action === "get"
            ? `${at}: ${plural(result.count, "record")}${result.count > result.records.length ? `, first ${result.records.length}` : ""}:`
            : action === "keys"
              ? `${at}: ${plural(result.count, "key")}${result.count > result.records.length ? `, first ${result.records.length}` : ""}:`
              : action === "set"
                ? `Put record ${result.stored} in ${at}; ${plural(result.count, "record")} (was ${result.before}).`
                : action === "delete"
                  ? `${result.found ? `Deleted record ${keyText}` : `No record ${keyText} (nothing deleted)`} in ${at}; ${plural(result.count, "record")}.`
                  : `Cleared ${at}: ${result.before} → 0 records.`
      const lines =
        action === "get" && input.key !== undefined
          ? result.records.map((r) => `  ${r.value}`)
          : result.records.map((r) => (r.value !== undefined ? `  ${r.key}: ${r.value}` : `  ${r.key}`))
      return answer([head, ...lines].join("\n"), {
        origin,
        window: entry.id,
        database: input.database,
        store: input.store,
        action,
        count: result.count,
        records: result.records,
        ...(action === "set" ? { key: result.stored } : {}),
        ...((action === "get" && input.key !== undefined) || action === "delete" ? { found: result.found } : {})
      })
    })
})
