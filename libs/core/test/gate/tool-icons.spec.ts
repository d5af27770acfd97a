import 'reflect-metadata';
import { buildServer, ContractError, Result, Tool, ToolResult, Toolset, type ClassType, type ToolIcon } from '../../src';
import { connectClient, connectLegacyClient } from '../support/connect';

@Result({ description: 'Done.' })
class Done extends ToolResult {}

const PNG = { src: 'https://cdn.example.com/weather-48.png', mimeType: 'image/png', sizes: ['48x48'] };
const SVG = { src: 'data:image/svg+xml;base64,PHN2Zy8+', mimeType: 'image/svg+xml', sizes: ['any'], theme: 'dark' as const };

@Toolset({ name: 'weather', description: 'Weather.' })
class WeatherToolset {
  @Tool({ description: 'Forecast.', returns: Done, icons: [PNG, SVG] })
  forecast(): Done {
    return { message: 'sunny' };
  }

  @Tool({ description: 'No icon.', returns: Done })
  plain(): Done {
    return { message: 'plain' };
  }
}

/** A toolset whose one tool declares `icons` as given (past the decorator's types, as a generated or hand-edited file could). */
function withIcons(icons: unknown): ClassType {
  @Toolset({ name: 'drawn', description: 'Icons.' })
  class DrawnToolset {
    @Tool({ description: 'Drawn.', returns: Done, icons: icons as ToolIcon[] })
    drawn(): Done {
      return { message: 'drawn' };
    }
  }
  return DrawnToolset;
}

function refusal(icons: unknown): string {
  try {
    buildServer({ name: 'icons', version: '0', toolsets: [withIcons(icons)] });
  } catch (error) {
    expect(error).toBeInstanceOf(ContractError);
    return (error as ContractError).message;
  }
  throw new Error('the gate let the icons through');
}

describe('tool icons', () => {
  it('are listed as declared to clients of both eras, and a tool without any lists none', async () => {
    const server = buildServer({ name: 'weather', version: '1', toolsets: [WeatherToolset] });
    const modern = await connectClient(server);
    const legacy = await connectLegacyClient(server);
    try {
      for (const client of [modern, legacy]) {
        const { tools } = await client.listTools();
        expect(tools.find((tool) => tool.name === 'forecast')?.icons).toEqual([PNG, SVG]);
        expect(tools.find((tool) => tool.name === 'plain')).not.toHaveProperty('icons');
      }
    } finally {
      await modern.close();
      await legacy.close();
    }
  });

  it('are refused at startup when a client could not show one or should not fetch it, naming the tool and the fix', () => {
    expect(refusal([{ src: 'http://cdn.example.com/a.png' }])).toContain("[toolset 'drawn' > tool 'drawn'] @Tool({ icons }) has icon 1 whose src is a http: URL. Fix: give each icon as `{ src, mimeType?, sizes?, theme? }`: `src` an https URL or a `data:image/…;base64,…` URI");
    expect(refusal([PNG, { src: 'data:text/html;base64,PGI+' }])).toContain('has icon 2 whose src is a data: URL');
    expect(refusal([{ src: 'javascript:alert(1)' }])).toContain('has icon 1 whose src is a javascript: URL');
    expect(refusal([{ ...PNG, sizes: ['48'] }])).toContain('has icon 1 whose sizes ["48"] are not WxH or any');
    expect(refusal([{ ...PNG, theme: 'blue' }])).toContain('has icon 1 whose theme "blue" is not light or dark');
    expect(refusal([{ ...PNG, mimeType: 'text/html' }])).toContain('has icon 1 whose mimeType "text/html" is not an image type');
    expect(refusal([{ ...PNG, alt: 'a cloud' }])).toContain("has icon 1 with 'alt', which icons do not have");
    expect(refusal(PNG)).toContain('@Tool({ icons }) is {');
  });
});
