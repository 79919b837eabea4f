import { latestReportPage } from '../_views/report-page';
import { seoReport } from '../_views/seo';

const page = latestReportPage(seoReport);
export const generateMetadata = page.generateMetadata;
export default page.Page;
