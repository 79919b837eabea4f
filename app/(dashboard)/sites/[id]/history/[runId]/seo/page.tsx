import { pastReportPage } from '../../../_views/report-page';
import { seoReport } from '../../../_views/seo';

const page = pastReportPage(seoReport);
export const generateMetadata = page.generateMetadata;
export default page.Page;
