import { pagesReport } from '../../../_views/pages';
import { pastReportPage } from '../../../_views/report-page';

const page = pastReportPage(pagesReport);
export const generateMetadata = page.generateMetadata;
export default page.Page;
