// Resolve hook: the conformance suite's own modules get ./fs-shim.mjs for "fs" (Node 20 lacks fs.globSync).
export async function resolve(specifier, context, next) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL?.includes("/conformance/dist/"))
    return { url: new URL("./fs-shim.mjs", import.meta.url).href, shortCircuit: true }
  return next(specifier, context)
}
