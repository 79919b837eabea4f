/** The Organization page's read of the organization (name and logo), from the organization's service. */
export { getOrganization } from '@/lib/orgs/service';
