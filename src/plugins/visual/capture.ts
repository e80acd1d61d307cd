/**
 * Captures for the visual plugin: a PNG of the active window's viewport or of one target, with the
 * window size and device scale factor it was taken at; and the baseline folder and its files.
 */
import { Effect, Schema } from "effect"
import { join } from "node:path"
import { outputPath } from "../../layers/config/paths.js"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { type Surface } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { callHandle } from "../../tools/contract/handle.js"

export const BaselineName = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/)).annotations({ description: "baseline name" })

/** What a capture was taken at: stored beside each baseline as <name>.json. */
export interface CaptureInfo {
  readonly window: { readonly width: number; readonly height: number }
  readonly deviceScaleFactor: number
  readonly image: { readonly width: number; readonly height: number }
  readonly target?: string | undefined
  readonly takenAt: string
}

export const baselineDir = Effect.map(ServerConfig, (config) => config.visualDir ?? join(config.outputDir, "visual-baselines"))

/** The PNG and sidecar paths of a baseline; the name never leaves the folder. */
export const baselinePaths = (name: string) =>
  Effect.gen(function* () {
    const dir = yield* baselineDir
    const png = outputPath(dir, `${name}.png`, ".png")
    if (typeof png !== "string") return yield* png
    return { dir, png, json: png.replace(/\.png$/, ".json") }
  })

export const describeCapture = (info: CaptureInfo): string =>
  `window ${info.window.width}x${info.window.height} @${info.deviceScaleFactor}x, image ${info.image.width}x${info.image.height}${info.target ? `, target ${info.target}` : ""}`

/** A PNG of the window's viewport or of a target, with its capture information. */
export const capture = (entry: Surface, target: string | undefined) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    const view = yield* call.evaluate(entry, "read the window size", () => ({
      width: window.innerWidth,
      height: window.innerHeight,
      deviceScaleFactor: window.devicePixelRatio
    }))
    let png: Buffer
    let origin = { x: 0, y: 0 }
    if (target !== undefined) {
      const locator = yield* call.locate(entry, target)
      const box = yield* call.run(`find ${target}`, () => locator.boundingBox({ timeout: 5_000 }))
      if (box === null)
        return yield* new InvalidArgument({
          message: `target: ${target} is not visible`,
          hint: "Pick a visible element (electron_find), or omit target for the whole window."
        })
      origin = { x: box.x, y: box.y }
      png = yield* call.run(`screenshot ${target}`, () => locator.screenshot({ animations: "disabled", caret: "hide", timeout: 10_000 }))
    } else {
      png = yield* call.run("screenshot the window", () => entry.page.screenshot({ animations: "disabled", caret: "hide", timeout: 10_000 }))
    }
    return { png, origin, view, target }
  })
