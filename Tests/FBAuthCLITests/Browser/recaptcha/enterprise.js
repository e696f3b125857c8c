// A test double of https://www.google.com/recaptcha/enterprise.js for fbauth's tests (served by
// fbauth-test-chromium): execute() answers with a token that the fbauth stand-in accepts for the
// site key and action it was asked for, as Google's service would for a person.
(function () {
  var query = new URLSearchParams(((document.currentScript && document.currentScript.src) || '').split('?')[1] || '');
  window.grecaptcha = {
    enterprise: {
      ready: function (callback) { setTimeout(callback, 0); },
      execute: function (siteKey, options) {
        return Promise.resolve('fbauth-stand-in-recaptcha-enterprise.' + siteKey + '.' + options.action);
      }
    }
  };
  var onload = query.get('onload');
  if (onload && window[onload]) setTimeout(function () { window[onload](); }, 0);
})();
