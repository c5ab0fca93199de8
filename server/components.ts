/** The parts of the gateway one process runs: `node dist/server/main.js all`, or some of them by name. */
export const COMPONENTS = ['grpc', 'connect', 'webhooks', 'sandbox'] as const;
export type Component = (typeof COMPONENTS)[number];

/** Every component but the SANDBOX's fake PSP works on the database. */
export const needsDatabase = (components: readonly Component[]): boolean => components.some((component) => component !== 'sandbox');
