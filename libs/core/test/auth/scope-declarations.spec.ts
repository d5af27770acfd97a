import 'reflect-metadata';
import { buildServer, ContractError, describeCatalog, InvalidScopeError, MisplacedScopesError, Prompt, RequireScopes, Tool, ToolResult, Toolset, userMessage } from '../../src';
import { connectClient, recordingLogger } from '../support/connect';
import { renderCatalogPage } from '../../src/catalog-page/render-catalog-page';

class Done extends ToolResult {}

function violationsOf(build: () => unknown): Error[] {
  try {
    build();
  } catch (error) {
    if (error instanceof ContractError) return [...error.violations];
    throw error;
  }
  throw new Error('expected a ContractError');
}

describe('@RequireScopes', () => {
  it('joins the toolset scopes and the tool scopes, sorted, once each', () => {
    @Toolset({ name: 'docs', description: 'Docs.' })
    @RequireScopes('docs:use')
    class DocsToolset {
      @Tool({ description: 'Edit.', returns: Done })
      @RequireScopes('docs:write', 'docs:use')
      edit(): Done {
        return { message: 'ok' };
      }

      @Tool({ description: 'Look.', returns: Done })
      look(): Done {
        return { message: 'ok' };
      }
    }
    const server = buildServer({ name: 'docs', version: '1', toolsets: [DocsToolset], logger: recordingLogger().logger });
    expect(server.catalog.tools.get('edit')!.requiredScopes).toEqual(['docs:use', 'docs:write']);
    expect(server.catalog.tools.get('look')!.requiredScopes).toEqual(['docs:use']);
    expect(server.views.scopes).toEqual(['docs:use', 'docs:write']);
    // The catalog page shows them as badges, and the contract target prints them beside each tool.
    expect(renderCatalogPage([{ server, path: '/mcp' }])).toMatch(/<code class="name">edit<\/code><span class="badge scope"[^>]*>docs:use<\/span><span class="badge scope"[^>]*>docs:write<\/span>/);
    expect(describeCatalog(server.catalog).split('\n').slice(1, 3)).toEqual([
      '  edit() -> Done { message: string }  [scopes: docs:use docs:write]',
      '  look() -> Done { message: string }  [scopes: docs:use]',
    ]);
  });

  it('is refused at startup with a space, a quote, a backslash or nothing in a scope, naming where and how to fix it', () => {
    @Toolset({ name: 'bad', description: 'Bad scopes.' })
    @RequireScopes('bad scope')
    class BadToolset {
      @Tool({ description: 'One.', returns: Done })
      @RequireScopes('say"hi"', 'back\\slash', '')
      one(): Done {
        return { message: 'ok' };
      }
    }
    const violations = violationsOf(() => buildServer({ name: 'bad', version: '1', toolsets: [BadToolset] }));
    expect(violations.every((violation) => violation instanceof InvalidScopeError)).toBe(true);
    expect(violations.map((violation) => violation.message)).toEqual([
      expect.stringMatching(/^\[toolset 'bad'\] @RequireScopes on the class BadToolset has the scope "bad scope": .*Fix: give each scope as its own argument/),
      expect.stringContaining(`[toolset 'bad' > tool 'one'] @RequireScopes on BadToolset.one() has the scope "say\\"hi\\""`),
      expect.stringContaining('has the scope "back\\\\slash"'),
      expect.stringContaining('has the scope ""'),
    ]);
  });

  it('is refused on a method that is not a tool, which it would not guard', () => {
    @Toolset({ name: 'prompts', description: 'A prompt.' })
    class PromptsToolset {
      @Prompt({ description: 'Greet.' })
      @RequireScopes('greet')
      greet() {
        return [userMessage('hi')];
      }
    }
    const [violation] = violationsOf(() => buildServer({ name: 'p', version: '1', toolsets: [PromptsToolset] }));
    expect(violation).toBeInstanceOf(MisplacedScopesError);
    expect(violation!.message).toBe(
      "[toolset 'prompts'] @RequireScopes is on PromptsToolset.greet(), which is not a @Tool; prompts and resources are guarded by their toolset's scopes only. Fix: move @RequireScopes to the class PromptsToolset (it then guards every member), or to a @Tool method.",
    );
  });

  it('changes nothing where no token is checked: an in-memory connection lists and calls every tool', async () => {
    @Toolset({ name: 'locked', description: 'Locked.' })
    @RequireScopes('locked:use')
    class LockedToolset {
      @Tool({ description: 'Open.', returns: Done })
      open(): Done {
        return { message: 'opened' };
      }
    }
    const client = await connectClient(buildServer({ name: 'locked', version: '1', toolsets: [LockedToolset], logger: recordingLogger().logger }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['open']);
    expect((await client.callTool({ name: 'open', arguments: {} })).structuredContent).toEqual({ message: 'opened' });
    await client.close();
  });
});
