import { settingsFromEnvironment, type UpstreamSettings } from '../src';

const http: UpstreamSettings = { name: 'weather', transport: { kind: 'http', url: 'https://mcp.example.com/mcp' }, secretsFrom: { authorization: 'WEATHER_TOKEN' } };
const stdio: UpstreamSettings = { name: 'weather', transport: { kind: 'stdio', command: 'node', args: ['server.js'] } };

describe('an upstream\'s settings read from the app\'s environment', () => {
  it('takes each secret from the variable named for it, and nothing else from the environment', () => {
    expect(settingsFromEnvironment('weather', http, { WEATHER_TOKEN: 'Bearer abc', OTHER: 'x' })).toEqual({ ...http, secrets: { authorization: 'Bearer abc' } });
  });

  it('refuses to start without a secret\'s variable, naming it and where it is declared', () => {
    expect(() => settingsFromEnvironment('weather', http, {})).toThrow('WEATHER_TOKEN is not set: the upstream MCP server of weather takes its authorization from it. Set WEATHER_TOKEN, or remove "authorization" from "secrets" in mcp.config.json.');
  });

  it('points an HTTP upstream elsewhere with <NAME>_MCP_URL, and refuses one that is not an http(s) URL', () => {
    const env = { WEATHER_TOKEN: 't', WEATHER_MCP_URL: 'http://127.0.0.1:9000/mcp' };
    expect(settingsFromEnvironment('weather', http, env).transport).toEqual({ kind: 'http', url: 'http://127.0.0.1:9000/mcp' });
    expect(() => settingsFromEnvironment('weather', http, { ...env, WEATHER_MCP_URL: 'file:///etc/passwd' })).toThrow('WEATHER_MCP_URL must be an http or https URL, got "file:///etc/passwd".');
    expect(() => settingsFromEnvironment('weather', stdio, { WEATHER_MCP_URL: 'http://127.0.0.1:9000/mcp' })).toThrow('WEATHER_MCP_URL is set, but weather was generated from a stdio server (node)');
  });

  it('starts a stdio upstream another way with <NAME>_MCP_COMMAND, and never an HTTP one', () => {
    expect(settingsFromEnvironment('weather', stdio, { WEATHER_MCP_COMMAND: 'node /srv/weather/server.js --quiet' }).transport).toEqual({ kind: 'stdio', command: 'node', args: ['/srv/weather/server.js', '--quiet'] });
    expect(() => settingsFromEnvironment('weather', http, { WEATHER_TOKEN: 't', WEATHER_MCP_COMMAND: 'node x.js' })).toThrow('WEATHER_MCP_COMMAND is set, but weather was generated from an HTTP server');
  });

  it('makes a stdio upstream\'s calls one at a time with <NAME>_MCP_ONE_CALL_AT_A_TIME, and refuses it for HTTP, where questions reach their caller already', () => {
    expect(settingsFromEnvironment('weather', stdio, { WEATHER_MCP_ONE_CALL_AT_A_TIME: 'true' }).oneCallAtATime).toBe(true);
    expect(settingsFromEnvironment('weather', { ...stdio, oneCallAtATime: true }, { WEATHER_MCP_ONE_CALL_AT_A_TIME: 'false' }).oneCallAtATime).toBe(false);
    expect(settingsFromEnvironment('weather', stdio, {}).oneCallAtATime).toBeUndefined();
    expect(() => settingsFromEnvironment('weather', stdio, { WEATHER_MCP_ONE_CALL_AT_A_TIME: 'yes' })).toThrow('WEATHER_MCP_ONE_CALL_AT_A_TIME must be true or false, got "yes".');
    expect(() => settingsFromEnvironment('weather', http, { WEATHER_TOKEN: 't', WEATHER_MCP_ONE_CALL_AT_A_TIME: 'true' })).toThrow(
      "WEATHER_MCP_ONE_CALL_AT_A_TIME is true, but weather's upstream is reached over HTTP, where a question comes on the response stream of the request it belongs to and reaches its caller already: unset it.",
    );
  });

  it('reads the bounds of a call, refusing what is not a positive whole number', () => {
    expect(settingsFromEnvironment('my-weather', stdio, { MY_WEATHER_TIMEOUT_MS: '1500', MY_WEATHER_MAX_RESULT_BYTES: '2048' })).toMatchObject({ timeoutMs: 1500, maxResultBytes: 2048 });
    expect(() => settingsFromEnvironment('weather', stdio, { WEATHER_TIMEOUT_MS: '1.5s' })).toThrow('WEATHER_TIMEOUT_MS must be a positive whole number of milliseconds, got "1.5s".');
  });
});
