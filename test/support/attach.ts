/** Starts the tasks app outside Stagewright with debugging ports, the way a developer would for electron_attach. */
import { spawn, type ChildProcess } from "node:child_process"
import { createInterface } from "node:readline"
import { resolveElectronRuntime } from "../../src/index.js"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData } from "./mcp.js"

export const startForAttach = async (): Promise<{ child: ChildProcess; cdp: string; inspector: string }> => {
  const runtime = resolveElectronRuntime()
  const child = spawn(runtime.executablePath, ["--inspect=0", "--remote-debugging-port=0", sampleAppPath("tasks")], {
    stdio: ["pipe", "ignore", "pipe"],
    env: { ...process.env, SAMPLE_APP_USER_DATA: freshUserData() },
    detached: true
  })
  const lines = createInterface({ input: child.stderr! })
  let cdp: string | undefined
  let inspector: string | undefined
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the app did not print its debugging endpoints")), 30_000)
    lines.on("line", (line) => {
      inspector ??= /^Debugger listening on (ws:\/\/\S+)/.exec(line)?.[1]
      cdp ??= /^DevTools listening on (ws:\/\/\S+)/.exec(line)?.[1]
      if (cdp && inspector) {
        clearTimeout(timer)
        resolve()
      }
    })
  })
  return { child, cdp: cdp!, inspector: inspector! }
}
