/**
 * What a server's MCP Server Card (SEP-2127's draft, `application/mcp-server-card+json`) says of it
 * beyond what the catalog already knows. Every field is optional: the card is served without them.
 */
export interface ServerCardOptions {
  /**
   * Its name in reverse-DNS form, one slash between namespace and name (`io.github.acme/weather`),
   * as the MCP Registry knows it. Default: the app's `MCP_NAMESPACE` (else its `PUBLIC_URL` host
   * reversed, else `local`) followed by `/` and the server's own name.
   */
  name?: string;
  /** A display name, 1–100 characters. */
  title?: string;
  /**
   * What it does, 1–100 characters (the registry's limit). Default: the first sentence of its
   * `instructions`, else a sentence naming its groups, cut to fit.
   */
  description?: string;
  /** Its homepage or documentation. */
  websiteUrl?: string;
  /** Where its source lives: `{ url: 'https://github.com/acme/mcp', source: 'github', subfolder: 'apps/weather' }`. */
  repository?: { url: string; source: string; subfolder?: string; id?: string };
  /** Icons a client may show: `{ src: 'https://…/icon.png', mimeType: 'image/png', sizes: ['48x48'] }`. */
  icons?: readonly { src: string; mimeType?: string; sizes?: readonly string[]; theme?: 'light' | 'dark' }[];
  /**
   * On a mount that checks access tokens, the card's groups count only the tools a token without
   * scopes may see, unless this is `true` (the whole catalog is meant to be public).
   */
  public?: boolean;
}

const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** What is wrong with `card`, as [option, problem, fix], checked when the server is built; undefined when nothing is. */
export function cardOptionProblem(card: ServerCardOptions): [string, string, string] | undefined {
  if (card.name !== undefined && !(NAME.test(card.name) && card.name.length >= 3 && card.name.length <= 200)) {
    return ['card.name', `is ${JSON.stringify(card.name.slice(0, 80))}`, "give a reverse-DNS name with one slash, such as 'io.github.acme/weather' (letters, digits, dots and hyphens before the slash; also underscores after it)."];
  }
  for (const key of ['title', 'description'] as const) {
    const value = card[key];
    if (value !== undefined && (value.trim().length === 0 || value.length > 100)) {
      return [`card.${key}`, value.trim().length === 0 ? 'is empty' : `is ${value.length} characters`, 'give 1 to 100 characters: the registry and the card schema take no more.'];
    }
  }
  const urls: [string, string | undefined][] = [['card.websiteUrl', card.websiteUrl], ['card.repository.url', card.repository?.url], ...(card.icons ?? []).map((icon, i): [string, string] => [`card.icons[${i}].src`, icon.src])];
  for (const [option, value] of urls) {
    if (value !== undefined && !URL.canParse(value)) return [option, `is ${JSON.stringify(value.slice(0, 80))}`, 'give an absolute URL, such as https://example.com/weather.'];
  }
  return undefined;
}
