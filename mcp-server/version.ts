import packageJson from '../package.json' with { type: 'json' };

/** parley's version: package.json is its one source (esbuild inlines it into the bundle). */
export const PARLEY_VERSION: string = packageJson.version;
