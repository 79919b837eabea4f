import { PageSkeleton } from '@/components/ui/surface';

export default function DashboardLoading() {
  return <PageSkeleton />;
}
