import { describe, expect, it } from 'vitest';
import type { NotificationSettings } from '@/components/api/types';
import { bodyOf, checkDraft, draftOf, fieldLabel, fieldOfApiError } from '@/components/notify/settings-draft';
import { notificationSettingsBody } from '@/lib/api/schemas/notifications';
import { emptySettings } from '@/lib/notify/settings';

const empty: NotificationSettings = emptySettings();

describe('notification settings form draft', () => {
  it('round-trips settings into the PATCH body the API accepts', () => {
    const settings: NotificationSettings = {
      ...empty,
      uptimeRecipients: [
        { kind: 'user', userId: 'u1' },
        { kind: 'email', email: 'ops@example.com' },
      ],
      uptimeWebhooks: [{ kind: 'slack', url: 'https://hooks.example.com/x' }],
      includeOrgDefaults: false,
    };
    const draft = draftOf(settings);
    expect(draft.recipients.uptimeRecipients).toEqual({ userIds: ['u1'], emails: 'ops@example.com' });
    expect(checkDraft(draft)).toEqual({});
    const body = bodyOf(draft, true);
    expect(body.uptimeRecipients).toEqual(settings.uptimeRecipients);
    expect(body.uptimeWebhooks).toEqual(settings.uptimeWebhooks);
    expect(body.includeOrgDefaults).toBe(false);
    expect(bodyOf(draft, false)).not.toHaveProperty('includeOrgDefaults');
    // The request schema takes the body shape (the URL check needs the network, so no webhooks here).
    expect(notificationSettingsBody.safeParse({ ...bodyOf(draft, true), uptimeWebhooks: [] }).success).toBe(
      true,
    );
  });

  it('enforces 10 recipients (members and addresses together) and 5 webhooks, and valid rows', () => {
    const draft = draftOf(empty);
    draft.recipients.crawlReportRecipients = {
      userIds: ['a', 'b'],
      emails: Array.from({ length: 9 }, (_, i) => `p${i}@example.com`).join('\n'),
    };
    draft.recipients.reportRecipients = { userIds: [], emails: 'nope\nok@example.com' };
    draft.webhooks.perfAlertWebhooks = Array.from({ length: 6 }, () => ({
      kind: 'http' as const,
      url: 'https://example.com/h',
    }));
    draft.webhooks.uptimeWebhooks = [{ kind: 'teams', url: 'ftp://x' }];
    const errors = checkDraft(draft);
    expect(errors.crawlReportRecipients).toMatch(/at most 10 recipients.*it has 11/);
    expect(errors.reportRecipients).toMatch(/“nope” is not one/);
    expect(errors.perfAlertWebhooks).toBe('must be at most 5');
    expect(errors['uptimeWebhooks.0']).toMatch(/http:\/\/ or https:\/\//);
    expect(Object.keys(errors)).toHaveLength(4);
    draft.recipients.crawlReportRecipients.userIds = ['a'];
    expect(checkDraft(draft).crawlReportRecipients).toBeUndefined();
  });

  it("places the API's field errors under the list or webhook row they name", () => {
    expect(fieldOfApiError('uptimeRecipients.2.email: must be an email address')).toEqual({
      field: 'uptimeRecipients',
      text: 'must be an email address',
    });
    expect(fieldOfApiError('searchAlertWebhooks.1.url: is a private address')).toEqual({
      field: 'searchAlertWebhooks.1',
      text: 'is a private address',
    });
    expect(fieldOfApiError('perfAlertWebhooks: must have at most 5 webhooks').field).toBe(
      'perfAlertWebhooks',
    );
    expect(fieldOfApiError('only owners and admins can do this').field).toBeNull();
    expect(fieldLabel('searchAlertWebhooks.1')).toBe('Search traffic alerts: webhook 2 URL');
    expect(fieldLabel('reportRecipients')).toBe('Monthly report: recipients');
  });
});
