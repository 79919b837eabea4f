import { brokenLinksReport } from '../_views/broken-targets';
import { latestReportPage } from '../_views/report-page';

const page = latestReportPage(brokenLinksReport);
export const generateMetadata = page.generateMetadata;
export default page.Page;
