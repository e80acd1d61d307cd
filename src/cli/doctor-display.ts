/**
 * Two facts of `stagewright doctor --app`: the display situation on Linux (DISPLAY, WAYLAND_DISPLAY,
 * Xvfb on PATH) and the fuses of the binary a launch would run.
 */
import { accessSync, constants } from "node:fs"
import { delimiter, join } from "node:path"
import type { FuseState } from "../plugins/production/checklist.js"
import type { Check } from "./check.js"
import { displaySituation, runsHeaded, XVFB_INSTALL, type XvfbMode } from "../layers/driver/display.js"

export interface DisplayFacts {
  readonly platform: NodeJS.Platform
  readonly display: string | undefined
  readonly waylandDisplay: string | undefined
  /** Xvfb and xvfb-run on PATH. */
  readonly xvfb: string | undefined
  readonly xvfbRun: string | undefined
}

const onPath = (name: string, path: string): string | undefined => {
  for (const dir of path.split(delimiter)) {
    if (dir === "") continue
    const candidate = join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not here
    }
  }
  return undefined
}

/**
 * What a launch would do for its display (the launch's own decision, `displaySituation`, with the
 * --xvfb mode), and whether it can: a needed Xvfb that is not on PATH, or `--xvfb never` without a
 * display, is a warning (a headed launch would fail), never a failure of doctor.
 */
export const displayCheck = (
  env: NodeJS.ProcessEnv = process.env,
  runtime?: "electron" | "standin",
  platform: NodeJS.Platform = process.platform,
  mode: XvfbMode = "auto"
): { readonly facts: DisplayFacts; readonly check: Check } => {
  const path = env.PATH ?? ""
  const facts: DisplayFacts = {
    platform,
    display: env.DISPLAY || undefined,
    waylandDisplay: env.WAYLAND_DISPLAY || undefined,
    xvfb: platform === "linux" ? onPath("Xvfb", path) : undefined,
    xvfbRun: platform === "linux" ? onPath("xvfb-run", path) : undefined
  }
  const xvfbText = facts.xvfb !== undefined ? `Xvfb at ${facts.xvfb}` : "no Xvfb on PATH"
  const name = "display"
  // Without a known runtime, judge for a real Electron (the stricter case).
  const situation = displaySituation(env, platform, mode, runsHeaded(runtime ?? "electron", env))
  switch (situation.action) {
    case "none":
    case "use":
      return { facts, check: { name, ok: true, required: false, detail: `${situation.reason}; ${xvfbText}` } }
    case "fail":
      return { facts, check: { name, ok: false, required: false, detail: `a headed launch would fail: ${situation.reason}`, next: situation.hint } }
    case "start-xvfb":
      return facts.xvfb !== undefined
        ? { facts, check: { name, ok: true, required: false, detail: `${situation.reason} (--xvfb ${mode}); ${xvfbText}` } }
        : {
            facts,
            check: {
              name,
              ok: false,
              required: false,
              detail: `a headed launch would fail: ${situation.reason}, but no Xvfb is on PATH`,
              next: `install it (${XVFB_INSTALL}), or set DISPLAY`
            }
          }
  }
}

export const INSPECT_OFF_NOTE =
  "EnableNodeCliInspectArguments is off: the binary ignores --inspect, so a launch cannot reach the main process through Node's inspector and goes over CDP (--remote-debugging-port): windows can be driven, main-process tools (menus, dialogs, app info, main-process eval) cannot"

export const RUN_AS_NODE_OFF_NOTE =
  "RunAsNode is off: the binary ignores ELECTRON_RUN_AS_NODE, so its Node, V8 and NODE_MODULE_VERSION cannot be read by running it"

/** The fuse check of a binary: its wire listed; the fuses that change how Stagewright drives it flagged. */
export const fuseCheck = (
  target: string,
  fuses: { readonly wire: Readonly<Record<string, FuseState>> } | { readonly error: string },
  name = "fuses"
): Check => {
  if ("error" in fuses) {
    return { name, ok: true, required: false, detail: `no fuse wire in ${target} (not a fused Electron build: the stand-in's script, or Electron before 12)` }
  }
  const list = Object.entries(fuses.wire)
    .map(([fuse, state]) => `${fuse}=${state}`)
    .join(", ")
  const notes = [
    ...(fuses.wire.EnableNodeCliInspectArguments === "disabled" ? [INSPECT_OFF_NOTE] : []),
    ...(fuses.wire.RunAsNode === "disabled" ? [RUN_AS_NODE_OFF_NOTE] : [])
  ]
  return {
    name,
    ok: notes.length === 0,
    required: false,
    detail: `${target}: ${list}${notes.length > 0 ? `. ${notes.join(". ")}` : ""}`,
    ...(fuses.wire.EnableNodeCliInspectArguments === "disabled"
      ? { next: "use a build with the fuse on for full testing, or start this one with --remote-debugging-port=9222 and use electron_attach" }
      : notes.length > 0
        ? { next: "nothing needed to launch; the binary's Node ABI cannot be read, so native addon ABIs are not compared" }
        : {})
  }
}
