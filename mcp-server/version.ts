// Kept in step with package.json by test/server/version.test.ts.
export const PARLEY_VERSION = '0.1.0';
