import { trace } from '@opentelemetry/api';
import { Field, Tool, ToolError, ToolResult, Toolset } from '../../src';

class LookupArgs {
  @Field()
  city!: string;
}

class WeatherResult extends ToolResult {
  @Field()
  celsius!: number;
}

/** One read-only tool for the telemetry specs: Atlantis is a ToolError; every call starts a span of its own. */
@Toolset({ name: 'weather' })
export class WeatherToolset {
  @Tool({ description: 'Weather for a city.', args: LookupArgs, returns: [WeatherResult, ToolError], annotations: { readOnlyHint: true } })
  getWeather({ city }: LookupArgs): WeatherResult | ToolError {
    // A span the tool starts (an upstream request) is a child of the request's span.
    trace.getTracer('tool').startSpan('inside the tool').end();
    if (city === 'Atlantis') return new ToolError('not_found', 'No such city.');
    return { message: `Sunny in ${city}`, celsius: 21 };
  }
}
