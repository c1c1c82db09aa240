/**
 * Secrets of every shape the log must never show, for the scrubber's unit spec and the end-to-end
 * suite's check of the logs (test/operations/log-secret-check.e2e-spec.ts). Not real secrets.
 */
export const SAMPLE_JWT =
  'eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiIxIiwidW5pcXVlX25hbWUiOiJhIn0.c2lnbmF0dXJlLXBhcnQtaGVyZQ';
export const SAMPLE_ARGON2 =
  '$argon2id$v=19$m=19456,t=2,p=1$lMgU7e0zx8Op3TkmbdRIhw$Ryr3hP0N16F1uIfEI88ZYhCXmGIGou0ggBSCFRHnAhc';
export const SAMPLE_BCRYPT = '$2b$10$abcdefghijklmnopqrstuuJ3Yq0VtD7u5bYdH6W/4H5aN5h1yQ2.e';
/** ASP.NET Core Identity v3 and v2 password hashes (base64). */
export const SAMPLE_ASPNET_V3 =
  'AQAAAAIAAYagAAAAEJ0nPFSbC6WbJtG3Q5R2NdNM1pAdG6hTcZBSkqV9pw6lS0Jh1xgXQKcF7MH3Ib3ZAw==';
export const SAMPLE_ASPNET_V2 = `A${'b'.repeat(65)}==`;
