import { brokenLinksReport } from '../../_views/broken-targets';
import { pastReportPage } from '../../_views/report-page';

const page = pastReportPage(brokenLinksReport);
export const generateMetadata = page.generateMetadata;
export default page.Page;
