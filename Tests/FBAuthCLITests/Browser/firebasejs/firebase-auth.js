// Test double of the Firebase JS SDK's firebase-auth.js, for fbauth's tests. It does what the
// real popup flow does at the points fbauth's page depends on (firebase-js-sdk packages/auth):
// the handler address and its query (core/util/handler.ts, _getRedirectUrl), the helper iframe
// reached through Google's iframe library (platform_browser/iframe/), the auth event it relays,
// `auth/popup-blocked` and `auth/popup-closed-by-user` (platform_browser/strategies/popup.ts),
// and accounts:signInWithIdp sent through the global fetch with the event's fields
// (core/strategies/idp.ts, api/index.ts), and an App Check token as `#fac=` on the handler's
// address. Like the real one, it imports ./firebase-app.js.
import { SDK_VERSION } from './firebase-app.js';

export const inMemoryPersistence = {type: 'NONE'};
export const browserPopupRedirectResolver = {};

export class OAuthProvider {
  constructor(providerId) { this.providerId = providerId; this.scopes = []; this.customParameters = {}; }
  addScope(scope) { this.scopes.push(scope); return this; }
  setCustomParameters(parameters) { this.customParameters = {...parameters}; return this; }
}
export class SAMLAuthProvider {
  constructor(providerId) { this.providerId = providerId; this.scopes = []; this.customParameters = {}; }
  setCustomParameters(parameters) { this.customParameters = {...parameters}; return this; }
}

class AuthError extends Error {
  constructor(code, message) { super(message || code); this.code = code; }
}

export function initializeAuth(app) {
  return {app, name: app.name, config: {...app.options, apiHost: 'identitytoolkit.googleapis.com'}, tenantId: null, emulator: null};
}
export function connectAuthEmulator(auth, url) { auth.emulator = url.replace(/\/$/, ''); }

function loadGapi() {
  if (window.gapi && window.gapi.iframes) return Promise.resolve(window.gapi);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = 'https://apis.google.com/js/api.js';
    script.onload = () => resolve(window.gapi);
    script.onerror = () => reject(new AuthError('auth/internal-error', 'Google iframe library unavailable'));
    document.head.appendChild(script);
  });
}

const frames = new Map();
async function helperIframe(auth) {
  if (frames.has(auth)) return frames.get(auth);
  const gapi = await loadGapi();
  const base = auth.emulator ? auth.emulator + '/emulator/auth/iframe' : `https://${auth.config.authDomain}/__/auth/iframe`;
  const query = new URLSearchParams({apiKey: auth.config.apiKey, appName: auth.name, v: SDK_VERSION});
  const waiting = [];
  const frame = await new Promise((resolve) => gapi.iframes.getContext().open(
    {where: document.body, url: `${base}?${query}`, attributes: {style: {position: 'absolute', top: '-100px', width: '1px', height: '1px'}}},
    resolve));
  await frame.ping();
  // Like the SDK's AuthEventManager, an event reaches only the operation it is for (its type
  // and eventId); the helper iframe's first "no auth event" message is for nobody.
  frame.register('authEvent', (message) => {
    const event = message.authEvent;
    const index = waiting.findIndex((w) => event && event.type === w.type && event.eventId === w.eventId);
    if (index >= 0) waiting.splice(index, 1)[0].deliver(event);
    return {status: 'ACK'};
  }, gapi.iframes.CROSS_ORIGIN_IFRAMES_FILTER);
  const helper = {nextEvent: (type, eventId) => new Promise((deliver) => waiting.push({type, eventId, deliver}))};
  frames.set(auth, helper);
  return helper;
}

export async function signInWithPopup(auth, provider) {
  const helper = await helperIframe(auth);
  const eventId = String(Math.floor(Math.random() * 1e12));
  const query = new URLSearchParams({apiKey: auth.config.apiKey, appName: auth.name, authType: 'signInViaPopup',
    redirectUrl: location.href, v: SDK_VERSION, eventId, providerId: provider.providerId});
  if (Object.keys(provider.customParameters).length) query.set('customParameters', JSON.stringify(provider.customParameters));
  if (provider.scopes.length) query.set('scopes', provider.scopes.join(','));
  if (auth.tenantId) query.set('tid', auth.tenantId);
  const handler = auth.emulator ? auth.emulator + '/emulator/auth/handler' : `https://${auth.config.authDomain}/__/auth/handler`;
  // The App Check token, in the fragment (core/util/handler.ts: `#fac=`).
  const appCheck = auth.app.appCheckProvider ? await auth.app.appCheckProvider.getToken() : null;
  const fragment = appCheck ? '#fac=' + encodeURIComponent(appCheck.token) : '';
  const popup = window.open(`${handler}?${query}${fragment}`, 'fbauth-popup', 'width=500,height=600');
  if (!popup) throw new AuthError('auth/popup-blocked');
  const closed = new Promise((_, reject) => {
    const timer = setInterval(() => {
      if (!popup.closed) return;
      clearInterval(timer);
      setTimeout(() => reject(new AuthError('auth/popup-closed-by-user')), 1000);
    }, 100);
  });
  const event = await Promise.race([helper.nextEvent('signInViaPopup', eventId), closed]);
  if (event.error) throw new AuthError(event.error.code || 'auth/internal-error', event.error.message);
  const api = auth.emulator ? `${auth.emulator}/identitytoolkit.googleapis.com` : 'https://identitytoolkit.googleapis.com';
  const body = {requestUri: event.urlResponse, sessionId: event.sessionId, postBody: event.postBody || undefined,
    tenantId: event.tenantId || undefined, returnSecureToken: true, returnIdpCredential: true};
  try {
    const response = await fetch(`${api}/v1/accounts:signInWithIdp?key=${encodeURIComponent(auth.config.apiKey)}`,
      {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
    const json = await response.json();
    if (!response.ok) throw new AuthError('auth/internal-error', json.error && json.error.message);
    return {user: json};
  } finally {
    popup.close();
  }
}
