/**
 * electron_storage_cookies: the cookies of a window's session (Electron's session.cookies get/set/remove).
 * Cookie values are session secrets: answers show each value's length only, unless showValues is set.
 */
import { Effect, Schema } from "effect"
import { type BrowserWindowHandle } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument, OperationFailed } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { OptionalWindow } from "./windows.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

export interface Cookie {
  readonly name: string
  readonly value: string
  readonly domain?: string
  readonly path?: string
  readonly secure?: boolean
  readonly httpOnly?: boolean
  readonly session?: boolean
  readonly expirationDate?: number
  readonly sameSite?: string
}

export interface CookieOp {
  readonly action: "list" | "set" | "remove"
  readonly filter: { readonly url?: string; readonly name?: string; readonly domain?: string }
  /** Electron's CookiesSetDetails. */
  readonly details?: {
    readonly url: string
    readonly name: string
    readonly value: string
    readonly domain?: string
    readonly path?: string
    readonly secure?: boolean
    readonly httpOnly?: boolean
    readonly expirationDate?: number
  }
}

/** Runs in the main process on the window's session. */
export const cookiesOf = async (win: BrowserWindowHandle, op: CookieOp): Promise<ReadonlyArray<Cookie>> => {
  const cookies = win.webContents.session.cookies
  // The handler checked that set and remove have a url and a name (and set its details).
  if (op.action === "set") await cookies.set(op.details!)
  if (op.action === "remove") await cookies.remove(op.filter.url!, op.filter.name!)
  return await cookies.get(op.action === "list" ? op.filter : { url: op.filter.url })
}

const Url = Schema.String.pipe(Schema.pattern(/^https?:\/\/\S+$/, { message: () => "an http(s) URL" }))

/** A cookie as the answers give it: its value hidden (its length kept) unless `show`. */
export const shownCookie = (c: Cookie, show: boolean): Cookie => (show ? c : { ...c, value: `(hidden, ${c.value.length} chars)` })

export const describeCookie = (c: Cookie, show: boolean) => {
  const value = !show
    ? `(hidden, ${c.value.length} chars)`
    : c.value.length > 100
      ? `${JSON.stringify(c.value.slice(0, 100))}… (${c.value.length} chars)`
      : JSON.stringify(c.value)
  const flags = [
    c.domain !== undefined ? `domain ${c.domain}` : undefined,
    c.path !== undefined ? `path ${c.path}` : undefined,
    c.secure ? "secure" : undefined,
    c.httpOnly ? "httpOnly" : undefined,
    c.sameSite !== undefined && c.sameSite !== "unspecified" ? `sameSite ${c.sameSite}` : undefined,
    c.session !== false || c.expirationDate === undefined ? "session" : `expires ${new Date(c.expirationDate * 1000).toISOString()}`
  ].filter(Boolean)
  return `${c.name}=${value} (${flags.join(", ")})`
}

export const cookiesTool = defineTool({
  name: "electron_storage_cookies",
  description: "Cookies of a window's session: list (filter by url, name, domain), set one, or remove one (url and name). Values hidden unless showValues.",
  type: "interact",
  destructive: true,
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "WINDOW_NOT_FOUND", "OPERATION_FAILED"],
  input: Schema.Struct({
    action: Schema.optional(Schema.Literal("list", "set", "remove")).annotations({ description: "default list" }),
    url: Schema.optional(Url).annotations({ description: "list: cookies sent to it; set/remove: required" }),
    name: Schema.optional(Schema.String),
    value: Schema.optional(Schema.String).annotations({ description: "set: the value" }),
    domain: Schema.optional(Schema.String),
    path: Schema.optional(Schema.String).annotations({ description: "set: default /" }),
    secure: Schema.optional(Schema.Boolean),
    httpOnly: Schema.optional(Schema.Boolean),
    expires: Schema.optional(Schema.Number).annotations({ description: "set: epoch seconds; none: session cookie" }),
    showValues: Schema.optional(Schema.Boolean),
    window: OptionalWindow
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const action = input.action ?? "list"
      if (action !== "list" && (input.url === undefined || input.name === undefined)) {
        return yield* new InvalidArgument({
          message: `${input.url === undefined ? "url" : "name"}: required to ${action} a cookie`,
          hint: 'Example: { "action": "set", "url": "https://example.com", "name": "sid", "value": "abc" }'
        })
      }
      const call = yield* callHandle
      const entry = yield* call.surface(input.window)
      const filter = {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.domain !== undefined ? { domain: input.domain } : {})
      }
      const details =
        action === "set"
          ? {
              url: input.url!,
              name: input.name!,
              value: input.value ?? "",
              ...(input.domain !== undefined ? { domain: input.domain } : {}),
              ...(input.path !== undefined ? { path: input.path } : {}),
              ...(input.secure !== undefined ? { secure: input.secure } : {}),
              ...(input.httpOnly !== undefined ? { httpOnly: input.httpOnly } : {}),
              ...(input.expires !== undefined ? { expirationDate: input.expires } : {})
            }
          : undefined
      const op: CookieOp = { action, filter, ...(details ? { details } : {}) }
      const cookies = yield* call.evaluateWindow(entry, `${action} cookies`, cookiesOf, op)
      const show = input.showValues === true
      const scope = action === "list" ? (Object.keys(filter).length > 0 ? ` matching ${JSON.stringify(filter)}` : "") : ` for ${input.url}`
      const listing =
        cookies.length > 0
          ? cookies
              .slice(0, 100)
              .map((c) => describeCookie(c, show))
              .join("\n")
          : "none"
      const present = cookies.some((c) => c.name === input.name)
      if (action === "set" && !present) {
        return yield* new OperationFailed({
          message: `Cookie ${input.name} was not stored for ${input.url}`,
          hint: "Check url, domain, path and secure (a secure cookie needs an https url)."
        })
      }
      if (action === "remove" && present) {
        return yield* new OperationFailed({
          message: `Cookie ${input.name} is still sent to ${input.url}`,
          hint: "It may belong to another path or domain: list the cookies with their domain and path."
        })
      }
      const head = action === "set" ? `Set cookie ${input.name}. ` : action === "remove" ? `Removed cookie ${input.name}. ` : ""
      return answer(
        `${head}${cookies.length} cookie${cookies.length === 1 ? "" : "s"} in ${entry.id}'s session${scope}:\n${listing}${cookies.length > 100 ? `\n… ${cookies.length - 100} more` : ""}`,
        {
          action,
          window: entry.id,
          stored: action === "set" ? present : undefined,
          cookies: cookies.slice(0, 100).map((c) => shownCookie(c, show))
        }
      )
    })
})
