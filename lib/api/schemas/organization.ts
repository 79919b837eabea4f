import { z } from 'zod';
import { LOGO_MAX_BYTES, LOGO_TYPES, ORGANIZATION_NAME_MAX } from '@/lib/orgs/limits';
import { hasUnsafeCharacters } from '@/lib/orgs/name';
import type { OrganizationView as OrganizationServiceView } from '@/lib/orgs/organization';
import type { Holds, Same } from './common';

/** PATCH /v1/organization: the new name, trimmed; one line of at most ORGANIZATION_NAME_MAX characters. */
export const renameOrganizationBody = z.strictObject({
  name: z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .refine((name) => [...name].length <= ORGANIZATION_NAME_MAX, {
      message: `must be at most ${ORGANIZATION_NAME_MAX} characters`,
    })
    .refine((name) => !hasUnsafeCharacters(name), {
      message: 'must be one line, without control or text-direction characters',
    })
    .describe(
      `the organization's new name, 1 to ${ORGANIZATION_NAME_MAX} characters once trimmed; shown in reports, mails (cut to 60 characters) and the dashboard`,
    ),
});

/** Base64 of LOGO_MAX_BYTES, with room for line breaks: anything longer is refused before decoding. */
const MAX_BASE64 = Math.ceil(LOGO_MAX_BYTES / 3) * 4 + 4096;

/** PUT /v1/organization/logo: the image file as base64 in a JSON body. */
export const organizationLogoBody = z.strictObject({
  contentType: z
    .enum(LOGO_TYPES, { error: 'must be image/png or image/jpeg (SVG is not accepted)' })
    .describe('image/png or image/jpeg; SVG is refused (it can carry script); must match the file'),
  data: z
    .string({ error: 'must be a string' })
    .max(
      MAX_BASE64,
      `is larger than ${LOGO_MAX_BYTES / 1024} KB: a logo may be at most ${LOGO_MAX_BYTES / 1024} KB`,
    )
    .describe(`the image file, base64; at most ${LOGO_MAX_BYTES / 1024} KB once decoded`),
});

export const organizationView = z
  .object({
    id: z.string().describe("the organization's id (the tenant id)"),
    name: z.string().describe("the organization's name"),
    slug: z.string().describe("the organization's slug"),
    logo: z
      .object({
        contentType: z.enum(LOGO_TYPES).describe("the image's type"),
        size: z.int().describe('bytes'),
        sha256: z.string().describe("SHA-256 of the image's bytes, hex: changes with the image"),
        updatedAt: z.int().describe('when it was uploaded (epoch milliseconds)'),
        dataUrl: z.string().describe('the image as a data: URL'),
      })
      .nullable()
      .describe("the logo that brands the organization's reports; null when none was uploaded"),
  })
  .meta({
    id: 'Organization',
    description: "The caller's organization: the name and logo that brand its reports",
  });
export type OrganizationView = z.output<typeof organizationView>;

export const organizationResponse = z
  .object({ organization: organizationView.describe('the organization, after the change for a write') })
  .describe('The organization');

/** What the organization service answers is exactly this schema's output: typecheck fails on drift. */
export type OrganizationServiceMatchesSchema = Holds<Same<OrganizationServiceView, OrganizationView>>;
