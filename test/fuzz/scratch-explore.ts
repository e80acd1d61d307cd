import { Effect, Layer } from "effect"
import { Dispatcher } from "../../src/layers/Dispatcher.js"
import { coreLayer } from "../../src/layers/Stagewright.js"
const nest = (n: number, kind: "array" | "object") => { let v: any = 1; for (let i = 0; i < n; i++) v = kind === "array" ? [v] : { a: v }; return v }
await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
  const ctx = yield* Layer.build(coreLayer({ allowEval: ["renderer", "main"] }))
  const d = ctx.unsafeMap.get(Dispatcher.key) as Dispatcher["Type"]
  for (const kind of ["array", "object"] as const) {
    for (const n of [100, 500, 1000, 1500, 2000, 3000, 5000, 10000]) {
      const r1 = yield* d.call("electron_click", { target: nest(n, kind) })
      const r2 = yield* d.call("electron_click", { target: "x", extra: nest(n, kind) })
      const r3 = yield* d.call("electron_eval_renderer", { function: "() => 1", arg: nest(n, kind) })
      const r4 = yield* d.call("electron_status", { x: nest(n, kind) })
      const code = (r: any) => r.structuredContent?.error?.code ?? "OK"
      console.log(kind, n, "field:", code(r1), "extra:", code(r2), "evalArg:", code(r3), "noargs-extra:", code(r4))
    }
  }
})).pipe(Effect.provide(Layer.empty)))
