/**
 * Preloaded into a spawned gateway (node --import) to fire faults that no
 * request can reach: SIGUSR2 leaves a promise rejection unhandled, SIGHUP
 * throws outside every handler. Both errors carry a card number, which the
 * log must redact.
 */
const FAULT_CARD_NUMBER = '4111111111111111';

process.on('SIGUSR2', () => {
  void Promise.reject(new Error(`injected rejection for card ${FAULT_CARD_NUMBER}`));
});
process.on('SIGHUP', () => {
  setImmediate(() => {
    throw new Error(`injected exception for card ${FAULT_CARD_NUMBER}`);
  });
});
