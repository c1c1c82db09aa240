import {
  Controller,
  Get,
  Header,
  Headers,
  Query,
  StreamableFile,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { Caller, CallerClaims } from '../auth/caller';
import type { RawQuery } from '../common/query/query-parameters';
import { ReportRefundInterceptor } from './report-refund.interceptor';
import { ReportThrottlerGuard } from './report-throttler.guard';
import { ApiTransactionDetailReport } from './transaction-detail-report.operation';
import { TransactionDetailReportService } from './transaction-detail-report.service';
import { ApiTagDescription } from '../common/openapi/api-tag';
import { REPORT_CALLS_PER_MINUTE } from '../config/limits';
import { DigestBudget } from '../sync/digest/digest-budget';

@Controller()
@ApiTagDescription(
  'Reports',
  `The transaction detail report (${REPORT_CALLS_PER_MINUTE} calls per minute per user).`,
)
export class TransactionDetailReportController {
  constructor(private readonly reports: TransactionDetailReportService) {}

  /**
   * One row per sale line of the token's shops for a period of at most 31 days, with totals;
   * JSON, or CSV when Accept asks for text/csv. Streams. 12 calls a minute per user.
   * The app-wide bearer and role guards run first; then the expensive reads' fair queue gives it
   * a turn (@DigestBudget, decision 54.1); ReportThrottlerGuard then counts the call, and
   * ReportRefundInterceptor takes it back when the service fails to serve it (5xx).
   */
  @Get('TransactionDetailReport')
  @ApiTransactionDetailReport()
  @UseGuards(ReportThrottlerGuard)
  @DigestBudget()
  @UseInterceptors(ReportRefundInterceptor)
  @Header('Cache-Control', 'no-store')
  @Header('Vary', 'Accept')
  report(
    @Caller() caller: CallerClaims,
    @Query() query: RawQuery,
    @Headers('accept') accept?: string,
  ): Promise<StreamableFile> {
    return this.reports.open(caller, query, accept);
  }
}
