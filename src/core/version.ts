/** The explorer's version: results and results hashes name it (keep in step with package.json). */
export const APP_VERSION = '0.1.0';
