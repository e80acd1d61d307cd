/**
 * Test doubles of the driver's services (each service's `layerTest`): the operations a test gives, and for
 * every other one a defect that names it, so a unit test states exactly what it uses and never casts a
 * partial object.
 */
import { Effect } from "effect"

/**
 * A service value from the operations given; any other member, read, is a function answering a defect
 * that names it, or (for the members in `effects`, which are Effects rather than functions) that defect.
 */
export const testDouble = <S extends object>(service: string, given: Partial<S>, effects: ReadonlyArray<keyof S>): S => {
  const missing = (key: PropertyKey) => Effect.dieMessage(`${service}.${String(key)} is not given by this test double`)
  // A Proxy cannot state which members it answers: its type is the service's, by construction above.
  return new Proxy(given, {
    get: (target, key) => (key in target ? target[key as keyof S] : effects.includes(key as keyof S) ? missing(key) : () => missing(key))
  }) as S
}
