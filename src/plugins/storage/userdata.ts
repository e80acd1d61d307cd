/**
 * electron_storage_userdata: the files of the app's userData folder (names, sizes, modified times) and a
 * small text file's content, never outside that folder.
 */
import { Effect, Schema } from "effect"
import { lstat, open, readdir } from "node:fs/promises"
import { isAbsolute, join, relative, resolve, sep } from "node:path"
import { realPathOf } from "../../layers/config/paths.js"
import { type ElectronModule } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument, OperationFailed, PathNotAllowed } from "../../tools/contract/errors.js"
import { confine } from "../../tools/policy/confine.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

export const userDataPath = Effect.gen(function* () {
  const call = yield* callHandle
  return yield* call.evaluateMain("read the userData path", ({ app }: ElectronModule) => app.getPath("userData") as string, undefined)
})

const fsCall = <A>(what: string, f: () => Promise<A>) =>
  Effect.tryPromise({ try: f, catch: (cause) => new OperationFailed({ message: `${what}: ${cause instanceof Error ? cause.message : String(cause)}`, cause }) })

/**
 * Resolves `path` (relative to userData) and checks it stays inside, symlinks resolved: `argument` names
 * the input field in the error. The root itself is allowed when `allowRoot`.
 */
export const insideUserData = (root: string, path: string, argument: string, allowRoot = true) =>
  Effect.gen(function* () {
    if (isAbsolute(path) || path.includes("\0")) {
      return yield* new PathNotAllowed({
        message: `${argument}: give a path relative to the userData folder, not ${JSON.stringify(path)}`,
        hint: "List the folder with electron_storage_userdata."
      })
    }
    const target = resolve(root, path)
    // Symlinks resolved on both sides (a link inside userData must not lead out of it).
    const rel = relative(realPathOf(root), realPathOf(target))
    if (rel.startsWith("..") || isAbsolute(rel) || (!allowRoot && rel === "")) {
      return yield* new PathNotAllowed({
        message: `${argument}: ${path} is outside the userData folder ${root}`,
        hint: "Give a path inside userData, as electron_storage_userdata lists it."
      })
    }
    yield* confine([[target, argument]])
    return target
  })

interface Listed {
  readonly path: string
  readonly dir: boolean
  readonly size: number
  readonly modified: string
}

const walk = (root: string, from: string, depth: number, out: Array<Listed>, cap: number): Effect.Effect<void, OperationFailed> =>
  Effect.gen(function* () {
    const names = (yield* fsCall(`list ${from}`, () => readdir(from))).sort()
    for (const name of names) {
      if (out.length >= cap) return
      const full = join(from, name)
      const stat = yield* Effect.promise(() => lstat(full).catch(() => undefined))
      if (stat === undefined) continue
      out.push({ path: relative(root, full).split(sep).join("/"), dir: stat.isDirectory(), size: stat.size, modified: stat.mtime.toISOString() })
      if (stat.isDirectory() && depth > 1) yield* walk(root, full, depth - 1, out, cap)
    }
  })

const sizeText = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} kB` : `${(n / 1024 / 1024).toFixed(1)} MB`)

export const userDataTool = defineTool({
  name: "electron_storage_userdata",
  description:
    "The app's userData folder (app.getPath('userData')): files and folders with sizes and modified times, or, given a file, its text (bounded; binary files are refused). Paths are relative to userData and never leave it.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "PATH_NOT_ALLOWED", "OPERATION_FAILED"],
  input: Schema.Struct({
    path: Schema.optional(Schema.String).annotations({ description: "file or folder relative to userData, default the folder" }),
    depth: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 5))).annotations({ description: "folder levels to list, default 2" }),
    maxBytes: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 65_536))).annotations({ description: "bytes of a file to show, default 4000" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const root = yield* userDataPath
      const target = yield* insideUserData(root, input.path ?? ".", "path")
      const stat = yield* Effect.promise(() => lstat(target).catch(() => undefined))
      if (stat === undefined) {
        return yield* new InvalidArgument({
          message: `path: ${input.path ?? "."} does not exist in ${root}`,
          hint: "List the folder with electron_storage_userdata (no path)."
        })
      }
      if (stat.isDirectory()) {
        const listed: Array<Listed> = []
        yield* walk(target, target, input.depth ?? 2, listed, 200)
        const lines = listed.map((f) => `${f.path}${f.dir ? "/" : `  ${sizeText(f.size)}`}  ${f.modified.slice(0, 19).replace("T", " ")}`)
        const where = input.path === undefined ? root : `${input.path} in ${root}`
        return answer(
          `${where}: ${listed.length === 0 ? "empty" : `${listed.length}${listed.length >= 200 ? "+ (first 200)" : ""} entries`}\n${lines.join("\n")}`.trimEnd(),
          { userData: root, path: input.path ?? ".", entries: listed }
        )
      }
      if (!stat.isFile()) return yield* new InvalidArgument({ message: `path: ${input.path} is neither a file nor a folder`, hint: "Give a regular file." })
      const max = input.maxBytes ?? 4_000
      const bytes = yield* fsCall(`read ${input.path}`, async () => {
        const handle = await open(target, "r")
        try {
          const buffer = Buffer.alloc(Math.min(max, stat.size))
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
          return buffer.subarray(0, bytesRead)
        } finally {
          await handle.close()
        }
      })
      if (bytes.includes(0)) {
        return yield* new InvalidArgument({
          message: `path: ${input.path} is a binary file (${sizeText(stat.size)}); only text files are shown`,
          hint: "Its size and date are in the folder listing."
        })
      }
      const text = bytes.toString("utf8")
      const cut = stat.size > bytes.length ? `\n… cut at ${bytes.length} of ${stat.size} bytes (maxBytes)` : ""
      return answer(`${input.path} (${sizeText(stat.size)}, modified ${stat.mtime.toISOString().slice(0, 19).replace("T", " ")}):\n${text}${cut}`, {
        userData: root,
        path: input.path,
        size: stat.size,
        modified: stat.mtime.toISOString(),
        truncated: stat.size > bytes.length,
        content: text
      })
    })
})
