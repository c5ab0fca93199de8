// ESM mode: run through `node --experimental-vm-modules` (npm test does).
/** @type {import('jest').Config} */
const config = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['<rootDir>/tests/**/*.test.ts'],
  testTimeout: 60_000,
  // Suites start real servers and databases; two cores, so two workers.
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/tests/support/summaryReporter.js'],
};

export default config;
