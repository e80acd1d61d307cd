/**
 * electron_upload_file: the files of an `<input type=file>` (Playwright's setInputFiles), or files dropped
 * on any other element as a drag from the desktop would drop them: dragenter, dragover and drop carrying a
 * DataTransfer whose File objects are built in the page from the files' bytes. An element whose dragover
 * nobody cancels is no drop target (a real drag could not drop there): the call fails NOT_INTERACTABLE and
 * no drop is dispatched. The paths are confined to --app-root (`files`), and what is dropped is bounded.
 */
import { Effect, Schema } from "effect"
import { existsSync } from "node:fs"
import { readFile, stat } from "node:fs/promises"
import { basename, extname, resolve } from "node:path"
import { pageFunction } from "../../layers/driver/ElectronDriver.js"
import { dialogResult } from "../modal/dialogs.js"
import { callHandle } from "../contract/handle.js"
import { InvalidArgument, NotInteractable } from "../contract/errors.js"
import { DEFAULT_ACTION_TIMEOUT, Target, TimeoutMs } from "../contract/shapes.js"
import { stepCode } from "../contract/step-code.js"
import { defineTool } from "../contract/Tool.js"
import { answer } from "../contract/respond.js"

/** The most that is dropped in one call, all files together (their bytes cross to the page as base64). */
export const MAX_DROP_BYTES = 8 * 1024 * 1024

const MIME: Readonly<Record<string, string>> = {
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".csv": "text/csv",
  ".html": "text/html",
  ".css": "text/css",
  ".js": "text/javascript",
  ".json": "application/json",
  ".xml": "application/xml",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".svg": "image/svg+xml",
  ".webp": "image/webp"
}

interface DroppedFile {
  readonly path: string
  readonly name: string
  readonly type: string
  readonly lastModified: number
  readonly data: string
}

/** Reads the files to drop (regular files only, MAX_DROP_BYTES in all), without blocking the server. */
const readFiles = (paths: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const stats = yield* Effect.forEach(paths, (path) =>
      Effect.tryPromise({
        try: () => stat(path),
        catch: () => new InvalidArgument({ message: `paths: cannot read ${path}`, hint: "Give paths of readable files." })
      })
    )
    const notFiles = paths.filter((_, i) => !stats[i]!.isFile())
    if (notFiles.length > 0)
      return yield* new InvalidArgument({ message: `paths: ${notFiles.join(", ")} not a regular file`, hint: "Drop files, not folders or devices." })
    const total = stats.reduce((sum, s) => sum + s.size, 0)
    if (total > MAX_DROP_BYTES) {
      return yield* new InvalidArgument({
        message: `paths: ${total} bytes in all; at most ${MAX_DROP_BYTES} are dropped in one call`,
        hint: "Drop fewer or smaller files."
      })
    }
    return yield* Effect.forEach(paths, (path, i) =>
      Effect.tryPromise({
        try: () => readFile(path),
        catch: () => new InvalidArgument({ message: `paths: cannot read ${path}`, hint: "Give paths of readable files." })
      }).pipe(
        Effect.map(
          (bytes): DroppedFile => ({
            path,
            name: basename(path),
            type: MIME[extname(path).toLowerCase()] ?? "",
            lastModified: Math.round(stats[i]!.mtimeMs),
            data: bytes.toString("base64")
          })
        )
      )
    )
  })

/** Runs in the page: a DataTransfer holding the files. */
const makeDataTransfer = pageFunction((files: ReadonlyArray<DroppedFile>): DataTransfer => {
  const transfer = new DataTransfer()
  for (const file of files) {
    const binary = atob(file.data)
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    transfer.items.add(new File([bytes], file.name, { type: file.type, lastModified: file.lastModified }))
  }
  return transfer
})

/** Runs in the page: the drag's events on the element; the drop only when its dragover was cancelled (accepted). */
const dispatchDrop = pageFunction((element: Element, transfer: DataTransfer): { accepted: boolean; handled: boolean } => {
  const box = element.getBoundingClientRect()
  const init: DragEventInit = {
    bubbles: true,
    cancelable: true,
    composed: true,
    dataTransfer: transfer,
    clientX: box.x + box.width / 2,
    clientY: box.y + box.height / 2
  }
  element.dispatchEvent(new DragEvent("dragenter", init))
  const over = new DragEvent("dragover", init)
  element.dispatchEvent(over)
  if (!over.defaultPrevented) {
    element.dispatchEvent(new DragEvent("dragleave", init))
    return { accepted: false, handled: false }
  }
  const drop = new DragEvent("drop", init)
  element.dispatchEvent(drop)
  return { accepted: true, handled: drop.defaultPrevented }
})

const isFileInput = pageFunction((element: Element): boolean => element instanceof HTMLInputElement && element.type === "file")

/** The exported test's step: the same DataTransfer, built from the files when the test runs. */
const dropStep = (code: string, files: ReadonlyArray<DroppedFile>) => {
  const meta = JSON.stringify(files.map(({ path, name, type }) => ({ path, name, type })))
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")
  return `await window.${code}.dispatchEvent("drop", { dataTransfer: await window.evaluateHandle((files) => { const dt = new DataTransfer(); for (const f of files) dt.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: f.type })); return dt }, await Promise.all(${meta}.map(async (f) => ({ ...f, data: (await import("node:fs")).readFileSync(f.path).toString("base64") })))) })`
}

export const uploadFile = defineTool({
  name: "electron_upload_file",
  description:
    "Attach files: set the files of an <input type=file> or an open file chooser's ref (an empty list clears it), or drop them on any other element as from the desktop (8 MB in all). Absolute paths, or relative to the server's folder.",
  type: "interact",
  idempotent: true,
  files: ["paths[]"],
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "NOT_INTERACTABLE", "REF_STALE", "INVALID_ARGUMENT", "PATH_NOT_ALLOWED"],
  input: Schema.Struct({
    target: Target,
    paths: Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4_096))).pipe(Schema.maxItems(100)),
    timeoutMs: TimeoutMs(DEFAULT_ACTION_TIMEOUT)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const timeoutMs = input.timeoutMs ?? DEFAULT_ACTION_TIMEOUT
      const paths = input.paths.map((p) => resolve(p))
      const missing = paths.filter((p) => !existsSync(p))
      if (missing.length > 0) {
        return yield* new InvalidArgument({ message: `paths: ${missing.join(", ")} not found`, hint: "Give paths of existing files." })
      }
      const call = yield* callHandle
      // A file chooser the page opened (its row's ref) takes the files as they are.
      const modal = yield* call.modalTarget(input.target)
      if (modal !== undefined) return yield* call.answerModal(modal.state, modal.control, { verb: "files", paths })
      const entry = yield* call.surface(undefined, { input: true })
      const locator = yield* call.locate(entry, input.target)
      let fileInput = false
      yield* call.waitSliced(
        `find ${input.target}`,
        (slice) => locator.evaluate(isFileInput, undefined, { timeout: slice }).then((is) => void (fileInput = is)),
        timeoutMs
      )
      if (fileInput) {
        return yield* call.act({
          target: input.target,
          describe: `set ${paths.length} file(s) on ${input.target}`,
          step: (code) => `await ${code}.setInputFiles(${JSON.stringify(paths)})`,
          timeoutMs,
          wait: "repeat",
          perform: (element, _entry, { timeout }) => element.setInputFiles(paths, { timeout })
        })
      }
      if (paths.length === 0)
        return yield* new InvalidArgument({ message: "paths: nothing to drop", hint: `${input.target} is not a file input: give the files to drop on it.` })
      const files = yield* readFiles(paths)
      const code = yield* stepCode(entry, input.target, locator)
      let outcome = { accepted: false, handled: false }
      const dialog = yield* call.runAction({
        what: `drop ${files.length} file(s) on ${input.target}`,
        timeoutMs,
        ready: (slice) => locator.waitFor({ state: "visible", timeout: slice }),
        perform: async (timeout) => {
          const transfer = await entry.page.evaluateHandle(makeDataTransfer, files)
          try {
            outcome = await locator.evaluate(dispatchDrop, transfer, { timeout })
          } finally {
            await transfer.dispose().catch(() => undefined)
          }
        }
      })
      if (dialog) return yield* dialogResult(dialog, yield* call.modals)
      if (!outcome.accepted) {
        return yield* new NotInteractable({
          message: `${input.target} is not a drop target: no dragover handler accepted the drag, so nothing was dropped`,
          hint: "Drop on the element that shows the drop zone (electron_find), or use an <input type=file> with this tool.",
          details: { retryable: false }
        })
      }
      yield* call.record({ window: entry.id, code: dropStep(code, files) })
      const names = files.map((f) => f.name).join(", ")
      return yield* call.answer(
        answer(`Dropped ${files.length} file(s) on ${code}: ${names}${outcome.handled ? "" : " (no drop handler called preventDefault)"}.`, {
          window: entry.id,
          locator: code,
          dropped: files.map((f) => ({ name: f.name, type: f.type, bytes: Buffer.byteLength(f.data, "base64") })),
          handled: outcome.handled
        }),
        { changesOf: entry }
      )
    })
})
