import { getAuth } from '@/lib/auth/service';

const handle = async (req: Request) => (await getAuth()).handler(req);

export const GET = handle;
export const POST = handle;
