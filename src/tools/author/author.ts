/**
 * Test authoring tools: resilient locator code for an element, and the session's recorded actions and
 * assertions exported as a runnable Playwright Test file that launches the same app with `_electron`.
 */
import { Effect, Schema } from "effect"
import { writeFileSync } from "node:fs"
import { shallow, type AppSession, type RecordedStep } from "../../layers/driver/ElectronDriver.js"
import { installMainHooks } from "../../layers/driver/main-hooks.js"
import { outputPath, timestampedName } from "../../layers/config/paths.js"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { ElementNotFound, InvalidArgument, PathNotAllowed } from "../contract/errors.js"
import { codeString, locatorCode, UNSAFE_CODE_CHARACTERS } from "../contract/step-code.js"
import { defineTool } from "../contract/Tool.js"
import { Target } from "../contract/shapes.js"
import { callHandle } from "../contract/handle.js"
import { answer } from "../contract/respond.js"

export const generateLocator = defineTool({
  name: "electron_generate_locator",
  description:
    "Turn a ref or selector into resilient Playwright locator code (role, label and test id preferred over CSS), and say how many elements it matches now.",
  type: "author",
  idempotent: true,
  readOnly: true,
  errors: ["APP_NOT_RUNNING", "REF_STALE", "ELEMENT_NOT_FOUND"],
  input: Schema.Struct({ target: Target }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface()
      const locator = yield* call.locate(entry, input.target)
      const count = yield* call.count(locator, "count matches")
      if (count === 0) {
        return yield* new ElementNotFound({ message: `Nothing matches ${input.target} in ${entry.id}` })
      }
      const code = yield* Effect.promise(() => shallow(() => locatorCode(locator, input.target)))
      return answer(`window.${code}${count > 1 ? `  // matches ${count} elements: add .first(), .nth(i) or a filter` : ""}`, { code: `window.${code}`, count })
    })
})

const indent = (code: string, spaces: number) =>
  code
    .split("\n")
    .map((line) => " ".repeat(spaces) + line.trimStart())
    .join("\n")

const dialogHandler = (dialog: NonNullable<RecordedStep["dialog"]>) =>
  `window.once("dialog", (dialog) => dialog.${dialog.action === "accept" ? `accept(${dialog.promptText !== undefined ? codeString(dialog.promptText) : ""})` : "dismiss()"})`

/** Text for a `//` comment of generated code: one line, whatever it was given. */
const commentText = (text: string) => text.replace(new RegExp(UNSAFE_CODE_CHARACTERS.source, "g"), " ")

/**
 * The file of a generated spec is inert in every position: the two line terminators that JSON.stringify
 * leaves raw become escapes (the same string inside a literal or a regex, plain text inside a comment).
 */
const inertCode = (code: string) => code.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029")

/** The longest test name export_test takes, its extension included. */
export const MAX_TEST_NAME = 120

/** Why a test file name cannot be used (a single path segment, no control characters, bounded), or undefined. */
export const testNameProblem = (name: string): InvalidArgument | PathNotAllowed | undefined => {
  if (UNSAFE_CODE_CHARACTERS.test(name)) {
    return new InvalidArgument({
      message: "name: a test name cannot hold control characters, line breaks or bidirectional overrides",
      hint: 'Give a plain file name such as "checkout.spec.ts".'
    })
  }
  if (name.trim() === "" || name.length > MAX_TEST_NAME) {
    return new InvalidArgument({
      message: `name: give 1 to ${MAX_TEST_NAME} characters (got ${name.length})`,
      hint: 'Give a plain file name such as "checkout.spec.ts".'
    })
  }
  if (/[\\/]/.test(name) || name === "." || name === "..") {
    return new PathNotAllowed({
      message: `name: "${name}" is not a single file name (no folders)`,
      hint: `Give a plain file name such as "${name.replace(/^.*[\\/]/, "") || "checkout.spec.ts"}"; the file is written in the output folder.`
    })
  }
  return undefined
}

/** The body of the exported test: steps in order, window switches by URL, dialog answers registered first. */
export const renderSteps = (steps: ReadonlyArray<RecordedStep>, firstWindowId: string | undefined): Array<string> => {
  const lines: Array<string> = []
  let currentWindow = firstWindowId
  for (const [index, step] of steps.entries()) {
    if (step.dialog) continue // emitted before the action that opened it
    if (step.window !== "" && step.window !== currentWindow && step.windowUrl !== undefined) {
      lines.push(`window = await windowWithUrl(app, ${codeString(step.windowUrl)}) // ${commentText(step.window)}`)
      currentWindow = step.window
    }
    const next = steps[index + 1]
    if (next?.dialog) lines.push(dialogHandler(next.dialog))
    lines.push(step.code)
  }
  return lines
}

export const renderTest = (session: AppSession, name: string): string => {
  const launch = session.launch!
  const args = [...(launch.app !== undefined ? [launch.app] : []), ...launch.args]
  const env = Object.keys(launch.env).length > 0 ? `{ ...process.env, ...${JSON.stringify(launch.env)} } as Record<string, string>` : undefined
  const title = name.replace(/\.spec\.[cm]?[jt]s$/, "")
  const body = renderSteps(session.steps, "w1")
  // What Stagewright records in the main process (the menus the app pops up), installed as during the session.
  const hooks = session.steps.some((step) => step.mainHooks) ? `${indent(`await app.evaluate(${installMainHooks.toString()})`, 4)}\n` : ""
  return inertCode(`// Exported by Stagewright from an MCP session (${session.steps.length} recorded steps).
// Run: npx playwright test ${commentText(name)}
import { test, expect, _electron, type ElectronApplication, type Page } from "@playwright/test"

/** The app's window whose URL is \`url\`, waiting for it to open and load. */
const windowWithUrl = async (app: ElectronApplication, url: string): Promise<Page> => {
  const deadline = Date.now() + 15_000
  for (;;) {
    const page = app.windows().find((p) => p.url() === url)
    if (page) {
      await page.waitForLoadState("domcontentloaded")
      return page
    }
    if (Date.now() > deadline) throw new Error(\`No window with URL \${url}\`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

test(${codeString(title)}, async () => {
  const app = await _electron.launch({
    executablePath: ${codeString(launch.executablePath)},
    args: ${JSON.stringify(args)},${launch.cwd !== undefined ? `\n    cwd: ${codeString(launch.cwd)},` : ""}${env !== undefined ? `\n    env: ${env},` : ""}
  })
  try {
${hooks}    let window = await app.firstWindow()
    await window.waitForLoadState("domcontentloaded")
${body.map((line) => indent(line, 4)).join("\n")}
  } finally {
    await app.close()
  }
})
`)
}

export const exportTest = defineTool({
  name: "electron_export_test",
  description:
    "Write the session's successful actions and passed assertions as a runnable @playwright/test file that launches the same app with _electron (same executable, app, args, env). Returns the path; inline=true adds the code.",
  type: "author",
  errors: ["APP_NOT_RUNNING", "INVALID_ARGUMENT", "PATH_NOT_ALLOWED"],
  input: Schema.Struct({
    name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))).annotations({ description: "file name, default session-<time>.spec.ts" }),
    inline: Schema.optional(Schema.Boolean)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const config = yield* ServerConfig
      const session = yield* call.current
      if (session === undefined) return yield* call.session.pipe(Effect.as(undefined as never))
      if (session.launch === undefined) {
        return yield* new InvalidArgument({
          message: "This app was attached, not launched: there is no launch to replay",
          hint: "Start the app with electron_launch to record an exportable session."
        })
      }
      if (session.overCdpReason !== undefined) {
        return yield* new InvalidArgument({
          message:
            "This session was launched over CDP, as the build's EnableNodeCliInspectArguments fuse is off: playwright-core's _electron.launch, which an exported test uses, cannot start it",
          hint: "Record the session on a build whose EnableNodeCliInspectArguments fuse is on, then export."
        })
      }
      if (session.steps.length === 0) {
        return yield* new InvalidArgument({
          message: "Nothing recorded yet: act or assert first",
          hint: "Actions (electron_click, electron_fill…) and passed assertions (electron_expect_*) are recorded."
        })
      }
      const requested = input.name ?? timestampedName("session", ".spec.ts")
      const problem = testNameProblem(requested)
      if (problem !== undefined) return yield* problem
      const name = /\.spec\.[cm]?[jt]s$/.test(requested) ? requested : `${requested.replace(/\.[cm]?[jt]s$/, "")}.spec.ts`
      const path = outputPath(config.outputDir, name, ".spec.ts")
      if (typeof path !== "string") return yield* path
      const code = renderTest(session, name)
      yield* Effect.try({
        try: () => writeFileSync(path, code),
        catch: (cause) => new InvalidArgument({ message: `Could not write ${path}: ${String(cause)}`, hint: "Check that the output folder is writable." })
      })
      const bytes = Buffer.byteLength(code)
      return answer(`Wrote ${path} (${session.steps.length} steps, ${bytes} bytes).${input.inline === true ? `\n\n${code}` : ""}`, {
        path,
        steps: session.steps.length,
        bytes
      })
    })
})

export const authorTools = [generateLocator, exportTest]
