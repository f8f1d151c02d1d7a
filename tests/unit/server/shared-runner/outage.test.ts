import type { Logger } from 'pino';
import { describe, expect, it, vi, type Mock } from 'vitest';
import { createOutage } from '../../../../src/server/jobs/shared-runner/outage.js';

const logger = () => ({ warn: vi.fn(), info: vi.fn() }) as unknown as Logger & { warn: Mock; info: Mock };

describe('the shared runner’s pause while the database is away', () => {
  it('pauses once, resumes once, and writes what was buffered on resuming', () => {
    const log = logger();
    const onResume = vi.fn();
    const outage = createOutage(log, onResume, () => 7);
    outage.resume();
    expect(onResume).not.toHaveBeenCalled();
    outage.pause(new Error('down'));
    outage.pause(new Error('still down'));
    expect(outage.paused).toBe(true);
    expect(log.warn).toHaveBeenCalledTimes(1);
    outage.resume();
    outage.resume();
    expect(outage.paused).toBe(false);
    expect(onResume).toHaveBeenCalledTimes(1);
    expect(log.info).toHaveBeenCalledWith({ buffered: 7 }, expect.stringContaining('resumes'));
  });
});
