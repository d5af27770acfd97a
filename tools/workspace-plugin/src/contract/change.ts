import { RULES, type RuleId, type Severity } from './rules';

/** Where in a tool a change is: the tool's own fields, or inside one of its schemas; or a group of tools. */
export type ChangeSite = 'tool' | 'input' | 'output' | 'group';

/** One difference between the snapshot and the live catalog, classified by a rule. */
export interface Change {
  /** The tool's name, or the group's for a change of site `group`. */
  tool: string;
  site: ChangeSite;
  /** JSON pointer inside the schema (or the tool entry), e.g. `/properties/account`. */
  path: string;
  rule: RuleId;
  severity: Severity;
  /** What changed, e.g. `removed`, `maxLength 100 → 50`. */
  summary: string;
  /** For text changes, the old and new text, shown in full. */
  was?: string;
  now?: string;
}

export function change(tool: string, site: ChangeSite, path: string, rule: RuleId, summary: string, text?: { was?: string; now?: string }): Change {
  return { tool, site, path, rule, severity: RULES[rule].severity, summary, ...text };
}

