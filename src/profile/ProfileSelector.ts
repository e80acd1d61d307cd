/**
 * ProfileSelector: which core tools are active. Either a named profile (--tool-profile) or an
 * explicit list of names (createServer({ tools })); asking for both is a typed conflict. With
 * --allow-profile-switch the active profile can change while the server runs (electron_profile): the
 * selection lives in a SubscriptionRef owned by this service, and `changes` streams each switch.
 */
import { Context, Data, Effect, Layer, Schema, Stream, SubscriptionRef } from "effect"
import { errorFields } from "../errors/fields.js"
import { CORE_TOOL_NAMES, DEFAULT_PROFILE, isCoreToolName, PROFILES, profilesHolding, type ProfileName } from "./profiles.js"

/** The server tool that switches the active profile (listed only with --allow-profile-switch). */
export const PROFILE_SWITCH_TOOL = "electron_profile"

/** A call to a known core tool outside the active selection, with the profiles that hold it. */
export class ToolExcludedByProfile extends Schema.TaggedError<ToolExcludedByProfile>()("ToolExcludedByProfile", {
  ...errorFields("ToolExcludedByProfile"),
  tool: Schema.String,
  activeProfile: Schema.String,
  profiles: Schema.Array(Schema.String)
}) {}

/** A profile switch asked of a server started without --allow-profile-switch. */
export class ProfileSwitchNotAllowed extends Data.TaggedError("ProfileSwitchNotAllowed")<{ readonly profile: string }> {
  override get message() {
    return `Switching to the ${this.profile} profile needs --allow-profile-switch`
  }
}

/** What the operator chose: a named profile or an explicit list of core tool names (never both). */
export interface ToolSelection {
  readonly toolProfile?: ProfileName | undefined
  readonly tools?: ReadonlyArray<string> | undefined
  /** --allow-profile-switch: electron_profile may change the active profile at run time. */
  readonly allowProfileSwitch?: boolean | undefined
}

export class ConflictingToolSelection extends Data.TaggedError("ConflictingToolSelection")<{
  readonly toolProfile: string
  readonly tools: ReadonlyArray<string>
}> {
  override get message() {
    return `Choose either a tool profile (${this.toolProfile}) or an explicit tool list (${this.tools.length} tools), not both`
  }
}

export class UnknownToolInSelection extends Data.TaggedError("UnknownToolInSelection")<{
  readonly names: ReadonlyArray<string>
}> {
  override get message() {
    return `Not core tool names: ${this.names.join(", ")}`
  }
}

/** The active selection: a profile name ("custom" for an explicit list) and its core tools. */
export interface Selection {
  readonly profile: ProfileName | "custom"
  readonly tools: ReadonlySet<string>
}

/** What a switch changed: the profiles and the core tools added and removed (sorted). */
export interface ProfileSwitch {
  readonly from: ProfileName | "custom"
  readonly to: ProfileName
  readonly added: ReadonlyArray<string>
  readonly removed: ReadonlyArray<string>
}

export interface ProfileSelectorShape {
  /** The active profile's name, or "custom" for an explicit list (read now: it changes with a switch). */
  readonly active: ProfileName | "custom"
  /** The number of active core tools (read now). */
  readonly size: number
  /** The active selection, read synchronously (for tools/list); `selection` is the same as an Effect. */
  readonly current: () => Selection
  readonly selection: Effect.Effect<Selection>
  readonly isActive: (tool: string) => boolean
  /** Succeeds for active tools; fails a known core tool outside the selection with its hint. */
  readonly check: (tool: string) => Effect.Effect<void, ToolExcludedByProfile>
  /** Whether --allow-profile-switch was given. */
  readonly switchable: boolean
  /** Makes `profile` the active one; a switch to the active profile changes nothing. */
  readonly switchTo: (profile: ProfileName) => Effect.Effect<ProfileSwitch, ProfileSwitchNotAllowed>
  /** Each selection after a switch that changed it (not the initial one). */
  readonly changes: Stream.Stream<Selection>
}

const sorted = (names: Iterable<string>) => [...names].sort()

export class ProfileSelector extends Context.Tag("stagewright/ProfileSelector")<ProfileSelector, ProfileSelectorShape>() {
  static readonly make = (
    toolProfile: ProfileName | undefined,
    tools: ReadonlyArray<string> | undefined,
    options: { readonly allowProfileSwitch?: boolean | undefined } = {}
  ): Effect.Effect<ProfileSelectorShape, ConflictingToolSelection | UnknownToolInSelection> =>
    Effect.gen(function* () {
      if (toolProfile !== undefined && tools !== undefined) {
        return yield* new ConflictingToolSelection({ toolProfile, tools })
      }
      let initial: Selection = { profile: toolProfile ?? DEFAULT_PROFILE, tools: PROFILES[toolProfile ?? DEFAULT_PROFILE] }
      if (tools !== undefined) {
        const unknown = tools.filter((name) => !isCoreToolName(name))
        if (unknown.length > 0) return yield* new UnknownToolInSelection({ names: unknown })
        initial = { profile: "custom", tools: new Set(tools) }
      }
      const switchable = options.allowProfileSwitch === true
      const ref = yield* SubscriptionRef.make(initial)
      // What the ref holds, for the readers on every call (tools/call, tools/list): written with each switch, under its lock.
      let selection = initial
      const current = () => selection
      const isActive = (tool: string) => selection.tools.has(tool)
      const check = (tool: string) =>
        Effect.suspend(() => {
          const selected = selection
          if (selected.tools.has(tool)) return Effect.void
          const holding = profilesHolding(tool)
          const smallest = holding[0] ?? "full"
          return Effect.fail(
            new ToolExcludedByProfile({
              message: `${tool} is not in the active tool profile (${selected.profile})`,
              hint: switchable
                ? `call ${PROFILE_SWITCH_TOOL} { "profile": "${smallest}" } (the tool list changes), then call ${tool} again`
                : `restart with --tool-profile ${smallest}`,
              tool,
              activeProfile: selected.profile,
              profiles: [...holding]
            })
          )
        })
      const switchTo = (profile: ProfileName): Effect.Effect<ProfileSwitch, ProfileSwitchNotAllowed> =>
        switchable
          ? SubscriptionRef.modifyEffect(ref, (before) => {
              const next = PROFILES[profile]
              const change: ProfileSwitch = {
                from: before.profile,
                to: profile,
                added: sorted([...next].filter((t) => !before.tools.has(t))),
                removed: sorted([...before.tools].filter((t) => !next.has(t as never)))
              }
              // An unchanged selection is not written: no change event, no tools/list_changed.
              const unchanged = before.profile === profile && change.added.length === 0 && change.removed.length === 0
              const after: Selection = unchanged ? before : { profile, tools: next }
              return Effect.sync(() => {
                selection = after
                return [change, after] as const
              })
            })
          : Effect.fail(new ProfileSwitchNotAllowed({ profile }))
      return {
        get active() {
          return current().profile
        },
        get size() {
          const selected = current().tools
          return CORE_TOOL_NAMES.filter((name) => selected.has(name)).length
        },
        current,
        selection: Effect.sync(() => selection),
        isActive,
        check,
        switchable,
        switchTo,
        changes: ref.changes.pipe(Stream.changes, Stream.drop(1))
      }
    })

  static readonly layer = (selection: ToolSelection) =>
    Layer.effect(ProfileSelector, ProfileSelector.make(selection.toolProfile, selection.tools, { allowProfileSwitch: selection.allowProfileSwitch }))
}
