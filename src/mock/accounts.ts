/**
 * The mock's two accounts: the first, and the second (another agency's, issue 33: it owns no booking,
 * so every booking it names is answered "not found"). A leaf of its own, so that the settings
 * (src/engine/accounts.ts) read the mock's values without loading the mock.
 */
export const DEFAULT_USER = 'mock-user';
export const DEFAULT_PASSWORD = 'mock-password';
export const DEFAULT_OTHER_USER = 'mock-other';
export const DEFAULT_OTHER_PASSWORD = 'mock-other-password';
