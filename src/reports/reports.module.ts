import { Module } from '@nestjs/common';
import { BackofficeModule } from '../backoffice/backoffice.module';
import { ReportLimitStorage } from './report-limit.storage';
import { TransactionDetailReportController } from './transaction-detail-report.controller';
import { TransactionDetailReportService } from './transaction-detail-report.service';

/**
 * TransactionDetailReport and its limit. Needs ThrottlerModule (global) to list
 * REPORT_THROTTLER_OPTIONS; the counters live in ReportLimitStorage (Redis when REDIS_URL is set).
 */
@Module({
  imports: [BackofficeModule],
  controllers: [TransactionDetailReportController],
  providers: [TransactionDetailReportService, ReportLimitStorage],
})
export class ReportsModule {}
