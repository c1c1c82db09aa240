import { Module } from '@nestjs/common';
import { WallModule } from '../wall/wall.module';
import { TransactionDetailReportController } from './transaction-detail-report.controller';
import { TransactionDetailReportService } from './transaction-detail-report.service';

/**
 * TransactionDetailReport and its limit. Needs ThrottlerModule (global) to list
 * REPORT_THROTTLER_OPTIONS; the counters live in SharedLimitStorage (common/throttling: Redis when REDIS_URL is set).
 */
@Module({
  imports: [WallModule],
  controllers: [TransactionDetailReportController],
  providers: [TransactionDetailReportService],
})
export class ReportsModule {}
