/**
 * ProfileSelector: which core tools are active. Either a named profile (--tool-profile) or an
 * explicit list of names (createServer({ tools })); asking for both is a typed conflict.
 */
import { Context, Data, Effect, Layer, Schema } from "effect"
import { CORE_TOOL_NAMES, DEFAULT_PROFILE, isCoreToolName, PROFILES, profilesHolding, type ProfileName } from "./profiles.js"

/** A call to a known core tool outside the active selection, with the profiles that hold it. */
export class ToolExcludedByProfile extends Schema.TaggedError<ToolExcludedByProfile>()("ToolExcludedByProfile", {
  message: Schema.String,
  hint: Schema.optionalWith(Schema.String, { default: () => "Restart the server with a profile that holds this tool." }),
  details: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  tool: Schema.String,
  activeProfile: Schema.String,
  profiles: Schema.Array(Schema.String)
}) {}

/** What the operator chose: a named profile or an explicit list of core tool names (never both). */
export interface ToolSelection {
  readonly toolProfile?: ProfileName | undefined
  readonly tools?: ReadonlyArray<string> | undefined
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

export interface ProfileSelectorShape {
  /** The active profile's name, or "custom" for an explicit list. */
  readonly active: ProfileName | "custom"
  readonly size: number
  readonly isActive: (tool: string) => boolean
  /** Succeeds for active tools; fails a known core tool outside the selection with its restart hint. */
  readonly check: (tool: string) => Effect.Effect<void, ToolExcludedByProfile>
}

export class ProfileSelector extends Context.Tag("stagewright/ProfileSelector")<ProfileSelector, ProfileSelectorShape>() {
  static readonly make = (
    toolProfile: ProfileName | undefined,
    tools: ReadonlyArray<string> | undefined
  ): Effect.Effect<ProfileSelectorShape, ConflictingToolSelection | UnknownToolInSelection> =>
    Effect.gen(function* () {
      if (toolProfile !== undefined && tools !== undefined) {
        return yield* new ConflictingToolSelection({ toolProfile, tools })
      }
      let active: ProfileName | "custom" = toolProfile ?? DEFAULT_PROFILE
      let selected: ReadonlySet<string> = PROFILES[active as ProfileName]
      if (tools !== undefined) {
        const unknown = tools.filter((name) => !isCoreToolName(name))
        if (unknown.length > 0) return yield* new UnknownToolInSelection({ names: unknown })
        active = "custom"
        selected = new Set(tools)
      }
      return {
        active,
        size: CORE_TOOL_NAMES.filter((name) => selected.has(name)).length,
        isActive: (tool) => selected.has(tool),
        check: (tool) => {
          if (selected.has(tool)) return Effect.void
          const holding = profilesHolding(tool)
          const smallest = holding[0] ?? "full"
          return Effect.fail(
            new ToolExcludedByProfile({
              message: `${tool} is not in the active tool profile (${active})`,
              hint: `restart with --tool-profile ${smallest}`,
              tool,
              activeProfile: active,
              profiles: [...holding]
            })
          )
        }
      }
    })

  static readonly layer = (selection: ToolSelection) => Layer.effect(ProfileSelector, ProfileSelector.make(selection.toolProfile, selection.tools))
}
