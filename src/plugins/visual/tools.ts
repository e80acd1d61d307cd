/**
 * electron_visual_compare, electron_visual_update_baseline and electron_visual_baselines.
 */
import { Effect, Schema } from "effect"
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import pixelmatch from "pixelmatch"
import { PNG } from "pngjs"
import { outputPath, realPathOf, specialFile, timestampedName } from "../../layers/config/paths.js"
import { readJsonFile } from "../../layers/config/read-file.js"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { InvalidArgument, OperationFailed } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { Target } from "../../tools/contract/shapes.js"
import { BaselineName, baselineDir, baselinePaths, capture, describeCapture, type CaptureInfo } from "./capture.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

/** A baseline's facts: read as a regular file only, bounded (never a FIFO or a device). */
const readInfo = (path: string): CaptureInfo | undefined => readJsonFile(path, 64 * 1024) as CaptureInfo | undefined

const infoOf = (
  shot: { png: Buffer; view: { width: number; height: number; deviceScaleFactor: number }; target: string | undefined },
  image: PNG
): CaptureInfo => ({
  window: { width: shot.view.width, height: shot.view.height },
  deviceScaleFactor: shot.view.deviceScaleFactor,
  image: { width: image.width, height: image.height },
  ...(shot.target !== undefined ? { target: shot.target } : {}),
  takenAt: new Date().toISOString()
})

const Region = Schema.Struct({ x: Schema.Number, y: Schema.Number, width: Schema.Number, height: Schema.Number })

/** Paints a region (CSS px, relative to the capture) black in an RGBA image. */
const blank = (image: PNG, region: { x: number; y: number; width: number; height: number }, scale: number) => {
  const x0 = Math.max(0, Math.floor(region.x * scale))
  const y0 = Math.max(0, Math.floor(region.y * scale))
  const x1 = Math.min(image.width, Math.ceil((region.x + region.width) * scale))
  const y1 = Math.min(image.height, Math.ceil((region.y + region.height) * scale))
  for (let y = y0; y < y1; y++) image.data.fill(0, (y * image.width + x0) * 4, (y * image.width + x1) * 4)
}

export const compareTool = defineTool({
  name: "electron_visual_compare",
  description:
    "Compares the active window (or a target) with a named baseline: mismatch ratio, diff image file, both captures' window size and scale. Baselines come from electron_visual_update_baseline.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "ELEMENT_NOT_FOUND", "REF_STALE", "PATH_NOT_ALLOWED", "OPERATION_FAILED"],
  input: Schema.Struct({
    name: BaselineName,
    target: Schema.optional(Target),
    threshold: Schema.optional(Schema.Number.pipe(Schema.between(0, 1))).annotations({ description: "colour tolerance, default 0.1" }),
    includeAA: Schema.optional(Schema.Boolean).annotations({ description: "count anti-aliased pixels, default false" }),
    mask: Schema.optional(Schema.Array(Schema.Union(Region, Schema.String)).pipe(Schema.maxItems(50))).annotations({
      description: "areas to ignore: {x,y,width,height} in CSS px of the capture, or targets"
    })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const config = yield* ServerConfig
      const entry = yield* call.surface()
      const paths = yield* baselinePaths(input.name)
      if (!existsSync(paths.png)) {
        const known = existsSync(paths.dir)
          ? readdirSync(paths.dir)
              .filter((f) => f.endsWith(".png"))
              .map((f) => f.slice(0, -4))
          : []
        return yield* new InvalidArgument({
          message: `name: no baseline "${input.name}" in ${paths.dir}${known.length > 0 ? ` (have: ${known.slice(0, 20).join(", ")})` : ""}`,
          hint: "Create it with electron_visual_update_baseline, or list them with electron_visual_baselines."
        })
      }
      // A baseline is read as a regular file only (a FIFO or a device planted in the folder is refused unread).
      if (specialFile(realPathOf(paths.png)) !== undefined) {
        return yield* new InvalidArgument({
          message: `name: the baseline "${input.name}" is not a regular file`,
          hint: "Replace it with electron_visual_update_baseline."
        })
      }
      const base = PNG.sync.read(readFileSync(paths.png))
      const baseInfo = readInfo(paths.json)
      const shot = yield* capture(entry, input.target)
      const current = PNG.sync.read(shot.png)
      const currentInfo = infoOf(shot, current)
      const sizes = `baseline ${baseInfo ? describeCapture(baseInfo) : `image ${base.width}x${base.height}`}; current ${describeCapture(currentInfo)}`
      if (base.width !== current.width || base.height !== current.height) {
        return yield* new OperationFailed({
          message: `Cannot compare "${input.name}": the images differ in size (${sizes})`,
          hint: "Resize the window to the baseline's size (electron_window_bounds) or replace the baseline with electron_visual_update_baseline."
        })
      }
      const scale = currentInfo.deviceScaleFactor
      for (const item of input.mask ?? []) {
        if (typeof item === "string") {
          const locator = yield* call.locate(entry, item)
          const boxes = yield* call.run(`find mask ${item}`, () =>
            locator.evaluateAll((els) =>
              els.map((el) => {
                const r = el.getBoundingClientRect()
                return { x: r.x, y: r.y, width: r.width, height: r.height }
              })
            )
          )
          for (const box of boxes) {
            const relative = { ...box, x: box.x - shot.origin.x, y: box.y - shot.origin.y }
            blank(base, relative, scale)
            blank(current, relative, scale)
          }
          continue
        }
        blank(base, item, scale)
        blank(current, item, scale)
      }
      const diff = new PNG({ width: base.width, height: base.height })
      const mismatched = pixelmatch(base.data, current.data, diff.data, base.width, base.height, {
        threshold: input.threshold ?? 0.1,
        includeAA: input.includeAA ?? false
      })
      const total = base.width * base.height
      const ratio = mismatched / total
      let diffFile: string | undefined
      if (mismatched > 0) {
        const path = outputPath(config.outputDir, timestampedName(`visual-diff-${input.name}`, ".png"), ".png")
        if (typeof path !== "string") return yield* path
        writeFileSync(path, PNG.sync.write(diff))
        diffFile = path
      }
      const verdict =
        mismatched === 0
          ? `matches baseline "${input.name}" (0 of ${total} px differ)`
          : `differs from baseline "${input.name}": ${(ratio * 100).toFixed(3)}% (${mismatched} of ${total} px)`
      return answer(`${entry.id}${input.target ? ` ${input.target}` : ""} ${verdict}${diffFile ? `\ndiff image (red = changed): ${diffFile}` : ""}\n${sizes}`, {
        name: input.name,
        ratio,
        mismatched,
        total,
        ...(diffFile ? { diffFile } : {}),
        baseline: baseInfo ?? null,
        current: currentInfo
      })
    })
})

export const updateBaselineTool = defineTool({
  name: "electron_visual_update_baseline",
  description: "Saves the active window (or a target) as the named baseline, replacing any baseline of that name (the answer says what it replaced).",
  type: "read",
  idempotent: true,
  readOnly: false,
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "ELEMENT_NOT_FOUND", "REF_STALE", "PATH_NOT_ALLOWED"],
  input: Schema.Struct({ name: BaselineName, target: Schema.optional(Target) }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface()
      const paths = yield* baselinePaths(input.name)
      const previous = existsSync(paths.png) ? (readInfo(paths.json) ?? { takenAt: statSync(paths.png).mtime.toISOString() }) : undefined
      const shot = yield* capture(entry, input.target)
      const info = infoOf(shot, PNG.sync.read(shot.png))
      writeFileSync(paths.png, shot.png)
      writeFileSync(paths.json, JSON.stringify(info, null, 2))
      const replaced =
        previous === undefined
          ? "new baseline"
          : `replaced the baseline of ${previous.takenAt}${"window" in previous ? ` (${describeCapture(previous as CaptureInfo)})` : ""}`
      return answer(`Saved baseline "${input.name}" from ${entry.id}: ${describeCapture(info)}; ${replaced}\n${paths.png}`, {
        name: input.name,
        file: paths.png,
        info,
        replaced: previous ?? null
      })
    })
})

export const baselinesTool = defineTool({
  name: "electron_visual_baselines",
  description: "Lists the visual baselines: name, file size, date taken, window size and scale.",
  type: "read",
  errors: [],
  input: Schema.Struct({}),
  handler: () =>
    Effect.gen(function* () {
      const dir = yield* baselineDir
      const files = existsSync(dir)
        ? readdirSync(dir)
            .filter((f) => f.endsWith(".png"))
            .sort()
        : []
      const baselines = files.map((file) => {
        const path = join(dir, file)
        const info = readInfo(path.replace(/\.png$/, ".json"))
        const stat = statSync(path)
        return { name: file.slice(0, -4), bytes: stat.size, takenAt: info?.takenAt ?? stat.mtime.toISOString(), info: info ?? null }
      })
      const lines = baselines.map((b) => `${b.name}  ${(b.bytes / 1024).toFixed(1)} KB  ${b.takenAt}${b.info ? `  ${describeCapture(b.info)}` : ""}`)
      return answer(
        baselines.length === 0
          ? `No baselines in ${dir}; create one with electron_visual_update_baseline.`
          : [`${baselines.length} baselines in ${dir}:`, ...lines].join("\n"),
        { dir, baselines }
      )
    })
})
