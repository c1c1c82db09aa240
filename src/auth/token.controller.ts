import { Body, Controller, Header, HttpCode, Ip, Post, UseGuards } from '@nestjs/common';
import { Public } from '../common/decorators/public.decorator';
import { TokenRequestDto, TokenResponseDto } from './dto/token-request.dto';
import { TokenIpThrottlerGuard } from './guards/token-ip-throttler.guard';
import { ApiIssueToken } from './token.operation';
import { TokenService } from './token.service';
import { ApiTagDescription } from '../common/openapi/api-tag';

@Controller()
@ApiTagDescription('Authentication', 'Issue the token every other operation requires.')
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  /** The only anonymous route: issue a 48-hour token for a back-office user with the ApiUser role. */
  @Post('Token')
  @ApiIssueToken()
  @Public()
  @UseGuards(TokenIpThrottlerGuard)
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  issue(@Body() body: TokenRequestDto, @Ip() clientAddress: string): Promise<TokenResponseDto> {
    return this.tokens.issue(body.username, body.password, clientAddress);
  }
}
