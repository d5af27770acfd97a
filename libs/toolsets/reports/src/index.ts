export { REPORTS_KEY_HEADER, ReportsToolset } from './lib/reports.toolset';
export { PublishForm, ReportArgs, ReportResult } from './lib/report.dto';
export { TallyArgs, TallyResult } from './lib/tally.dto';
