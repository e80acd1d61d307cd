// Records the modules a Node process loads, for tests that assert what a command does NOT load:
//   STAGEWRIGHT_MODULE_LOG=/path/file node --import ./test/support/module-recorder.mjs dist/cli.js serve
// One module a line: the resolved URL of every ESM import, written by a resolve hook (in the loader
// thread) before the module is evaluated; and at each snapshot every CommonJS file in require's cache
// and every Node builtin loaded so far (as node:<name>), then a line `#snapshot <n>`. A snapshot is
// taken on SIGUSR2 and when the process exits. Nothing happens without STAGEWRIGHT_MODULE_LOG.
import { appendFileSync } from "node:fs"
import { createRequire, register } from "node:module"

const out = process.env.STAGEWRIGHT_MODULE_LOG
if (out) {
  register(
    "data:text/javascript," +
      encodeURIComponent(`
        import { appendFileSync } from "node:fs"
        let out
        export async function initialize(data) { out = data.out }
        export async function resolve(specifier, context, next) {
          const result = await next(specifier, context)
          appendFileSync(out, result.url + "\\n")
          return result
        }`),
    { data: { out } }
  )
  const require = createRequire(import.meta.url)
  let snapshots = 0
  const snapshot = () => {
    const cjs = Object.keys(require.cache).map((file) => "file://" + file)
    const builtins = process.moduleLoadList.filter((entry) => entry.startsWith("NativeModule ")).map((entry) => "node:" + entry.slice("NativeModule ".length))
    appendFileSync(out, [...cjs, ...builtins, `#snapshot ${++snapshots}`].join("\n") + "\n")
  }
  process.on("SIGUSR2", snapshot)
  process.once("exit", snapshot)
}
