/** The routes' entry to the organization: its name and logo. Each is defined by the module that owns it. */
export {
  getOrganization,
  removeOrganizationLogo,
  renameOrganization,
  setOrganizationLogo,
} from './organization';
