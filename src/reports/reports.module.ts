import { Module } from '@nestjs/common';
import { SyncModule } from '../sync/sync.module';
import { TransactionDetailReportController } from './transaction-detail-report.controller';
import { TransactionDetailReportService } from './transaction-detail-report.service';

/**
 * TransactionDetailReport, its limit and the expensive reads' budget (SyncModule's
 * DigestAdmission). Needs ThrottlerModule (global) to list
 * REPORT_THROTTLER_OPTIONS; the counters live in SharedLimitStorage (common/throttling: Redis when REDIS_URL is set).
 */
@Module({
  imports: [SyncModule],
  controllers: [TransactionDetailReportController],
  providers: [TransactionDetailReportService],
})
export class ReportsModule {}
