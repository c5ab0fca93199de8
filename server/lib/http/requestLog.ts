import type { AxiosError, AxiosInstance, AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import type { Logger } from '../logger.js';
import { redactForLog } from './redact.js';

/**
 * Logs every request and its answer at debug level, through redactForLog, so a
 * debug log of a provider exchange never holds credentials, tokens or card data.
 */
export function logExchanges(instance: AxiosInstance, logger: Logger, fields: Record<string, unknown>, sensitiveKeys: readonly string[]): void {
  const startedAt = new WeakMap<object, number>();
  const redact = (value: unknown) => redactForLog(value, sensitiveKeys);
  const elapsed = (config: object | undefined) => {
    const start = config && startedAt.get(config);
    return start === undefined ? undefined : Math.round(performance.now() - start);
  };

  instance.interceptors.request.use((config: InternalAxiosRequestConfig) => {
    startedAt.set(config, performance.now());
    if (logger.isLevelEnabled('debug')) {
      logger.debug(
        {
          ...fields,
          request: { method: config.method?.toUpperCase(), url: redact(instance.getUri(config)), headers: redact(config.headers), body: redact(config.data) },
        },
        'provider request',
      );
    }
    return config;
  });

  instance.interceptors.response.use(
    (response: AxiosResponse) => {
      if (logger.isLevelEnabled('debug')) {
        logger.debug(
          {
            ...fields,
            response: { status: response.status, durationMs: elapsed(response.config), headers: redact(response.headers), body: redact(response.data) },
          },
          'provider response',
        );
      }
      return response;
    },
    (error: AxiosError) => {
      if (logger.isLevelEnabled('debug')) {
        const response = error.response;
        logger.debug(
          {
            ...fields,
            durationMs: elapsed(error.config),
            ...(response
              ? { response: { status: response.status, headers: redact(response.headers), body: redact(response.data) } }
              : { error: { code: error.code, message: error.message } }),
          },
          'provider call failed',
        );
      }
      return Promise.reject(error);
    },
  );
}
