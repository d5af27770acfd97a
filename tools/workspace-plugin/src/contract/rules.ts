/**
 * Every rule the contract diff applies, with how bad a change of that kind is for clients and
 * the version bump it needs. Direction matters: clients send inputs (narrowing them breaks
 * callers) and read outputs (widening them breaks readers).
 */
export type Severity = 'breaking' | 'dangerous' | 'safe';

/** The bump a change needs from 1.0.0 on; before 1.0.0 each level moves down one (see version-check). */
export type Bump = 'major' | 'minor' | 'patch';

export interface Rule {
  severity: Severity;
  bump: Bump;
  /** What the change means for clients, one line; `{it}` stands for the property's name. */
  why: string;
  /** For breaking rules: how to avoid the break instead of accepting it. */
  fix?: string;
}

const breaking = (why: string, fix: string): Rule => ({ severity: 'breaking', bump: 'major', why, fix });
const dangerous = (why: string): Rule => ({ severity: 'dangerous', bump: 'minor', why });
const addition = (why: string): Rule => ({ severity: 'safe', bump: 'minor', why });
const harmless = (why: string): Rule => ({ severity: 'safe', bump: 'patch', why });

export const RULES = {
  'tool-removed': breaking('clients that call it get an unknown-tool error', 'Restore it'),
  'tool-renamed': breaking('clients that call it by its old name get an unknown-tool error', 'Keep the old name'),
  'tool-added': addition('clients see a new tool; nothing they do changes'),
  'tool-description-changed': dangerous('models decide when and how to call a tool from its description; check the new text says only what the tool does'),
  'tool-title-changed': dangerous('clients show the title when they ask users to approve a call'),
  'annotation-changed': dangerous('clients decide from annotations whether to ask the user before a call'),
  'scope-required': breaking('callers whose access tokens lack {it} no longer see the tool, and get 403 insufficient_scope when they call it', 'Guard new behaviour with a new tool, or keep the tool under the scopes it had'),
  'scope-dropped': dangerous('callers without {it} can now see and call the tool: check that is meant'),
  'credential-header-added': breaking(
    'clients configured before it do not send the new header: their calls that read it fail until each user adds it to the client',
    'Read it only when sent (context.hasCredential) and keep the tool working without it, or serve the new need from a new toolset',
  ),
  'credential-header-dropped': addition('clients may stop sending the header; calls work as before'),
  'task-support-added': addition('clients that support tasks may get a task to poll; the others get the blocking result as before'),
  'task-became-required': breaking(
    'clients without task support, which could call the tool before, are refused',
    "Keep task: 'optional', so clients without tasks get the blocking result",
  ),
  'task-became-optional': addition('clients without task support can now call the tool'),
  'task-support-removed': dangerous('clients that got a task now hold a request open for as long as the tool runs, through their timeouts and proxies'),
  'view-added': addition('hosts with MCP Apps show the result in the view; every client still gets the typed result'),
  'view-removed': dangerous('hosts stop showing the view, and calls the view made to the tool are gone with it; the typed result is unchanged'),
  'view-uri-changed': dangerous('hosts cache and review a view by its URI: they fetch and review the new one as if it were new'),
  'view-csp-widened': dangerous('the view may now reach a new origin; hosts that review views (and their users) must approve it again'),
  'view-csp-narrowed': addition('the view reaches fewer origins; a host blocks nothing it allowed before'),
  'view-permission-added': dangerous('the view asks the host for a new browser permission, which hosts may refuse or ask the user about'),
  'view-visibility-narrowed': breaking('the model or the view, whichever lost it, can no longer call the tool through the host', "Keep visibility ['model', 'app'] and add a tool for the narrower use"),
  'view-visibility-widened': addition('the model or the view may now call the tool as well'),
  'view-display-changed': harmless("the view's border, sandbox domain or a permission it no longer asks for changed; the result is the same"),

  'group-removed': breaking(
    'clients that select the group (?toolsets=, X-MCP-Toolsets) get a 400, and a client that loads it as a namespace from groups/list finds it gone',
    'Keep the group (keep the toolset name, or a defineGroup of the old name around the new toolsets)',
  ),
  'group-added': addition('clients see a new group in groups/list and may select it'),
  'group-description-changed': harmless("models choose a namespace by its description; check it still says what the group is for"),
  'group-joined': addition('clients that select the larger group now get this group as well'),
  'group-left': dangerous('clients that select the larger group no longer get this group'),

  'input-required-property-added': breaking('clients that do not send {it} are refused', 'Make it optional (a default can stand in)'),
  'input-optional-property-added': addition('clients may send {it}; calls without it work as before'),
  'input-property-removed': breaking('input schemas are closed, so clients that still send {it} are refused', 'Keep accepting it'),
  'input-property-became-required': breaking('clients that leave {it} out are refused', 'Keep it optional'),
  'input-property-became-optional': addition('clients may now leave {it} out'),
  'input-type-changed': breaking('values clients send today are refused', 'Keep the old type'),
  'input-type-narrowed': breaking('some values clients send today are refused', 'Keep the wider type'),
  'input-type-widened': addition('the tool accepts more values than before'),
  'input-enum-value-removed': breaking('clients that send that value are refused', 'Keep accepting the value'),
  'input-enum-value-added': addition('clients may send a new value'),
  'input-constraint-tightened': breaking('values clients send today may be refused', 'Keep the old limit'),
  'input-constraint-loosened': addition('the tool accepts more values than before'),
  'input-union-arm-removed': breaking('clients that send that kind of value are refused', 'Keep accepting it'),
  'input-union-arm-added': addition('clients may send a new kind of value'),
  'input-null-refused': breaking('clients that send null are refused', 'Keep accepting null'),
  'input-null-accepted': addition('clients may now send null'),

  'output-property-removed': breaking('clients that read {it} will break', 'Restore it'),
  'output-property-added': addition('output schemas are open, so clients that do not know {it} ignore it'),
  'output-property-became-optional': breaking('clients that expect {it} on every result will break when it is missing', 'Keep it always present'),
  'output-property-became-required': harmless('{it} is now always present'),
  'output-type-changed': breaking('clients that parse the old type will break', 'Keep the old type, or add a new property for the new one'),
  'output-type-narrowed': harmless('every value sent now was valid before'),
  'output-enum-lifted': dangerous('clients that switch over the old values will meet values they do not know'),
  'output-became-nullable': breaking('clients that read the value will meet null', 'Keep it non-null'),
  'output-no-longer-nullable': harmless('null is no longer sent'),
  'output-enum-value-added': dangerous('clients that switch over the values will meet one they do not know'),
  'output-enum-value-removed': harmless('the value is no longer sent'),
  'output-constraint-loosened': dangerous('clients may receive values outside the limit they were promised'),
  'output-constraint-tightened': harmless('every value sent now was valid before'),
  'output-union-arm-added': dangerous('clients may receive a kind of value they do not handle'),
  'output-union-arm-removed': harmless('that kind of value is no longer sent'),
  'error-arm-added': dangerous('the tool can now return a ToolError; clients that ignore isError will read it as a result'),
  'error-arm-removed': harmless('the tool no longer returns a ToolError'),

  'description-changed': dangerous('models read property descriptions to fill in and interpret values; check the new text'),
  'default-changed': dangerous('clients that leave the argument out now get a different value'),
  'deprecation-changed': dangerous('clients are told to stop (or may resume) using it'),
  'title-changed': harmless('titles name the schema for readers; clients do not match on them'),
  'examples-changed': harmless('examples guide models but do not change what is valid'),
  'keyword-changed': breaking('the comparer cannot tell which way this keyword moves', 'Review it; revert it if clients may depend on it'),
} as const satisfies Record<string, Rule>;

export type RuleId = keyof typeof RULES;
