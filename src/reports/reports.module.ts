import { Module } from '@nestjs/common';
import { ReportLimitStorage } from './report-limit.storage';
import { TransactionDetailReportController } from './transaction-detail-report.controller';
import { TransactionDetailReportRepository } from './transaction-detail-report.repository';
import { TransactionDetailReportService } from './transaction-detail-report.service';

/**
 * TransactionDetailReport and its limit. Needs ThrottlerModule (global) to list
 * REPORT_THROTTLER_OPTIONS; the counters live in ReportLimitStorage (Redis when REDIS_URL is set).
 */
@Module({
  controllers: [TransactionDetailReportController],
  providers: [
    TransactionDetailReportService,
    TransactionDetailReportRepository,
    ReportLimitStorage,
  ],
})
export class ReportsModule {}
