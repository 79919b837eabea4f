import { apiRoute } from '@/lib/api/pipeline';
import { organizationQuota } from '@/lib/limits/service';

export const GET = apiRoute({ auth: 'session' }, ({ db, principal }) => organizationQuota(db, principal));
