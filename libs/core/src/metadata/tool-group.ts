/**
 * A group of toolsets (and of other groups) that is not itself a toolset: `github` holding the
 * `github-issues` and `github-pulls` toolsets of a library grouped by tag. A toolset joins it with
 * `@Toolset({ groups: [github] })`; a group joins a larger one with `groups` here. Clients see it in
 * `groups/list` (the grouping extension's groups of groups) and may select all of its toolsets at
 * once with `?toolsets=github`. Only recorded here: the startup gate checks names, descriptions,
 * clashes and cycles.
 */
export interface ToolGroup {
  readonly name: string;
  /** What the group is for, written for a model choosing where to look. */
  readonly description: string;
  /** The larger groups this one belongs to. */
  readonly groups: readonly ToolGroup[];
}

export interface ToolGroupOptions {
  name: string;
  description: string;
  groups?: readonly ToolGroup[];
}

/** Declares a group of toolsets; give it to the toolsets that belong to it (`@Toolset({ groups: [it] })`). */
export function defineGroup(options: ToolGroupOptions): ToolGroup {
  return Object.freeze({ name: options.name, description: options.description, groups: Object.freeze([...(options.groups ?? [])]) });
}
