// Test double of the Firebase JS SDK's firebase-app-check.js: initializeAppCheck with a
// CustomProvider (firebase-js-sdk packages/app-check api.ts, providers.ts), which the auth
// double reads as the real auth reads the App Check component (_getAppCheckToken).
export class CustomProvider {
  constructor(options) { this.options = options; }
  async getToken() { return this.options.getToken(); }
}
export function initializeAppCheck(app, options) {
  app.appCheckProvider = options.provider;
  return {app};
}
