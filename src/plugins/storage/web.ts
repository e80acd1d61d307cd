/**
 * electron_storage_local: local and session storage (read, set, remove, clear), run in a page of the origin.
 */
import { Effect, Schema } from "effect"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { OptionalWindow, Origin, pageFor } from "./windows.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

type Area = "local" | "session"

export interface AreaContent {
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
export const storageInPage = (op: StorageOp): { readonly areas: ReadonlyArray<AreaContent>; readonly removed: boolean | null } => {
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
        return yield* new InvalidArgument({
          message: `key: required to ${action}`,
          hint: 'Example: { "action": "set", "key": "tasks.filter", "value": "open" }'
        })
      }
      if (action === "set" && input.value === undefined) {
        return yield* new InvalidArgument({
          message: "value: required to set (a string)",
          hint: 'Example: { "action": "set", "key": "tasks.filter", "value": "open" }'
        })
      }
      const call = yield* callHandle
      const { entry, origin } = yield* pageFor(input)
      const areas: ReadonlyArray<Area> = input.area !== undefined ? [input.area] : action === "read" ? ["local", "session"] : ["local"]
      const op: StorageOp = { action, areas, key: input.key, value: input.value }
      const result = yield* call.evaluate(entry, `${action} ${areas[0]}Storage`, storageInPage, op)
      const contents = result.areas
      const done =
        action === "set"
          ? `Set ${areas[0]}Storage["${input.key}"]. `
          : action === "remove"
            ? result.removed === true
              ? `Removed ${areas[0]}Storage["${input.key}"]. `
              : `${areas[0]}Storage had no key "${input.key}" (nothing removed). `
            : action === "clear"
              ? `Cleared ${areas[0]}Storage. `
              : ""
      const body = contents.map((c) => {
        const head = `${c.area}Storage of ${origin} (${entry.id}): ${c.count} key${c.count === 1 ? "" : "s"}, ${c.chars} chars`
        const lines = c.items.map((i) => `  ${i.key} = ${JSON.stringify(i.value)}${i.length > 300 ? ` (${i.length} chars)` : ""}`)
        return [head, ...lines, ...(c.count > c.items.length ? [`  … ${c.count - c.items.length} more keys`] : [])].join("\n")
      })
      return answer(`${done}${body.join("\n")}`, { origin, window: entry.id, action, areas: contents })
    })
})
