/**
 * playwright-core captures (and parses) up to 50 stack frames on every API call, for its call log. Called from a
 * fiber, that stack is the Effect runtime's, deep: ~0.3 ms of capture and parsing a call in time marks (issue 42).
 * Started from a microtask, the call sees a shallow stack instead.
 */

/** `f()` started from a microtask: what an Effect.promise or Effect.tryPromise around a playwright-core call runs. */
export const shallow = <A>(f: () => Promise<A>): Promise<A> => Promise.resolve().then(f)

/** What `shallowWithin` rejects with past its bound. */
export class PastBound extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`)
  }
}

/**
 * `shallow(f)` bounded by a timer of its own: past `ms` it rejects with PastBound and the call it made finishes
 * unread (for reads, which leave nothing to undo). Cheaper than Effect.timeout, whose race forks two fibers and a
 * sleep (~0.4 ms a call in time marks). An aborted `signal` (the Effect around it interrupted) clears the timer.
 */
export const shallowWithin = <A>(ms: number, f: () => Promise<A>, signal?: AbortSignal): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    const timer = setTimeout(() => reject(new PastBound(ms)), ms)
    signal?.addEventListener("abort", () => clearTimeout(timer), { once: true })
    shallow(f)
      .then(resolve, reject)
      .finally(() => clearTimeout(timer))
  })
