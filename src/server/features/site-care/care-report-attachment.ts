import type { AppDeps } from '../../deps.ts';
import { reportById } from './care-reports.ts';
import { renderCareReportPdf } from './care-report-pdf.ts';

/** The care report's PDF for the mail worker (the outbox names it; it is drawn when the mail leaves). */
export async function careReportAttachment(deps: AppDeps, reportId: string) {
  const report = await reportById(deps.db, reportId);
  const content = await renderCareReportPdf(report.data, deps.config.BRAND_NAME, report.createdAt);
  return { filename: `care-report-${report.data.orderId}-${report.month}.pdf`, contentType: 'application/pdf', content };
}
