export { SiteLoading as default } from '@/components/sites/site-loading';
