/**
 * The workspace and tenant a request without one gets. Apart from the workspace service so that the CLI can show them
 * in `--help` without loading the service's dependencies (NOTES.md, "Tests and CI").
 */
export const DEFAULT_WORKSPACE = '_default';
export const DEFAULT_TENANT = 'default';
