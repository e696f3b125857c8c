// Test double of the Firebase JS SDK's firebase-app.js: the one call fbauth's page makes.
export const SDK_VERSION = 'fbauth-test-double';
const apps = new Map();
export function initializeApp(options, name = '[DEFAULT]') {
  const app = {name, options: {...options}};
  apps.set(name, app);
  return app;
}
