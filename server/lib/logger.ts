import { pino, type Logger } from 'pino';

/**
 * The one logger. Secrets, authorization headers and card data are redacted
 * wherever they appear in a logged object, so a careless log line cannot leak them.
 */
const REDACTED_PATHS = [
  'secretKey', 'secret_key', 'webhookSecret', 'webhook_secret', 'password', 'token', 'apiToken',
  'cardNumber', 'card_number', 'cvv', 'number',
  'authorization', 'Authorization', 'headers.authorization', 'headers.Authorization',
  '*.secretKey', '*.secret_key', '*.webhookSecret', '*.cardNumber', '*.card_number', '*.cvv', '*.authorization', '*.Authorization',
  '*.headers.authorization', '*.headers.Authorization', '*.card', 'card',
];

export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } });
}

export const logger: Logger = createLogger();
export type { Logger };
