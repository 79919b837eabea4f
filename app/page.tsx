import { redirect } from 'next/navigation';
import { currentUser } from '@/lib/dashboard/session';

export default async function Home() {
  redirect((await currentUser()) ? '/sites' : '/sign-in');
}
