import { pagesReport } from '../_views/pages';
import { latestReportPage } from '../_views/report-page';

const page = latestReportPage(pagesReport);
export const generateMetadata = page.generateMetadata;
export default page.Page;
