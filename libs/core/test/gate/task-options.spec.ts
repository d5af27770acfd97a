import 'reflect-metadata';
import { buildServer, ContractError, Field, Result, Tool, ToolResult, Toolset } from '../../src';

@Result({ description: 'A report.' })
class ReportResult extends ToolResult {
  @Field({ description: 'Pages rendered.' })
  pages!: number;
}

describe('@Tool({ task }) at the startup gate', () => {
  it('refuses task options it cannot run, naming the tool and the fix', () => {
    @Toolset({ name: 'bad_tasks' })
    class BadTasks {
      @Tool({ description: 'a', returns: ReportResult, task: 'sometimes' as never })
      a(): ReportResult {
        return { message: '', pages: 0 };
      }

      @Tool({ description: 'b', returns: ReportResult, task: { support: 'optional', ttlMs: 5000, pollIntervalMs: 9000 } })
      b(): ReportResult {
        return { message: '', pages: 0 };
      }

      @Tool({ description: 'c', returns: ReportResult, task: { support: 'optional', retries: 3 } as never })
      c(): ReportResult {
        return { message: '', pages: 0 };
      }
    }
    const build = () => buildServer({ name: 'bad', version: '1', toolsets: [BadTasks] });
    expect(build).toThrow(ContractError);
    expect(build).toThrow(/\[toolset 'bad_tasks' > tool 'a'\] The tool's task option has support string "sometimes"\. Fix: set `support: 'optional'`/);
    expect(build).toThrow(/tool 'b'\] The tool's task option polls every 9000 ms but keeps the task only 5000 ms\. Fix: make pollIntervalMs smaller than ttlMs/);
    expect(build).toThrow(/tool 'c'\] The tool's task option has 'retries', which it does not know/);
  });
});
