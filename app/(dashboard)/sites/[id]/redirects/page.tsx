import { redirectsReport } from '../_views/redirects';
import { latestReportPage } from '../_views/report-page';

const page = latestReportPage(redirectsReport);
export const generateMetadata = page.generateMetadata;
export default page.Page;
