/**
 * `import()` of a package or a file at run time (playwright-core at the first launch, a third-party
 * plugin, a production-check dependency). The bin runs its bundle compiled from V8's code cache, where
 * Node 20 loses import()'s callback ("A dynamic import callback was not specified"), so the bin's loader
 * (src/cli/bin.ts, a module of its own) registers its import() under a global symbol, used when present.
 */
const LOADER = Symbol.for("stagewright.import")

type Importer = (specifier: string) => Promise<unknown>

/** Registers the importer of a loader that runs the code in a context without import(). */
export const registerImporter = (importer: Importer): void => {
  ;(globalThis as Record<symbol, unknown>)[LOADER] = importer
}

export const dynamicImport = <T>(specifier: string): Promise<T> => {
  const importer = (globalThis as Record<symbol, unknown>)[LOADER] as Importer | undefined
  return (importer !== undefined ? importer(specifier) : import(specifier)) as Promise<T>
}
