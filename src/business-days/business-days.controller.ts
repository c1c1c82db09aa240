import { Controller, Get, Query } from '@nestjs/common';
import { Caller, CallerClaims } from '../auth/caller';
import { ApiTagDescription } from '../common/openapi/api-tag';
import type { RawQuery } from '../common/query/query-parameters';
import { DigestBudget } from '../sync/digest/digest-budget';
import type { BusinessDaysDto } from './business-day.dto';
import { ApiBusinessDays, BUSINESS_DAYS_TAG } from './business-days.operation';
import { BusinessDaysService } from './business-days.service';

@Controller()
@ApiTagDescription(BUSINESS_DAYS_TAG, 'The day close of a shop, by business date.')
export class BusinessDaysController {
  constructor(private readonly days: BusinessDaysService) {}

  /**
   * The close of one shop, by business date. Behind the app-wide bearer and ApiUser guards; it
   * reads what three digests read, so it is counted in the digests' budget.
   */
  @Get('business-days')
  @ApiBusinessDays()
  @DigestBudget()
  close(@Caller() caller: CallerClaims, @Query() query: RawQuery): Promise<BusinessDaysDto> {
    return this.days.close(caller, query);
  }
}
