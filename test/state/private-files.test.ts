import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepPrivate } from '../../state/private-files.js';

afterEach(() => vi.restoreAllMocks());

describe('keepPrivate', () => {
  // Even root may not chmod a /proc file: it stands in for a file the user does not own.
  it.runIf(process.platform === 'linux')('never fails on a path it may not change: it warns once per path, on stderr', async () => {
    const warn = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(keepPrivate('/proc/self/status', '/no/such/file')).resolves.toBeUndefined();
    await keepPrivate('/proc/self/status');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/could not make \/proc\/self\/status private \(EPERM\): others may read it\. Run `chmod go-rwx` on it/);
  });
});
