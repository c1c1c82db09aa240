import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

import {
  PASSWORD_MAX_LENGTH,
  TOKEN_LIFETIME_HOURS,
  USERNAME_MAX_LENGTH,
} from '../../config/limits';

/** Body of POST /api/v1.0/Token. Anything but two non-empty strings is a 400. */
@ApiSchema({ name: 'TokenRequest', description: 'Credentials of a back-office user.' })
export class TokenRequestDto {
  @ApiProperty({
    type: String,
    minLength: 1,
    maxLength: USERNAME_MAX_LENGTH,
    description: 'Username of the back-office application user.',
    example: 'erp-integration',
  })
  @IsString()
  @IsNotEmpty()
  // Wider than bo_users.username (64): trailing spaces still find a user, and a long name is
  // refused like any other (401), with the column of api_login_failures this wide too.
  @MaxLength(USERNAME_MAX_LENGTH)
  username!: string;

  @ApiProperty({
    type: String,
    format: 'password',
    minLength: 1,
    maxLength: PASSWORD_MAX_LENGTH,
    description: 'Password of that user.',
    example: 'correct-horse-battery-staple',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;
}

@ApiSchema({
  name: 'TokenResponse',
  description: `A token valid for ${TOKEN_LIFETIME_HOURS} hours.`,
})
export class TokenResponseDto {
  @ApiProperty({
    type: String,
    description: 'JWT to send as `Authorization: Bearer <token>`.',
    example: 'eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl',
  })
  token!: string;

  /** ISO 8601 UTC, with Z: issue + TOKEN_LIFETIME_HOURS. */
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: `When the token stops being valid: ISO 8601, UTC (with Z), issue + ${TOKEN_LIFETIME_HOURS} hours.`,
    example: '2026-03-03T09:30:00.000Z',
  })
  expiration!: string;
}
