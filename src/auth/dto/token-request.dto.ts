import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** Body of POST /api/v1.0/Token. Anything but two non-empty strings is a 400. */
export class TokenRequestDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  username!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  password!: string;
}

export interface TokenResponseDto {
  token: string;
  /** ISO 8601 UTC, with Z: issue + 48 hours. */
  expiration: string;
}
