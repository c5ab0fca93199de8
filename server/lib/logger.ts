import { pino, type DestinationStream, type Logger } from 'pino';
import { redactForLog, redactText } from './http/redact.js';

/**
 * The one logger. Secrets, authorization headers and card data are redacted
 * wherever they appear in a logged object, so a careless log line cannot leak them.
 */
const REDACTED_PATHS = [
  'secretKey',
  'secret_key',
  'webhookSecret',
  'webhook_secret',
  'password',
  'token',
  'apiToken',
  'cardNumber',
  'card_number',
  'cvv',
  'cvc',
  'securityCode',
  'security_code',
  'number',
  'authorization',
  'Authorization',
  'headers.authorization',
  'headers.Authorization',
  '*.secretKey',
  '*.secret_key',
  '*.webhookSecret',
  '*.cardNumber',
  '*.card_number',
  '*.cvv',
  '*.cvc',
  '*.securityCode',
  '*.security_code',
  '*.authorization',
  '*.Authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
  '*.card',
  'card',
];

/**
 * Besides the fixed paths, every record and message goes through redactForLog:
 * a provider that echoes a card number or CVV inside an error text (or an
 * error's stack), as a pair ("cvv=123") or next to its word ("CVV 9731
 * inválido"), must not put it in the log either.
 */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // `err` is left to its serializer (it keeps the error's type), which redacts what it produces.
    formatters: {
      log: ({ err, ...record }: Record<string, unknown>) => {
        const redacted = redactForLog(record) as Record<string, unknown>;
        return err === undefined ? redacted : { ...redacted, err: err instanceof Error ? err : redactForLog(err) };
      },
    },
    serializers: { err: (error: Error) => redactForLog(pino.stdSerializers.err(error)) },
    hooks: {
      logMethod(this: Logger, args: unknown[], method: (...args: unknown[]) => void) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg)),
        );
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export const logger: Logger = createLogger();
export type { Logger };
