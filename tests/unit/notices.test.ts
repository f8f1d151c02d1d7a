import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEALTHS } from '../../src/domain/catalogue.js';
import {
  DEFAULT_NOTICE_FILTER,
  INCIDENT_STATUSES,
  MAINTENANCE_STATUSES,
  NOTICE_HEALTH_MESSAGE,
  NOTICE_TYPES,
  RELEASE_STATUSES,
  defaultStatus,
  isClosed,
  isValidStatus,
  matchesFilter,
  noticeFilterQuery,
  noticeHealthError,
  parseNoticeFilter,
  statusAfterTypeChange,
  statusesFor,
  type NoticeFilter,
  type NoticeType,
} from '../../src/domain/notices.js';

describe('notice types and statuses (spec section 4)', () => {
  it('defines the types and the statuses of each, release statuses included', () => {
    expect(NOTICE_TYPES).toEqual(['incident', 'maintenance']);
    expect(statusesFor('incident')).toEqual(['investigating', 'identified', 'monitoring', 'resolved']);
    expect(statusesFor('maintenance')).toEqual(['scheduled', 'in_progress', 'verifying', 'completed']);
    expect(RELEASE_STATUSES).toEqual(['announced', 'scheduled', 'available']);
  });

  it('starts incidents investigating and maintenance scheduled', () => {
    expect(defaultStatus('incident')).toBe('investigating');
    expect(defaultStatus('maintenance')).toBe('scheduled');
  });

  it('accepts only the statuses of the type', () => {
    for (const status of INCIDENT_STATUSES) {
      expect(isValidStatus('incident', status)).toBe(true);
      expect(isValidStatus('maintenance', status)).toBe(false);
    }
    for (const status of MAINTENANCE_STATUSES) {
      expect(isValidStatus('maintenance', status)).toBe(true);
      expect(isValidStatus('incident', status)).toBe(false);
    }
    expect(isValidStatus('maintenance', 'announced')).toBe(false);
    expect(isValidStatus('incident', '')).toBe(false);
  });

  it('resets the status to the default on a type change only when invalid for the new type', () => {
    expect(statusAfterTypeChange('maintenance', 'monitoring')).toBe('scheduled');
    expect(statusAfterTypeChange('incident', 'completed')).toBe('investigating');
    expect(statusAfterTypeChange('incident', 'identified')).toBe('identified');
    expect(statusAfterTypeChange('maintenance', 'verifying')).toBe('verifying');
    expect(statusAfterTypeChange('incident', 'nonsense')).toBe('investigating');
  });

  it('always lands on a valid status of the new type', () => {
    const anyStatus = fc.oneof(fc.constantFrom(...INCIDENT_STATUSES, ...MAINTENANCE_STATUSES), fc.string());
    fc.assert(
      fc.property(fc.constantFrom(...NOTICE_TYPES), anyStatus, (type, status) => {
        const next = statusAfterTypeChange(type, status);
        expect(isValidStatus(type, next)).toBe(true);
        if (isValidStatus(type, status)) expect(next).toBe(status);
      }),
    );
  });

  it('closes a notice once resolved or completed', () => {
    expect(isClosed('incident', 'resolved')).toBe(true);
    expect(isClosed('maintenance', 'completed')).toBe(true);
    for (const status of ['investigating', 'identified', 'monitoring'])
      expect(isClosed('incident', status)).toBe(false);
    for (const status of ['scheduled', 'in_progress', 'verifying']) expect(isClosed('maintenance', status)).toBe(false);
  });
});

describe('notice health rule (spec section 5)', () => {
  it('refuses any health but good when the notice is resolved or completed', () => {
    expect(NOTICE_HEALTH_MESSAGE).toBe('Service health should be "Good" if notice is resolved.');
    for (const status of ['resolved', 'completed']) {
      expect(noticeHealthError(status, 'good')).toBeNull();
      for (const health of HEALTHS.filter((h) => h !== 'good')) {
        expect(noticeHealthError(status, health)).toBe(NOTICE_HEALTH_MESSAGE);
      }
    }
  });

  it('allows any health while the notice is open', () => {
    for (const status of [...INCIDENT_STATUSES, ...MAINTENANCE_STATUSES]) {
      if (status === 'resolved' || status === 'completed') continue;
      for (const health of HEALTHS) expect(noticeHealthError(status, health)).toBeNull();
    }
  });
});

describe('notice filter', () => {
  const notice = (type: NoticeType, status: string) => ({ type, status });

  it('defaults to incidents and maintenance, open', () => {
    expect(DEFAULT_NOTICE_FILTER).toEqual({ types: ['incident', 'maintenance'], open: true });
    expect(matchesFilter(notice('incident', 'monitoring'), DEFAULT_NOTICE_FILTER)).toBe(true);
    expect(matchesFilter(notice('maintenance', 'in_progress'), DEFAULT_NOTICE_FILTER)).toBe(true);
    expect(matchesFilter(notice('incident', 'resolved'), DEFAULT_NOTICE_FILTER)).toBe(false);
    expect(matchesFilter(notice('maintenance', 'completed'), DEFAULT_NOTICE_FILTER)).toBe(false);
  });

  it('toggles to closed, narrows by type, and shows both when open is undefined', () => {
    const closed: NoticeFilter = { types: NOTICE_TYPES, open: false };
    expect(matchesFilter(notice('incident', 'resolved'), closed)).toBe(true);
    expect(matchesFilter(notice('incident', 'identified'), closed)).toBe(false);
    const incidents: NoticeFilter = { types: ['incident'], open: true };
    expect(matchesFilter(notice('maintenance', 'scheduled'), incidents)).toBe(false);
    expect(matchesFilter(notice('incident', 'investigating'), incidents)).toBe(true);
    const both: NoticeFilter = { types: ['maintenance'] };
    expect(matchesFilter(notice('maintenance', 'completed'), both)).toBe(true);
    expect(matchesFilter(notice('maintenance', 'scheduled'), both)).toBe(true);
  });

  it('writes and reads the query as comma lists', () => {
    expect(noticeFilterQuery(DEFAULT_NOTICE_FILTER)).toEqual({ type: 'incident,maintenance', status: 'open' });
    expect(parseNoticeFilter({})).toEqual(DEFAULT_NOTICE_FILTER);
    expect(parseNoticeFilter({ type: 'maintenance', status: 'closed' })).toEqual({
      types: ['maintenance'],
      open: false,
    });
    expect(parseNoticeFilter({ status: 'open,closed' })?.open).toBeUndefined();
    expect(parseNoticeFilter({ type: 'incident,release' })).toBeNull();
    expect(parseNoticeFilter({ status: 'pending' })).toBeNull();
  });

  it('round-trips any filter through the query', () => {
    const filter = fc.record({
      types: fc.subarray([...NOTICE_TYPES], { minLength: 1 }),
      open: fc.option(fc.boolean(), { nil: undefined }),
    });
    fc.assert(
      fc.property(filter, (value) => {
        const parsed = parseNoticeFilter(noticeFilterQuery(value));
        expect(parsed?.types).toEqual(value.types);
        expect(parsed?.open).toBe(value.open);
      }),
    );
  });
});
